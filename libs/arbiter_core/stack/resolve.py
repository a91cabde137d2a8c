"""Resolving the top of a stack (CR 608): target legality on resolution (608.2b), the
effects in the order written (608.2c), then where the spell goes (608.2n, 608.3).

A decision during resolution (a chosen discard, "you may", 603.5) pauses it: the item
stays on the stack with the effect index to resume at, and the answer continues it.
"""

from __future__ import annotations

from arbiter_core.card_types import planeswalkers
from arbiter_core.cards import get_card
from arbiter_core.cards.model import (
    ActivatedAbility,
    Attach,
    CardDefinition,
    ChooseColorAsEnters,
    CyclingAbility,
    DrawCards,
    Effect,
    EntersWithCounters,
    EquipAbility,
    GainControl,
    KeywordAbility,
    ReturnWithCounter,
    ShuffleIntoLibrary,
    SpellAbility,
    StaticAbility,
    TargetSpec,
    TriggeredAbility,
)
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.state import Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers import copies
from arbiter_core.layers.characteristics import definition
from arbiter_core.stack import choices, delayed, effects, optional
from arbiter_core.stack.casting import spell_targets
from arbiter_core.stack.priority import queue_priority
from arbiter_core.stack.targets import is_legal


def item_definition(t: Txn, item: StackItem) -> CardDefinition:
    if item.obj is not None:
        return definition(t.s.objects[item.obj])
    if item.source is not None and item.source in t.s.objects:
        return definition(t.s.objects[item.source])
    return get_card(item.source_name)  # abilities exist apart from their source (113.7a)


def item_effects(t: Txn, item: StackItem) -> tuple[tuple[TargetSpec, ...], tuple[Effect, ...]]:
    if item.delayed is not None:
        return (), ()  # no targets; what it does is `delayed.resolve`
    d = item_definition(t, item)
    if item.kind == "spell":
        for ab in d.abilities:
            if isinstance(ab, SpellAbility) and ab.modes:  # the chosen mode (700.2)
                mode = ab.modes[item.mode].effects if item.mode is not None else ()
                return ab.targets, mode
            if isinstance(ab, SpellAbility):
                return ab.targets, ab.effects
        return spell_targets(d), ()
    if item.ability == len(d.abilities):  # deploy creatures (804.2)
        return (TargetSpec(kind="player"),), (GainControl(subject="target"),)
    ab = d.abilities[item.ability]
    if isinstance(ab, EquipAbility):
        return (TargetSpec(kind="creature"),), (Attach(),)
    if isinstance(ab, CyclingAbility):
        return (), (DrawCards(),)  # CR 702.29a
    if isinstance(ab, KeywordAbility) and ab.keyword == "persist":
        return (), (ReturnWithCounter(counter="-1/-1"),)  # CR 702.79a
    assert isinstance(ab, ActivatedAbility | TriggeredAbility)
    return ab.targets, ab.effects


def resolve_top(t: Txn, m: Marker) -> None:
    """Resolve the top object of marker `m`'s stack (CR 608.1)."""
    resume(t, m, t.s.stack_items[m.stack[-1]], beginning=True)


def resume(t: Txn, m: Marker, item: StackItem, beginning: bool = False) -> None:
    """Resolve `item`, or go on resolving it after a decision (`item.resume_at`).
    `beginning`: the stack resolver begins to resolve it, so a "you may" is asked."""
    s = t.s
    specs, effs = item_effects(t, item)
    legal: list[list[str]] = []
    for spec, group in zip(specs, item.targets, strict=False):
        legal.append([x for x in group if is_legal(s, spec, item.controller, x, item.obj)])
    has_targets = any(item.targets)
    start = item.resume_at
    if start == 0 and has_targets and not any(legal):
        # CR 608.2b: every target illegal, so it doesn't resolve.
        t.emit(ev.StackItemCountered(item=item.id, marker=m.number, rule="608.2b"))
        if item.obj is not None:
            o = s.objects[item.obj]
            t.emit(ev.ObjectMoved(obj=o.id, new_id=t.new_id(), to_zone="graveyard",
                                  to_player=o.owner, rule="608.2b"))
        queue_priority(t, m.number, m.holder)
        return
    if start == 0 and not _intervening_if_holds(t, item):
        t.emit(ev.StackItemResolved(item=item.id, marker=m.number, rule="603.4"))
        queue_priority(t, m.number, m.holder)
        return
    if item.delayed is not None:  # a delayed triggered ability (603.7)
        delayed.resolve(t, item)
    elif beginning and optional.ask_first(t, m, item, effs):  # "you may" (603.5)
        return
    for index in range(start, len(effs)):
        if effects.run(t, m, item, effs[index], legal, index):
            return  # paused for a decision
    finish(t, m, item, legal)


def _intervening_if_holds(t: Txn, item: StackItem) -> bool:
    """CR 603.4: an intervening "if" is checked again on resolution."""
    if item.kind != "triggered" or item.delayed is not None:
        return True
    ab = item_definition(t, item).abilities[item.ability]
    if isinstance(ab, TriggeredAbility) and ab.if_untapped:
        src = t.s.objects.get(item.source or -1)
        return src is not None and src.zone == "battlefield" and not src.tapped
    if isinstance(ab, TriggeredAbility) and ab.if_life_at_least is not None:
        return t.s.players[item.controller].life >= ab.if_life_at_least
    return True


COLOR_NAMES = ("white", "blue", "black", "red", "green")


def color_choice(d: CardDefinition) -> bool:
    return any(isinstance(e, ChooseColorAsEnters) for ab in d.abilities
               if isinstance(ab, StaticAbility) for e in ab.effects)


def enter_with_counters(t: Txn, oid: int) -> None:
    """"~ enters the battlefield with N [kind] counters on it" (614.1c)."""
    planeswalkers.enter_with_loyalty(t, oid)  # 306.5b
    for ab in definition(t.s.objects[oid]).abilities:
        if isinstance(ab, StaticAbility):
            for e in ab.effects:
                if isinstance(e, EntersWithCounters):
                    t.emit(ev.CountersPut(obj=oid, counters={e.counter: e.count},
                                          rule="614.1c"))


def finish(t: Txn, m: Marker, item: StackItem, legal: list[list[str]]) -> None:
    """The spell or ability leaves the stack: instants and sorceries to the graveyard
    (608.2n); permanent spells onto the battlefield (608.3a), Auras attached (608.3c)."""
    s = t.s
    if copies.ask(t, m, item):
        return  # 707.5, 614.1c: the copy is chosen before it enters
    t.emit(ev.StackItemResolved(item=item.id, marker=m.number,
                                rule="608.2n" if item.kind == "spell" else "608.2"))
    if item.obj is not None and item.obj in s.objects:
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
        elif s.players[item.controller].left:
            pass  # 800.4a: the leaver's objects are gone already
        else:
            new_id = t.new_id()
            aura = "Aura" in d.subtypes
            t.emit(ev.ObjectMoved(obj=o.id, new_id=new_id, to_zone="battlefield",
                                  to_player=o.owner, controller=item.controller,
                                  rule="608.3c" if aura else "608.3a"))
            copies.become(t, item, new_id)
            if aura and legal and legal[0]:
                t.emit(ev.Attached(obj=new_id, to=int(legal[0][0][2:]), rule="608.3c"))
            enter_with_counters(t, new_id)
            if choices.ask_opponent_as_enters(t, m, new_id, item.controller):
                return  # 614.12: "as ~ enters, choose an opponent" (801.5a)
            if color_choice(d):
                # 614.12: "as ~ enters, choose a color" - the controller's decision.
                t.emit(ev.DecisionRequested(marker=m.number, kind="choose_color",
                                            player=item.controller, options=[new_id], count=1,
                                            choices=list(COLOR_NAMES), rule="614.12"))
                return
    queue_priority(t, m.number, m.holder)
