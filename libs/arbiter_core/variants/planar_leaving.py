"""Planechase when a player leaves the game (CR 800.4p, 901.6, 901.10b): if the planar
controller would leave, the next player in turn order who wouldn't leave becomes the
planar controller first, then the old one leaves - and so the abilities of phenomena
they controlled stay on the stack, controlled by the new planar controller (901.10b;
`multiplayer.leaving` removes the rest of a leaver's stack items, 800.4a). With the
single planar deck option (901.15b) the new planar controller owns the communal cards,
so none of them leaves the game with the old one.

What happens after the player has left (901.10, 901.10a) is `planechase.planar_leavers`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from arbiter_core.cards import get_card
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.events.base import EventBase
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import GameState
from arbiter_core.kernel.txn import Txn, before_emit
from arbiter_core.variants.planechase import (
    PlanarControllerChanged,
    face_up,
    is_planechase,
)


class PhenomenonAbilitiesPassed(EventBase):
    """Abilities of phenomena on the stack are now controlled by the new planar
    controller `player` (901.10b)."""

    type: Literal["PhenomenonAbilitiesPassed"] = "PhenomenonAbilitiesPassed"
    player: str
    items: list[int]


def _heir(s: GameState, leaver: str) -> str | None:
    """The next player in turn order who wouldn't leave the game (800.4p): still in it
    and not among those who lost at the same time."""
    seats = s.seats
    i = seats.index(leaver)
    for k in range(1, len(seats)):
        p = seats[(i + k) % len(seats)]
        if not s.players[p].left and not s.players[p].lost:
            return p
    return None


def _fewer_markers(s: GameState, leaver: str) -> bool:
    """901.14b: in Grand Melee, leaving reduces the number of turn markers (807.4a):
    no other player becomes a planar controller."""
    staying = [p for p in s.in_game() if p != leaver and not s.players[p].lost]
    return s.grand_melee and len(staying) // 4 < len(s.markers)


def _from_phenomenon(name: str) -> bool:
    try:
        return "Phenomenon" in get_card(name).types
    except KeyError:
        return False


@before_emit(ev.PlayerLeftGame)
def _planar_controller_leaves(t: Txn, e: ev.PlayerLeftGame) -> None:
    """CR 800.4p, 901.6: the new planar controller first (in Grand Melee, for the planes
    this player controls, 901.14a); 901.10b: the phenomena's abilities go with it."""
    s = t.s
    if not is_planechase(s):
        return
    held = [o.id for o in face_up(s) if o.controller == e.player]
    heir = _heir(s, e.player)
    if not held or heir is None or _fewer_markers(s, e.player):
        return
    t.emit(PlanarControllerChanged(player=heir, objs=held, rule="800.4p"))
    items = [i.id for i in t.s.stack_items.values() if i.controller == e.player
             and i.kind != "spell" and _from_phenomenon(i.source_name)]
    if items:
        t.emit(PhenomenonAbilitiesPassed(player=heir, items=items, rule="901.10b"))


@applies(PhenomenonAbilitiesPassed)
def _passed(s: GameState, e: PhenomenonAbilitiesPassed) -> None:
    for item in e.items:
        s.stack_items[item] = replace(s.stack_items[item], controller=e.player)


@explains(PhenomenonAbilitiesPassed)
def _explain_passed(before: GameState, e: PhenomenonAbilitiesPassed, name: Namer) -> str:
    return f"{e.player} now controls the phenomena's abilities on the stack"
