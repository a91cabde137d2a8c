"""What a spell or ability on the stack is and does (CR 113.7a, 608.2c): its definition,
its target requirements and its effects, and the table of what each kind of effect does
as it resolves.

Every declarative effect of the card model (`cards.model`) is registered once, beside
the rule that performs it: `@effect(DealDamage)` above its handler, or
`static_effect(CantLose)` for the effect of a static ability or a replacement effect,
which never resolves (interpreted where its rule is: layers, combat, life). An ability
that isn't written as effects (a keyword's, equip's, cycling's) registers what it means
(`@ability_effects(...)`). `tests/structure/test_registries.py` fails on an effect with
no entry or with two.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from arbiter_core.cards import POOL, get_card
from arbiter_core.cards.model import (
    Ability,
    ActivatedAbility,
    Amount,
    CardDefinition,
    Effect,
    EnchantAbility,
    KeywordAbility,
    SpellAbility,
    TargetSpec,
    TriggeredAbility,
)
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.refs import ObjectRef, PlayerRef, Ref
from arbiter_core.kernel.registry import MissingEntry, Registry
from arbiter_core.kernel.state import Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import definition

Legal = list[list[Ref]]
E = TypeVar("E")
#: (txn, marker, item, effect, legal targets per requirement, effect index) -> True
#: when the resolution waits for a player's decision (608.2d)
Handler = Callable[[Txn, Marker, StackItem, Any, Legal, int], bool]
Meaning = tuple[tuple[TargetSpec, ...], tuple[Effect, ...]]

EFFECTS: Registry[type, Handler | None] = Registry("effect handler")
_EFFECTS = EFFECTS.table
ABILITY_EFFECTS: Registry[object, Callable[[Any], Meaning]] = Registry("ability meaning")
#: what an ability a rule gives a permanent means (804.2, deploy creatures: the ability
#: past the card's own)
RULES_ABILITY = "rules-ability"
#: an inherent triggered ability of a variant, which has no source (901.8, planeswalking):
#: its stack item names a negative ability index, keyed (INHERENT, index)
INHERENT = "inherent"


def effect(model: type[E]) -> Callable[[Callable[[Txn, Marker, StackItem, E, Legal, int],
                                                 bool]],
                                        Callable[[Txn, Marker, StackItem, E, Legal, int], bool]]:
    """Register the decorated function as what `model` does as it resolves."""
    def add(fn: Callable[[Txn, Marker, StackItem, E, Legal, int], bool]
            ) -> Callable[[Txn, Marker, StackItem, E, Legal, int], bool]:
        EFFECTS.add(model, fn)
        return fn
    return add


def static_effect(*models: type) -> None:
    """Declare `models` the effects of static abilities or replacement effects: they
    never resolve (CR 604, 614); the module declaring them interprets them."""
    for model in models:
        EFFECTS.add(model, None)


def ability_effects(key: object) -> Callable[[Callable[[Any], Meaning]],
                                             Callable[[Any], Meaning]]:
    """Register what an ability means: `key` is the ability's class, a keyword's
    ("keyword", name), or `RULES_ABILITY`."""
    def add(fn: Callable[[Any], Meaning]) -> Callable[[Any], Meaning]:
        ABILITY_EFFECTS.add(key, fn)
        return fn
    return add


def run(t: Txn, m: Marker, item: StackItem, eff: Effect, legal: Legal, index: int) -> bool:
    """Perform one effect (608.2c). True when resolution waits for a decision."""
    try:
        handler = _EFFECTS[type(eff)]
    except KeyError:
        raise MissingEntry(f"no effect handler for {type(eff).__name__}") from None
    return False if handler is None else handler(t, m, item, eff, legal, index)


def ceases_if_copy(t: Txn, oid: int) -> bool:
    """A copy of a spell leaving the stack - resolved or countered - goes to no zone: it
    ceases to exist (707.10a, 704.5e). True when `oid` is such a copy (and now gone)."""
    o = t.s.objects.get(oid)
    if o is None or not o.spell_copy:
        return False
    t.emit(ev.ObjectCeasedToExist(obj=oid, rule="707.10a"))
    return True


def item_definition(t: Txn, item: StackItem) -> CardDefinition:
    """The definition whose abilities the item has. An ability exists apart from its
    source (113.7a): a triggered ability whose source is now an object with another
    name (a Clone that died as a copy of a persist creature and is the Clone card in
    the graveyard, 400.7) uses the source as it last existed (603.10a, 707.5): the card
    it was named as when it triggered."""
    if item.obj is not None:
        return definition(t.s.objects[item.obj])
    o = t.s.objects.get(item.source) if item.source is not None else None
    if o is not None and not (item.kind == "triggered" and o.name != item.source_name
                              and item.source_name in POOL):
        return definition(o)
    return get_card(item.source_name)


def _ability_key(ab: Ability) -> object:
    return ("keyword", ab.keyword) if isinstance(ab, KeywordAbility) else type(ab)


def item_effects(t: Txn, item: StackItem) -> Meaning:
    """The target requirements and effects of `item`, as it resolves."""
    if item.delayed is not None:
        return (), ()  # no targets; what it does is its delayed trigger's (603.7)
    d = item_definition(t, item)
    if item.kind == "spell":
        return _spell_effects(d, item.mode)
    if item.ability < 0:  # an inherent ability with no source of its own (901.8)
        return ABILITY_EFFECTS[(INHERENT, item.ability)](item)
    if item.ability == len(d.abilities):
        return ABILITY_EFFECTS[RULES_ABILITY](item)
    ab = d.abilities[item.ability]
    if isinstance(ab, ActivatedAbility | TriggeredAbility):
        return ab.targets, ab.effects
    return ABILITY_EFFECTS[_ability_key(ab)](ab)


def _spell_effects(d: CardDefinition, mode: int | None) -> Meaning:
    for ab in d.abilities:
        if isinstance(ab, SpellAbility) and ab.modes:  # the chosen mode (700.2)
            return ab.targets, ab.modes[mode].effects if mode is not None else ()
        if isinstance(ab, SpellAbility):
            return ab.targets, ab.effects
    return spell_targets(d), ()


def spell_targets(d: CardDefinition) -> tuple[TargetSpec, ...]:
    """Target requirements of a spell: its spell ability's, or an Aura's enchant
    (CR 303.4a, 702.5b)."""
    for ab in d.abilities:
        if isinstance(ab, SpellAbility):
            return ab.targets
        if isinstance(ab, EnchantAbility):
            return (TargetSpec(kind="creature"),)
    return ()


# ------------------------------------------------------------------ shared by handlers


def amount(t: Txn, item: StackItem, value: Amount) -> int:
    """An effect's amount as it resolves: a number, X (107.3), a count made once on
    resolution (608.2h), or "that much" (`that_much`)."""
    if value == "X":
        return item.x
    if value == "goblins_you_control":  # CR 608.2h: counted once, on resolution
        return sum(1 for o in t.s.permanents(item.controller)
                   if "Goblin" in definition(o).subtypes)
    if value == "that_much":
        return _that_much(t, item)
    return value


def _that_much(t: Txn, item: StackItem) -> int:
    """"That much": for a triggered ability, the amount of its trigger event (Souls of
    the Faultless); for a spell, the poison counters an earlier effect of it removed
    (Leeches, recorded in this resolution's events)."""
    if item.kind == "triggered":
        return item.amount
    for e in reversed(t.events):
        if isinstance(e, ev.PoisonCountersChanged) and e.amount < 0:
            return -e.amount
        if isinstance(e, ev.ResolutionPaused | ev.SpellCast | ev.StackItemResolved
                      | ev.StackItemCountered):
            break
    return 0


def objects_of(group: Sequence[Ref]) -> list[int]:
    """The object ids among a target group's references."""
    return [r.obj for r in group if isinstance(r, ObjectRef)]


def players_of(group: Sequence[Ref]) -> list[str]:
    """The players among a target group's references."""
    return [r.player for r in group if isinstance(r, PlayerRef)]


def group(legal: Legal, index: int) -> list[Ref]:
    """The legal targets of requirement `index` (none when it is past the last)."""
    return legal[index] if index < len(legal) else []


def player_of(item: StackItem, who: str, legal: Legal) -> str | None:
    """The player an effect refers to: its controller, the player a trigger names
    ("that player"), or its first target player."""
    if who == "controller":
        return item.controller
    if who == "that_player":
        return item.that_player
    players = [p for g in legal for p in players_of(g)]
    return players[0] if players else None
