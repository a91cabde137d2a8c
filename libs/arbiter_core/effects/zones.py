"""Effects that move objects or make them (CR 608.2c): destroy (701.8), counter
(701.6), return to the hand, create tokens (111.2), attach (701.3; equip, 702.6a),
untap (701.26b), and a spell shuffled into its owner's library instead of going to the
graveyard (608.2n, done as it leaves the stack: `resolve.finish`)."""

from __future__ import annotations

from collections.abc import Callable

from arbiter_core.cards.model import (
    Attach,
    CounterTarget,
    CreateTokenForThatController,
    CreateTokens,
    Destroy,
    EquipAbility,
    ReturnToHand,
    ShuffleIntoLibrary,
    TargetSpec,
    Untap,
)
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.registry import Hooks
from arbiter_core.kernel.state import Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import is_creature
from arbiter_core.multiplayer.influence import object_in_range
from arbiter_core.stack.items import (
    Legal,
    Meaning,
    ability_effects,
    amount,
    effect,
    objects_of,
)

#: replacement effects on an object a resolving effect is about to put into a zone
#: (614.1a): each returns the zone it goes to instead (or the same one), or None when it
#: paused the resolution to ask a player first (903.9b: a commander's owner)
MoveReplacement = Callable[[Txn, Marker, StackItem, int, int, str], "str | None"]
MOVE_REPLACEMENTS: Hooks[str, MoveReplacement] = Hooks("replacement of a zone change")


def replaced_zone(t: Txn, m: Marker, item: StackItem, index: int, oid: int,
                  zone: str) -> str | None:
    """Where object `oid` goes instead of `zone` (None: the resolution waits)."""
    to: str | None = zone
    for hook in MOVE_REPLACEMENTS["all"]:
        to = hook(t, m, item, index, oid, zone)
        if to is None or to != zone:
            return to
    return to


@effect(Destroy)
def _destroy(t: Txn, m: Marker, item: StackItem, eff: Destroy, legal: Legal,
             index: int) -> bool:
    """CR 701.8a: a target, or all creatures (each within range, 801.10)."""
    s = t.s
    ids = ([o.id for o in s.permanents() if is_creature(o)
            and object_in_range(s, item.controller, o)]
           if eff.what == "all_creatures" else objects_of(legal[eff.what]))
    for oid in ids:
        t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="graveyard",
                              to_player=s.objects[oid].owner, rule="701.8a"))
    return False


@effect(CounterTarget)
def _counter(t: Txn, m: Marker, item: StackItem, eff: CounterTarget, legal: Legal,
             index: int) -> bool:
    """CR 701.6a: the spell leaves its stack for its owner's graveyard."""
    s = t.s
    for oid in objects_of(legal[eff.what]):
        countered = next(i for i in s.stack_items.values() if i.obj == oid)
        t.emit(ev.StackItemCountered(item=countered.id, marker=countered.marker,
                                     rule="701.6a"))
        t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="graveyard",
                              to_player=s.objects[oid].owner, rule="701.6a"))
    return False


@effect(ReturnToHand)
def _return_to_hand(t: Txn, m: Marker, item: StackItem, eff: ReturnToHand, legal: Legal,
                    index: int) -> bool:
    for oid in objects_of(legal[eff.what]):
        if oid not in t.s.objects:  # already moved, before a pause for a choice
            continue
        to = replaced_zone(t, m, item, index, oid, "hand")
        if to is None:
            return True  # paused for a decision (903.9b)
        t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone=to,
                              to_player=t.s.objects[oid].owner,
                              rule="608.2c" if to == "hand" else "903.9b"))
    return False


@effect(CreateTokens)
def _create_tokens(t: Txn, m: Marker, item: StackItem, eff: CreateTokens, legal: Legal,
                   index: int) -> bool:
    for _ in range(amount(t, item, eff.count)):
        t.emit(ev.TokenCreated(obj=t.new_id(), owner=item.controller, token=eff.token,
                               rule="111.2"))
    return False


@effect(CreateTokenForThatController)
def _token_for_that_controller(t: Txn, m: Marker, item: StackItem,
                               eff: CreateTokenForThatController, legal: Legal,
                               index: int) -> bool:
    who = item.that_player
    if who is not None and not t.s.players[who].left:  # 800.4b
        t.emit(ev.TokenCreated(obj=t.new_id(), owner=who, token=eff.token, rule="111.2"))
    return False


@effect(Attach)
def _attach(t: Txn, m: Marker, item: StackItem, eff: Attach, legal: Legal,
            index: int) -> bool:
    """CR 701.3a: attach the source to a creature its controller controls."""
    src = t.s.objects.get(item.source or -1)
    targets = objects_of(legal[eff.target]) if legal else []
    if src is not None and src.zone == "battlefield" and targets:
        target = t.s.objects[targets[0]]
        if target.controller == item.controller:
            t.emit(ev.Attached(obj=src.id, to=target.id, rule="701.3a"))
    return False


@ability_effects(EquipAbility)
def _equip(ab: EquipAbility) -> Meaning:
    """CR 702.6a: "Attach to target creature you control."."""
    return (TargetSpec(kind="creature"),), (Attach(),)


@effect(Untap)
def _untap(t: Txn, m: Marker, item: StackItem, eff: Untap, legal: Legal,
           index: int) -> bool:
    ids = [i for i in objects_of(legal[eff.target]) if t.s.objects[i].tapped]
    if ids:
        t.emit(ev.PermanentsUntapped(objs=ids, rule="701.26b"))
    return False


@effect(ShuffleIntoLibrary)
def _shuffle_into_library(t: Txn, m: Marker, item: StackItem, eff: ShuffleIntoLibrary,
                          legal: Legal, index: int) -> bool:
    """Done as the spell leaves the stack (608.2n, `resolve.finish`)."""
    return False
