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

from collections.abc import Iterator

from arbiter_core.cards.model import GainControl, StaticAbility
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.decide import AFTER_COMMAND
from arbiter_core.kernel.edits import set_obj
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.memo import KeyedMemo
from arbiter_core.kernel.state import Effect, GameState, Marker, Obj, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import definition
from arbiter_core.stack.items import Legal, effect, group, objects_of, players_of


def _control_auras(s: GameState) -> dict[int, list[Obj]]:
    """Auras with "You control enchanted creature", by the object they enchant."""
    out: dict[int, list[Obj]] = {}
    for oid in s.battlefield:
        aura = s.objects[oid]
        if aura.attached_to is None:
            continue
        for ab in definition(aura).abilities:
            if isinstance(ab, StaticAbility) and any(
                    isinstance(e, GainControl) and e.subject == "enchanted" for e in ab.effects):
                out.setdefault(aura.attached_to, []).append(aura)
    return out


def _claims(s: GameState, o: Obj, auras: dict[int, list[Obj]]) -> list[tuple[int, str]]:
    """(timestamp, controller) for every control effect on `o`, in timestamp order."""
    out = [(f.timestamp, f.controller) for f in s.effects
           if f.kind == "control" and o.id in f.affected and f.controller]
    out += [(a.timestamp, a.controller) for a in auras.get(o.id, ())]
    out.sort()
    return out


def controller(s: GameState, o: Obj, auras: dict[int, list[Obj]] | None = None) -> str:
    """Layer 2: the last control effect in timestamp order wins (613.7); effects that
    would give control to a player who has left do nothing (800.4b)."""
    current = o.default_controller or o.owner
    for _, who in _claims(s, o, _control_auras(s) if auras is None else auras):
        if who in s.players and not s.players[who].left:
            current = who
    return current


def _claimed(s: GameState, auras: dict[int, list[Obj]]) -> set[int]:
    """Permanents that a control effect or a control Aura applies to."""
    return {i for f in s.effects if f.kind == "control" for i in f.affected} | set(auras)


def _unsettled(s: GameState, claimed: set[int]) -> Iterator[Obj]:
    """The permanents whose control may change, in battlefield order: a control effect
    applies to it, or it isn't with its default controller, or that player has left.
    Each is looked up when reached, so a caller may change the state in between."""
    for oid in list(s.battlefield):
        o = s.objects.get(oid)
        if o is None:
            continue
        default = o.default_controller or o.owner
        if oid in claimed or o.controller != default or s.players[default].left:
            yield o


def _all_settled(s: GameState) -> bool:
    return next(_unsettled(s, _claimed(s, _control_auras(s))), None) is None


def _inputs(s: GameState) -> tuple[object, ...]:
    """Everything `_all_settled` reads: the permanents, the effects, the players."""
    return (tuple(map(s.objects.get, s.battlefield)), tuple(s.effects),
            tuple(s.players.values()))


# Asked after every command; most leave every permanent and effect as it was.
_nothing_to_do = KeyedMemo(_inputs, _all_settled)


def refresh(t: Txn, ended: tuple[Effect, ...] = ()) -> None:
    """Bring every permanent's controller in line with layer 2, and exile what a player
    who left still controls (800.4a, 800.4c). `ended` are effects that just ended (at
    cleanup), so a "when you lose control" trigger can see them."""
    s = t.s
    if _nothing_to_do(s):
        return
    auras = _control_auras(s)
    for o in _unsettled(s, _claimed(s, auras)):
        oid = o.id
        want = controller(s, o, auras)
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


@applies(ev.ControlChanged)
def _control_changed(s: GameState, e: ev.ControlChanged) -> None:
    set_obj(s, e.obj, controller=e.controller, sick=True)


AFTER_COMMAND.add("all", refresh)  # layer 2 after every change (613.1b, 800.4a)


@effect(GainControl)
def _gain_control(t: Txn, m: Marker, item: StackItem, eff: GainControl, legal: Legal,
                  index: int) -> bool:
    """Gain control of the targets (613.1b), or give the source to the teammate targeted
    (deploy creatures, 804.2)."""
    targets = group(legal, eff.target)
    mates = players_of(targets)
    if mates and item.source in t.s.battlefield:  # deploy creatures (804.2)
        t.emit(ev.EffectCreated(kind="control", affected=[item.source], controller=mates[0],
                                marker=m.number, until="permanent", rule="804.2"))
        refresh(t)
        return False
    ids = objects_of(targets)
    if ids:
        t.emit(ev.EffectCreated(kind="control", affected=ids, controller=item.controller,
                                marker=m.number, tap_when_lost=eff.tap_when_lost,
                                until="end_of_turn" if eff.until_end_of_turn
                                else "permanent", rule="613.1b"))
        refresh(t)
    return False


@explains(ev.ControlChanged)
def _explain_control_changed(before: GameState, e: ev.ControlChanged, name: Namer) -> str:
    return f"{e.controller} gains control of {name(e.obj)}"
