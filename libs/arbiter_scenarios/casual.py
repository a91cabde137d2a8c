"""Scenario keys of the casual variants (../shared/spec/scenarios.md): the checks `plane`
and `planar_deck_top` (Planechase, CR 901), `scheme_in_motion` and `scheme_deck_bottom`
(Archenemy, 904), the action `roll_planar_die` (901.9)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from arbiter_core.kernel.commands import Command, RollPlanarDie
from arbiter_core.variants.archenemy import SCHEME_DECK, face_up_schemes
from arbiter_core.variants.planechase import PLANAR_DECK, face_up

if TYPE_CHECKING:
    from arbiter_scenarios.runner import Run


class CasualCheckFailed(Exception):
    pass


def _plane(run: Run, value: Any, where: str) -> None:
    """`{plane: Name}`: that card is face up (one of several in Grand Melee, 901.14);
    `{plane: none}`: none is; `{plane: {is: Name, controller: P}}`: and P controls it
    (the planar controller, 901.6)."""
    ups = sorted(o.name for o in face_up(run.state))
    if isinstance(value, dict):  # {is: Name, controller: P}: and its planar controller
        _plane(run, value.get("is"), where)
        held = {o.controller for o in face_up(run.state) if o.name == value.get("is")}
        if "controller" in value and value["controller"] not in held:
            raise CasualCheckFailed(f"{where}: planar controller of {value.get('is')}: "
                                    f"expected {value['controller']!r}, got {sorted(held)!r}")
        return
    if value is None or str(value).lower() == "none":
        if ups:
            raise CasualCheckFailed(f"{where}: plane: expected none, got {ups!r}")
        return
    if str(value) not in ups:
        raise CasualCheckFailed(f"{where}: plane: expected {value!r}, got "
                                f"{ups[0] if len(ups) == 1 else ups or 'none'!r}")


def _planar_deck_top(run: Run, value: Any, where: str) -> None:
    """`{planar_deck_top: {player: A1, is: Naya}}`: the top card of that planar deck."""
    if not isinstance(value, dict) or "is" not in value:
        raise CasualCheckFailed(f"{where}: planar_deck_top needs {{player, is}}")
    s = run.state
    player = value.get("player") or s.seats[0]
    if player not in s.players:
        raise CasualCheckFailed(f"{where}: no player named {player!r}")
    deck = s.zone(str(player), PLANAR_DECK)
    actual = s.objects[deck[0]].name if deck else None
    if actual != value["is"]:
        raise CasualCheckFailed(f"{where}: top of {player}'s planar deck: expected "
                                f"{value['is']!r}, got {actual!r}")


def _scheme_in_motion(run: Run, value: Any, where: str) -> None:
    """`{scheme_in_motion: Name}`: that scheme is face up; `none`: no scheme is."""
    ups = sorted(o.name for o in face_up_schemes(run.state))
    if value is None or str(value).lower() == "none":
        if ups:
            raise CasualCheckFailed(f"{where}: scheme_in_motion: expected none, got {ups!r}")
    elif str(value) not in ups:
        raise CasualCheckFailed(f"{where}: scheme_in_motion: expected {value!r}, got "
                                f"{ups or 'none'!r}")


def _scheme_deck_bottom(run: Run, value: Any, where: str) -> None:
    """`{scheme_deck_bottom: {player: A1, is: Name}}`: the bottom card of a scheme deck
    (where a non-ongoing scheme goes, 704.6e)."""
    if not isinstance(value, dict) or "is" not in value:
        raise CasualCheckFailed(f"{where}: scheme_deck_bottom needs {{player, is}}")
    s = run.state
    player = str(value.get("player"))
    if player not in s.players:
        raise CasualCheckFailed(f"{where}: no player named {player!r}")
    deck = s.zone(player, SCHEME_DECK)
    actual = s.objects[deck[-1]].name if deck else None
    if actual != value["is"]:
        raise CasualCheckFailed(f"{where}: bottom of {player}'s scheme deck: expected "
                                f"{value['is']!r}, got {actual!r}")


CHECKS: dict[str, Callable[[Run, Any, str], None]] = {
    "plane": _plane,
    "planar_deck_top": _planar_deck_top,
    "scheme_in_motion": _scheme_in_motion,
    "scheme_deck_bottom": _scheme_deck_bottom,
}


def command(run: Run, player: str, action: dict[str, Any]) -> Command | None:
    """The command of a casual variant's action, or None."""
    if action.get("roll_planar_die"):
        marker = int(action["stack"]) if "stack" in action else None
        return RollPlanarDie(player=player, marker=marker)
    return None
