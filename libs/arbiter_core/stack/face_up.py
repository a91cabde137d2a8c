"""Turning a face-down permanent face up (CR 708.7, 708.8), a special action that
doesn't use the stack (116.2b).

The rules that let a permanent be face down say how it may be turned face up, each a
procedure registered here (`face_up_procedure`): morph's, paying the morph cost
(702.37e, `keywords/morph.py`); manifest's, paying the mana cost of a manifested
creature card (701.40b, `effects/manifest.py`); a manifested card with morph may use
either (701.40c). Any time the permanent's controller has priority (116.2b), they show
what the procedure asks (the cost), pay it and turn the permanent face up
(`TurnedFaceUp`, 708.8), then receive priority again (116.3).

A rejection names no card: while the permanent is face down, what it is is its
controller's to know (708.5).
"""

from __future__ import annotations

from collections.abc import Callable

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.actions import priority_actions
from arbiter_core.kernel.commands import PlayerCommand, TurnFaceUp
from arbiter_core.kernel.decide import handles
from arbiter_core.kernel.errors import InvalidCommand, RuleViolation
from arbiter_core.kernel.registry import Registry
from arbiter_core.kernel.state import GameState, Marker, Obj
from arbiter_core.kernel.txn import Txn
from arbiter_core.stack.mana import ManaCost, can_pay, pay
from arbiter_core.stack.priority import queue_priority, require_priority

#: name -> (permanent -> the cost to turn it face up this way, None if it can't be)
Procedure = Callable[[Obj], ManaCost | None]
FACE_UP: Registry[str, tuple[str, Procedure]] = Registry("way to turn a permanent face up")


def face_up_procedure(name: str, rule: str) -> Callable[[Procedure], Procedure]:
    """Register the decorated function as the procedure `name` (its CR `rule`)."""
    def add(fn: Procedure) -> Procedure:
        FACE_UP.add(name, (rule, fn))
        return fn
    return add


def ways(o: Obj) -> list[tuple[str, str, ManaCost]]:
    """(procedure, rule, cost) for each way the face-down permanent can be turned face
    up, in the order the procedures were registered."""
    out: list[tuple[str, str, ManaCost]] = []
    for name, (rule, fn) in FACE_UP.table.items():
        cost = fn(o)
        if cost is not None:
            out.append((name, rule, cost))
    return out


def _face_down_permanent(s: GameState, cmd: TurnFaceUp) -> Obj:
    o = s.objects.get(cmd.card)
    if o is None or o.zone != "battlefield":
        raise InvalidCommand("card", f"no permanent {cmd.card}")
    if not o.face_down:
        raise RuleViolation("708.7", f"permanent {o.id} is not face down")
    if o.controller != cmd.player:
        raise RuleViolation("708.7", f"{cmd.player} doesn't control permanent {o.id}")
    return o


@handles(TurnFaceUp)
def turn_face_up(t: Txn, cmd: TurnFaceUp) -> None:
    """116.2b: pay the cost of the procedure, then turn it face up (708.8); priority
    again after (116.3)."""
    s = t.s
    m = require_priority(s, cmd.player, cmd.marker)
    o = _face_down_permanent(s, cmd)
    if cmd.using is not None and cmd.using not in FACE_UP.table:
        raise InvalidCommand("using", f"no way to turn a permanent face up named "
                                      f"{cmd.using[:32]!r}")
    found = [w for w in ways(o) if cmd.using in (None, w[0])]
    if not found:
        raise RuleViolation("708.7", f"permanent {o.id} can't be turned face up "
                                     f"{'this way' if cmd.using else 'by a special action'}")
    _, rule, cost = found[0]
    if not can_pay(s, cmd.player, cost):
        raise RuleViolation(rule, f"{cmd.player} can't pay the cost to turn permanent "
                                  f"{o.id} face up")
    pay(t, cmd.player, cost, cmd.pay)
    t.emit(ev.TurnedFaceUp(obj=o.id, rule=rule))
    queue_priority(t, m.number, cmd.player)


@priority_actions(order=16)
def _face_up_actions(s: GameState, m: Marker, player: str) -> list[PlayerCommand]:
    """Each face-down permanent the player can turn face up now, each way they can pay."""
    return [TurnFaceUp(player=player, card=o.id, using=name, marker=m.number)
            for o in s.permanents(player) if o.face_down
            for name, _, cost in ways(o) if can_pay(s, player, cost)]
