"""Naming objects and players the way scenario files do (docs/scenarios.md):
a player by name, a card by name, `Name#N` for the N-th such card in setup order, or a
mapping `{card: Name, controller: P}` / `{card: Name, zone: graveyard, owner: P}`."""

from __future__ import annotations

import re
from typing import Any

from arbiter_core.kernel.refs import Ref, object_ref, player_ref
from arbiter_core.kernel.state import GameState, Obj

_NUMBERED = re.compile(r"^(?P<name>.+)#(?P<n>\d+)$")


class NameError_(Exception):
    """A name in an action or check that names nothing (or is ambiguous)."""


class Names:
    def __init__(self, setup_cards: list[str]) -> None:
        # setup_cards[k] is the name of physical card k+1 (setup order).
        self.setup_cards = setup_cards

    def card_number(self, ref: str) -> int | None:
        m = _NUMBERED.match(ref)
        if not m:
            return None
        name, n = m["name"], int(m["n"])
        seen = 0
        for i, card in enumerate(self.setup_cards):
            if card == name:
                seen += 1
                if seen == n:
                    return i + 1
        raise NameError_(f"there is no {name}#{n} in the setup")

    def objects(self, s: GameState, ref: str) -> list[Obj]:
        """Current objects a bare or numbered card name refers to, in setup order."""
        number = self.card_number(ref)
        if number is not None:
            return [o for o in s.objects.values() if o.card == number]
        return sorted((o for o in s.objects.values() if o.name == ref), key=lambda o: o.card)

    def in_zone(self, s: GameState, ref: str, zone: str, owner: str | None = None,
                controller: str | None = None) -> list[Obj]:
        return [o for o in self.objects(s, ref) if o.zone == zone
                and (owner is None or o.owner == owner)
                and (controller is None or o.controller == controller)]

    def on_stack(self, s: GameState, ref: dict[str, Any]) -> int:
        """The object of the spell `{stack: N, index: I}` names (a copy too, 707.10)."""
        m = s.markers.get(int(ref.get("stack", 1)))
        index = int(ref.get("index", 0))
        items = [s.stack_items[i] for i in reversed(m.stack)] if m is not None else []
        if index >= len(items) or items[index].obj is None:
            raise NameError_(f"no spell at {ref}")
        obj = items[index].obj
        assert obj is not None
        return obj

    def permanent(self, s: GameState, ref: Any) -> Obj:
        """The permanent a check names (bare name: the only one with that name)."""
        if isinstance(ref, dict):
            name = str(ref.get("card"))
            zone = str(ref.get("zone", "battlefield"))
            found = self.in_zone(s, name, zone, owner=ref.get("owner"),
                                 controller=ref.get("controller"))
        else:
            name = str(ref)
            found = self.in_zone(s, name, "battlefield")
            if _NUMBERED.match(name) is None and len(found) > 1:
                raise NameError_(f"{name} is ambiguous: {len(found)} on the battlefield; "
                                 f"use {name}#N or {{card: {name}, controller: P}}")
        if not found:
            raise NameError_(f"no {name} on the battlefield" if not isinstance(ref, dict)
                             else f"no such object {ref}")
        return found[0]

    def target(self, s: GameState, ref: Any) -> list[Ref]:
        """Candidate targets for a name: a player, or objects by zone preference; or a
        spell on a stack, `{stack: N, index: I}` (index 0 = its top)."""
        if isinstance(ref, dict):
            return [object_ref(self.on_stack(s, ref))]
        ref = str(ref)
        if ref in s.players:
            return [player_ref(ref)]
        out: list[Ref] = []
        for zone in ("battlefield", "stack", "graveyard", "exile", "hand", "library"):
            out += [object_ref(o.id) for o in self.objects(s, ref) if o.zone == zone]
        if not out:
            raise NameError_(f"{ref!r} names no player or object")
        return out
