"""Removal from combat (CR 506.4): a permanent that stops being a creature, or whose
controller changes, is removed from combat - here, an attacking or blocking creature
whose controller changes (Ray of Command or Act of Treason on an attacker, 506.4).

A removed attacking creature stops attacking: it deals and is dealt no combat damage
as an attacker and is no longer in its band (702.22f). A removed blocking creature
stops blocking, but the creature it blocked stays blocked (506.4, 509.1h): it deals no
combat damage, and with trample its attacker assigns all its damage to the player
(702.19e). A permanent that leaves the battlefield is a new object (400.7) and so is
out of combat without this event.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Literal

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.edits import set_marker
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import GameState, Obj
from arbiter_core.kernel.txn import watch


class RemovedFromCombat(ev.EventBase):
    """`obj` is removed from combat on marker `marker`'s turn (506.4)."""

    type: Literal["RemovedFromCombat"] = "RemovedFromCombat"
    obj: int
    marker: int


def in_combat(s: GameState, obj: int) -> int | None:
    """The marker whose combat `obj` is attacking or blocking in, if any."""
    for m in s.markers.values():
        c = m.combat
        if c is not None and obj not in c.removed and (
                obj in c.attacker_ids() or any(b == obj for b, _ in c.blocks)):
            return m.number
    return None


@watch(ev.ControlChanged, order=20)
def _control_changed(s: GameState, e: ev.ControlChanged, current: int | None,
                     before: Obj | None) -> Sequence[ev.Event]:
    """506.4: a creature in combat whose controller changes is removed from combat."""
    marker = in_combat(s, e.obj)
    return [] if marker is None else [RemovedFromCombat(obj=e.obj, marker=marker,
                                                        rule="506.4")]


@applies(RemovedFromCombat)
def _removed(s: GameState, e: RemovedFromCombat) -> None:
    c = s.markers[e.marker].combat
    if c is None:
        return
    set_marker(s, e.marker, combat=replace(
        c, attacks=tuple((a, d) for a, d in c.attacks if a != e.obj),
        planeswalkers=tuple((a, w) for a, w in c.planeswalkers if a != e.obj),
        bands=tuple(tuple(x for x in band if x != e.obj) for band in c.bands),
        removed=(*c.removed, e.obj)))


@explains(RemovedFromCombat)
def _explain_removed(before: GameState, e: RemovedFromCombat, name: Namer) -> str:
    return f"{name(e.obj)} is removed from combat"
