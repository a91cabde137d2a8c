"""The Commander checks of a scenario (CR 903.8, 903.10a): `commander_tax` and
`commander_damage`."""

from __future__ import annotations

from typing import Any

from arbiter_core.kernel.state import GameState
from arbiter_core.variants.commander_cast import commander_tax
from arbiter_core.variants.commander_damage import commander_damage


class CommanderCheckFailed(Exception):
    pass


def commander_check(s: GameState, key: str, value: Any, where: str) -> None:
    """Raise CommanderCheckFailed unless the check holds."""
    if s.commander is None:
        raise CommanderCheckFailed(f"{where}: {key} is for the commander variant, not "
                                   f"{s.variant}")
    if not isinstance(value, dict):
        raise CommanderCheckFailed(f"{where}: {key} is a mapping")
    if key == "commander_tax":
        player, expected = value.get("player"), value.get("n")
        if player not in s.players:
            raise CommanderCheckFailed(f"{where}: no player named {player!r}")
        actual = commander_tax(s, str(player))
        what = f"commander tax of {player}"
    else:
        to, source, expected = value.get("to"), value.get("from"), value.get("n")
        if to not in s.players:
            raise CommanderCheckFailed(f"{where}: no player named {to!r}")
        actual = commander_damage(s, str(to), str(source))
        what = f"combat damage dealt to {to} by {source}"
    if actual != expected:
        raise CommanderCheckFailed(f"{where}: {what}: expected {expected}, got {actual}")
