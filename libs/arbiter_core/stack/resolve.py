"""Resolving the top of a stack (CR 608): target legality on resolution (608.2b), the
effects in the order written (608.2c, `items.run`), then where the spell goes (608.2n,
608.3).

A decision during resolution (a chosen discard, "you may", 603.5) pauses it: the item
stays on the stack with the effect index to resume at, and the answer continues it
(`resume`). Rules that act at set points of a resolution register there beside their
rule: as it begins (`BEGINNING`, the "you may" question of 603.5), instead of the
effects of an item that has none of its own (`DELAYED`, 603.7), before a permanent spell
enters (`BEFORE_ENTERING`, a copy chosen, 707.5), what it enters as (`ENTERED_AS`, the
copy's values in layer 1, 613.2a) and as it enters (`AS_ENTERS`: replacement effects and
choices made as it enters, 614.1c, 614.12).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from arbiter_core.cards.model import ShuffleIntoLibrary, SpellAbility, TriggeredAbility
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.decide import work
from arbiter_core.kernel.edits import pop
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains, item_label
from arbiter_core.kernel.registry import Hooks, Slot
from arbiter_core.kernel.state import GameState, Marker, StackItem, Work
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import definition
from arbiter_core.stack.items import (
    Legal,
    ceases_if_copy,
    item_definition,
    item_effects,
    objects_of,
    run,
)
from arbiter_core.stack.priority import queue_priority
from arbiter_core.stack.targets import is_legal

#: (txn, marker, item, effects) -> True when the resolution stops to ask a player
Beginning = Callable[[Txn, Marker, StackItem, tuple[object, ...]], bool]
#: (txn, marker, item) -> True when the spell waits for a choice before it enters
BeforeEntering = Callable[[Txn, Marker, StackItem], bool]
#: (txn, marker, item, the new permanent's id) -> True when a choice waits
AsEnters = Callable[[Txn, Marker, StackItem, int], bool]

BEGINNING: Hooks[str, Beginning] = Hooks("as-resolution-begins hook")
DELAYED: Slot[Callable[[Txn, StackItem], None]] = Slot("delayed triggers' resolution")
BEFORE_ENTERING: Hooks[str, BeforeEntering] = Hooks("before-entering hook")
ENTERED_AS: Hooks[str, AsEnters] = Hooks("entered-as hook")
AS_ENTERS: Hooks[str, AsEnters] = Hooks("as-enters hook")
_ALL = "all"


@work("resolve_top", owner="stack-resolver")
def resolve_top(t: Txn, m: Marker, _work: Work | None = None) -> None:
    """Resolve the top object of marker `m`'s stack (CR 608.1)."""
    resume(t, m, t.s.stack_items[m.stack[-1]], beginning=True)


def _legal_targets(t: Txn, item: StackItem) -> tuple[Legal, tuple[object, ...]]:
    specs, effs = item_effects(t, item)
    legal: Legal = []
    for spec, group in zip(specs, item.targets, strict=False):
        legal.append([x for x in group if is_legal(t.s, spec, item.controller, x, item.obj)])
    return legal, effs


def resume(t: Txn, m: Marker, item: StackItem, beginning: bool = False) -> None:
    """Resolve `item`, or go on resolving it after a decision (`item.resume_at`).
    `beginning`: the stack resolver begins to resolve it, so a "you may" is asked."""
    legal, effs = _legal_targets(t, item)
    start = item.resume_at
    if start == 0 and any(item.targets) and not any(legal):
        _countered_on_resolution(t, m, item)
        return
    if start == 0 and not _intervening_if_holds(t, item):
        t.emit(ev.StackItemResolved(item=item.id, marker=m.number, rule="603.4"))
        queue_priority(t, m.number, m.holder)
        return
    if item.delayed is not None:  # a delayed triggered ability (603.7)
        DELAYED.value(t, item)
    elif beginning and any(ask(t, m, item, effs) for ask in BEGINNING[_ALL]):
        return
    for index in range(start, len(effs)):
        if run(t, m, item, effs[index], legal, index):  # type: ignore[arg-type]
            return  # paused for a decision
    finish(t, m, item, legal)


def _countered_on_resolution(t: Txn, m: Marker, item: StackItem) -> None:
    """CR 608.2b: every target illegal, so it doesn't resolve."""
    t.emit(ev.StackItemCountered(item=item.id, marker=m.number, rule="608.2b"))
    if item.obj is not None and not ceases_if_copy(t, item.obj):
        o = t.s.objects[item.obj]
        t.emit(ev.ObjectMoved(obj=o.id, new_id=t.new_id(), to_zone="graveyard",
                              to_player=o.owner, rule="608.2b"))
    queue_priority(t, m.number, m.holder)


def _intervening_if_holds(t: Txn, item: StackItem) -> bool:
    """CR 603.4: an intervening "if" is checked again on resolution."""
    if item.kind != "triggered" or item.delayed is not None or item.ability < 0:
        return True  # 901.8: an inherent ability has no condition
    ab = item_definition(t, item).abilities[item.ability]
    if isinstance(ab, TriggeredAbility) and ab.if_untapped:
        src = t.s.objects.get(item.source or -1)
        return src is not None and src.zone == "battlefield" and not src.tapped
    if isinstance(ab, TriggeredAbility) and ab.if_didnt_attack:
        m = t.s.markers.get(item.marker)
        return m is None or (item.source or -1) not in m.attacked
    if isinstance(ab, TriggeredAbility) and ab.if_life_at_least is not None:
        return t.s.players[item.controller].life >= ab.if_life_at_least
    return True


def finish(t: Txn, m: Marker, item: StackItem, legal: Legal) -> None:
    """The spell or ability leaves the stack: instants and sorceries to the graveyard
    (608.2n); permanent spells onto the battlefield (608.3a), Auras attached (608.3c)."""
    if any(before(t, m, item) for before in BEFORE_ENTERING[_ALL]):
        return  # e.g. 707.5, 614.1c: the copy is chosen before it enters
    t.emit(ev.StackItemResolved(item=item.id, marker=m.number,
                                rule="608.2n" if item.kind == "spell" else "608.2"))
    if item.obj is not None and item.obj in t.s.objects and _leaves_stack(t, m, item, legal):
        return
    queue_priority(t, m.number, m.holder)


def _leaves_stack(t: Txn, m: Marker, item: StackItem, legal: Legal) -> bool:
    """Where the resolved spell goes. True when a choice made as it enters waits."""
    s = t.s
    assert item.obj is not None
    if ceases_if_copy(t, item.obj):
        return False
    o = s.objects[item.obj]
    d = definition(o)
    if any(isinstance(e, ShuffleIntoLibrary) for ab in d.abilities
           if isinstance(ab, SpellAbility) for e in ab.effects):
        # Beacon of Immortality: shuffled into its owner's library instead (608.2n).
        t.emit(ev.ObjectMoved(obj=o.id, new_id=t.new_id(), to_zone="library",
                              to_player=o.owner, rule="608.2c"))
        t.emit(ev.LibraryShuffled(player=o.owner, rule="701.24a",
                                  order=t.rng.shuffled(t.s.zone(o.owner, "library"))))
    elif "Instant" in d.types or "Sorcery" in d.types:
        t.emit(ev.ObjectMoved(obj=o.id, new_id=t.new_id(), to_zone="graveyard",
                              to_player=o.owner, rule="608.2n"))
    elif not s.players[item.controller].left:  # 800.4a: the leaver's objects are gone
        return _enters(t, m, item, legal, "Aura" in d.subtypes)
    return False


def _enters(t: Txn, m: Marker, item: StackItem, legal: Legal, aura: bool) -> bool:
    """A permanent spell enters (608.3a); an Aura attached to its target (608.3c); then
    what applies as it enters (`AS_ENTERS`). True when a choice waits."""
    assert item.obj is not None
    o = t.s.objects[item.obj]
    new_id = t.new_id()
    t.emit(ev.ObjectMoved(obj=o.id, new_id=new_id, to_zone="battlefield", to_player=o.owner,
                          controller=item.controller, rule="608.3c" if aura else "608.3a"))
    for entered_as in ENTERED_AS[_ALL]:
        entered_as(t, m, item, new_id)
    if aura and legal and legal[0]:
        t.emit(ev.Attached(obj=new_id, to=objects_of(legal[0])[0], rule="608.3c"))
    return any(hook(t, m, item, new_id) for hook in AS_ENTERS[_ALL])


@applies(ev.StackItemResolved, ev.StackItemCountered)
def _left_stack(s: GameState, e: ev.StackItemResolved | ev.StackItemCountered) -> None:
    pop(s, e.item, e.marker)


@applies(ev.ResolutionPaused)
def _paused(s: GameState, e: ev.ResolutionPaused) -> None:
    s.stack_items[e.item] = replace(s.stack_items[e.item], resume_at=e.resume_at)


@explains(ev.StackItemResolved)
def _explain_stack_item_resolved(before: GameState, e: ev.StackItemResolved, name: Namer) -> str:
    return f"{item_label(before, e.item)} resolves"


@explains(ev.StackItemCountered)
def _explain_stack_item_countered(before: GameState, e: ev.StackItemCountered, name: Namer) -> str:
    return f"{item_label(before, e.item)} is countered"


@explains(ev.ResolutionPaused)
def _explain_resolution_paused(before: GameState, e: ev.ResolutionPaused, name: Namer) -> str:
    return f"{item_label(before, e.item)} waits for a decision"
