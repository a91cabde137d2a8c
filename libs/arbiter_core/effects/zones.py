"""Effects that move objects or make them (CR 608.2c): destroy (701.8), counter
(701.6), return to the hand (a target or all creatures: Evacuation) or put on top of
the library (Griptide), create tokens (111.2), attach (701.3; equip, 702.6a), untap
(701.26b), and a spell shuffled into its owner's library instead of going to the
graveyard (608.2n, done as it leaves the stack: `resolve.finish`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from arbiter_core.cards.build import card, spell, target
from arbiter_core.cards.model import (
    Attach,
    CounterTarget,
    CreateTokenForThatController,
    CreateTokens,
    Destroy,
    EquipAbility,
    PutOnTopOfLibrary,
    ReturnToHand,
    ShuffleIntoLibrary,
    TargetSpec,
    Untap,
)
from arbiter_core.cards.pool import add_card
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
    ceases_if_copy,
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
    ids = (all_creatures(t, item) if eff.what == "all_creatures"
           else objects_of(legal[eff.what]))
    for oid in ids:
        t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="graveyard",
                              to_player=s.objects[oid].owner, rule="701.8a"))
    return False


@effect(CounterTarget)
def _counter(t: Txn, m: Marker, item: StackItem, eff: CounterTarget, legal: Legal,
             index: int) -> bool:
    """CR 701.6a: the spell leaves its stack for its owner's graveyard, or (Memory Lapse)
    the top of its owner's library instead (614.1a), where 903.9b may apply again."""
    s = t.s
    for oid in objects_of(legal[eff.what]):
        countered = next(i for i in s.stack_items.values() if i.obj == oid)
        to = "graveyard"
        if eff.to_library_top:  # Memory Lapse's replacement (614.1a), then 903.9b's
            instead = replaced_zone(t, m, item, index, oid, "library")
            if instead is None:
                return True  # paused for a decision before the spell is countered
            to = instead
        t.emit(ev.StackItemCountered(item=countered.id, marker=countered.marker,
                                     rule="701.6a"))
        if ceases_if_copy(t, oid):  # a copy of a spell goes nowhere (707.10a)
            continue
        t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone=to,
                              to_player=s.objects[oid].owner,
                              rule={"graveyard": "701.6a", "library": "614.1a"}.get(
                                  to, "903.9b")))
    return False


def all_creatures(t: Txn, item: StackItem) -> list[int]:
    """All creatures on the battlefield within the controller's range (801.10)."""
    return [o.id for o in t.s.permanents() if is_creature(o)
            and object_in_range(t.s, item.controller, o)]


def _move_each(t: Txn, m: Marker, item: StackItem, index: int, ids: list[int],
               zone: Literal["hand", "library"]) -> bool:
    """Put each object into its owner's `zone` (608.2c), each after its replacements
    (614.1a; 903.9b: a commander's owner may choose the command zone instead, asked for
    each commander in turn, so one event may be replaced for several). True when the
    resolution paused for a choice; resumed, the objects already moved are gone and the
    rest go on."""
    for oid in ids:
        if oid not in t.s.objects:  # already moved, before a pause for a choice
            continue
        to = replaced_zone(t, m, item, index, oid, zone)
        if to is None:
            return True  # paused for a decision (903.9b)
        t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone=to,
                              to_player=t.s.objects[oid].owner,
                              rule="608.2c" if to == zone else "903.9b"))
    return False


@effect(ReturnToHand)
def _return_to_hand(t: Txn, m: Marker, item: StackItem, eff: ReturnToHand, legal: Legal,
                    index: int) -> bool:
    ids = (all_creatures(t, item) if eff.what == "all_creatures"
           else objects_of(legal[eff.what]))
    return _move_each(t, m, item, index, ids, "hand")


@effect(PutOnTopOfLibrary)
def _put_on_top_of_library(t: Txn, m: Marker, item: StackItem, eff: PutOnTopOfLibrary,
                           legal: Legal, index: int) -> bool:
    """Griptide: the target goes on top of its owner's library (a moved card goes on
    top, `kernel.edits.put`)."""
    return _move_each(t, m, item, index, objects_of(legal[eff.what]), "library")


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


# 903.9b: each puts a commander where its owner may choose the command zone instead
add_card(card("Griptide", spell(PutOnTopOfLibrary(what=0), targets=target("creature"))))
add_card(card("Evacuation", spell(ReturnToHand(what="all_creatures"))))
add_card(card("Memory Lapse", spell(CounterTarget(what=0, to_library_top=True),
                                    targets=target("spell"))))
