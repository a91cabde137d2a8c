"""Control-changing effects, layer 2 (CR 613.1b), and the control part of leaving the
game (CR 800.4a-c).

The effective controller is derived from the default controller (who put the permanent
onto the battlefield) and the control effects in timestamp order (613.7): resolved
effects (Act of Treason, Ray of Command, deploy creatures 804.2) and the static
"You control enchanted creature" of an attached Aura (Mind Control, Persuasion).
`refresh` records every difference as a `ControlChanged` event, so the log shows when
control moved and by which rule.
"""

from __future__ import annotations

from arbiter_core import events as ev
from arbiter_core.cards.model import GainControl, StaticAbility
from arbiter_core.layers import definition
from arbiter_core.state import Effect, GameState, Obj
from arbiter_core.txn import Txn


def _claims(s: GameState, o: Obj) -> list[tuple[int, str, bool]]:
    """(timestamp, controller, tap_when_lost) for every control effect on `o`."""
    out: list[tuple[int, str, bool]] = []
    for f in s.effects:
        if f.kind == "control" and o.id in f.affected and f.controller:
            out.append((f.timestamp, f.controller, f.tap_when_lost))
    for oid in s.battlefield:
        aura = s.objects[oid]
        if aura.attached_to != o.id:
            continue
        for ab in definition(aura).abilities:
            if isinstance(ab, StaticAbility) and any(
                    isinstance(e, GainControl) and e.subject == "enchanted" for e in ab.effects):
                out.append((aura.timestamp, aura.controller, False))
    out.sort()
    return out


def controller(s: GameState, o: Obj) -> str:
    """Layer 2: the last control effect in timestamp order wins (613.7); effects that
    would give control to a player who has left do nothing (800.4b)."""
    current = o.default_controller or o.owner
    for _, who, _ in _claims(s, o):
        if who in s.players and not s.players[who].left:
            current = who
    return current


def refresh(t: Txn, ended: tuple[Effect, ...] = ()) -> None:
    """Bring every permanent's controller in line with layer 2, and exile what a player
    who left still controls (800.4a, 800.4c). `ended` are effects that just ended (at
    cleanup), so a "when you lose control" trigger can see them."""
    s = t.s
    for oid in list(s.battlefield):
        o = s.objects.get(oid)
        if o is None:
            continue
        want = controller(s, o)
        if s.players[want].left:
            t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="exile",
                                  to_player=o.owner, rule="800.4c" if o.controller != want
                                  else "800.4a"))
            continue
        if want != o.controller:
            lost_tap = any(f.controller == o.controller and f.tap_when_lost
                           and oid in f.affected for f in (*ended, *s.effects))
            t.emit(ev.ControlChanged(obj=oid, controller=want, rule="613.1b"))
            if lost_tap and not t.s.objects[oid].tapped:
                # Ray of Command's delayed trigger (603.7): tapped when control is lost.
                t.emit(ev.PermanentTapped(obj=oid, rule="603.7c"))
