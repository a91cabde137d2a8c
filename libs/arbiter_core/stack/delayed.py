"""Delayed triggered abilities (CR 603.7) "at the beginning of the next end step":
Astral Slide's return of the card it exiled, Maddening Imp's destruction of the
creatures that didn't attack.

A resolving ability creates one (603.7a; `DelayedTriggerCreated`), with the source and
controller of that ability (603.7d-e). As the next end step begins - any marker's, in
Grand Melee - each one created before then triggers, once (603.7b), and waits like any
triggered ability to be put on the stack the next time a player would receive priority
(603.3), on the stack of the marker whose end step it is (807.5b). Players get priority
with it on the stack and may respond (117.3b); it does its work as it resolves, and only
to the objects it refers to that are still where it expects them (603.7c, 400.7).
"""

from __future__ import annotations

from arbiter_core.cards.model import ExileUntilNextEndStep
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import Delayed, GameState, Marker, StackItem, Step, Trigger
from arbiter_core.kernel.txn import Txn
from arbiter_core.stack.items import Legal, effect, objects_of
from arbiter_core.stack.resolve import DELAYED
from arbiter_core.turns.steps import step_action


@step_action(Step.END)
def trigger_at_end_step(t: Txn, m: Marker) -> bool:
    """The end step of marker `m` began: every waiting delayed trigger triggers (they go
    on the stack the next time a player would receive priority, 603.3)."""
    for _ in range(len(t.s.delayed)):
        t.emit(ev.DelayedAbilityTriggered(index=0, marker=m.number, rule="603.7b"))
    return False


@DELAYED.fill
def resolve(t: Txn, item: StackItem) -> None:
    """What the delayed triggered ability `item` does as it resolves (608.2c)."""
    d = item.delayed
    assert d is not None
    if d.kind == "destroy_unless_attacked":
        _destroy_unless_attacked(t, d)
    else:
        _return_from_exile(t, d)


def _return_from_exile(t: Txn, d: Delayed) -> None:
    """Astral Slide: "return the exiled card to the battlefield under its owner's
    control" - if it is still the object that was exiled (603.7c). A card whose owner
    has left the game left with them (800.4a)."""
    s = t.s
    if d.objs:
        card = s.objects.get(d.objs[0])
    else:  # created before the exiled object was recorded: the card by its number
        card = next((o for o in s.objects.values() if o.card == d.card and o.zone == "exile"),
                    None)
    if card is None or card.zone != "exile" or s.players[card.owner].left:
        return
    t.emit(ev.ObjectMoved(obj=card.id, new_id=t.new_id(), to_zone="battlefield",
                          to_player=card.owner, controller=card.owner, rule="603.7c"))


def _destroy_unless_attacked(t: Txn, d: Delayed) -> None:
    """Maddening Imp: "destroy each of those creatures that didn't attack this turn" -
    each still on the battlefield as the same object (603.7c) that wasn't declared as an
    attacker this turn (508.1) is destroyed (701.8a)."""
    s = t.s
    attacked = {a for m in s.markers.values() for a in m.attacked}
    for oid in d.objs:
        o = s.objects.get(oid)
        if o is not None and o.zone == "battlefield" and oid not in attacked:
            t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="graveyard",
                                  to_player=o.owner, rule="701.8a"))


@applies(ev.DelayedTriggerCreated)
def _delayed_created(s: GameState, e: ev.DelayedTriggerCreated) -> None:
    s.delayed.append(Delayed(e.card, e.owner, e.controller, e.source_name, e.kind,
                             tuple(e.objs), e.source))


@applies(ev.DelayedAbilityTriggered)
def _delayed_triggered(s: GameState, e: ev.DelayedAbilityTriggered) -> None:
    d = s.delayed.pop(e.index)
    s.triggers.append(Trigger(d.source or 0, d.source_name, d.controller, 0, e.marker,
                              delayed=d))


@applies(ev.DelayedTriggerRemoved)
def _delayed_removed(s: GameState, e: ev.DelayedTriggerRemoved) -> None:
    s.delayed.pop(e.index)


@effect(ExileUntilNextEndStep)
def _exile_until_end_step(t: Txn, m: Marker, item: StackItem, eff: ExileUntilNextEndStep,
                          legal: Legal, index: int) -> bool:
    """Exile the target (406.1); a delayed trigger returns it at the beginning of the
    next end step (603.7a, Astral Slide)."""
    for oid in objects_of(legal[eff.target]):
        o = t.s.objects[oid]
        new_id = t.new_id()
        t.emit(ev.ObjectMoved(obj=oid, new_id=new_id, to_zone="exile", to_player=o.owner,
                              rule="406.1"))
        t.emit(ev.DelayedTriggerCreated(card=t.s.objects[new_id].card, owner=o.owner,
                                        controller=item.controller,
                                        source_name=item.source_name, objs=[new_id],
                                        source=item.source, rule="603.7a"))
    return False


@explains(ev.DelayedTriggerCreated)
def _explain_delayed_created(before: GameState, e: ev.DelayedTriggerCreated,
                             name: Namer) -> str:
    return f"{e.source_name} sets up a delayed trigger for the next end step ({e.kind})"


@explains(ev.DelayedAbilityTriggered)
def _explain_delayed_triggered(before: GameState, e: ev.DelayedAbilityTriggered,
                               name: Namer) -> str:
    d = before.delayed[e.index] if e.index < len(before.delayed) else None
    return f"{d.source_name if d else 'a'} delayed trigger triggers"


@explains(ev.DelayedTriggerRemoved)
def _explain_delayed_removed(before: GameState, e: ev.DelayedTriggerRemoved,
                             name: Namer) -> str:
    d = before.delayed[e.index] if e.index < len(before.delayed) else None
    return f"{d.source_name if d else 'a'} delayed trigger is removed"
