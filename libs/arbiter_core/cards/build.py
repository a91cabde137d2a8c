"""Shorthands for writing card definitions: a card from its Oracle facts, a keyword, a
single target, "{T}: Add [mana]", a spell ability, and the pool's token kinds."""

from __future__ import annotations

from arbiter_core.cards.facts import FACTS
from arbiter_core.cards.model import (
    Ability,
    ActivatedAbility,
    AddMana,
    CardDefinition,
    Cost,
    Effect,
    Keyword,
    KeywordAbility,
    SpellAbility,
    TargetKind,
    TargetSpec,
    TokenSpec,
)


def card(name: str, *abilities: Ability) -> CardDefinition:
    """A definition whose printed characteristics are the card's Oracle facts."""
    facts = FACTS[name]
    return CardDefinition(
        name=facts.name,
        mana_cost=facts.mana_cost,
        colors=facts.colors,
        supertypes=facts.supertypes,
        types=facts.types,
        subtypes=facts.subtypes,
        power=facts.power,
        toughness=facts.toughness,
        loyalty=facts.loyalty,
        oracle=facts.oracle_text,
        abilities=abilities,
    )


def kw(keyword: Keyword, *, reminder: bool = False) -> KeywordAbility:
    return KeywordAbility(keyword=keyword, reminder=reminder)


def target(kind: TargetKind) -> tuple[TargetSpec, ...]:
    """A single "target [kind]" requirement (CR 115.1)."""
    return (TargetSpec(kind=kind),)


def tap_for(mana: str) -> ActivatedAbility:
    """The ability "{T}: Add [mana]." -- a mana ability (CR 605.1a); for a basic land
    type it is the intrinsic ability of CR 305.6."""
    return ActivatedAbility(cost=Cost(tap=True), effects=(AddMana(mana=mana),))


def spell(*effects: Effect, targets: tuple[TargetSpec, ...] = ()) -> SpellAbility:
    """An instant's or sorcery's spell ability (CR 113.3a)."""
    return SpellAbility(targets=targets, effects=effects)


GOBLIN = TokenSpec(
    name="Goblin Token",  # CR 111.4: subtype plus "Token"
    colors=("R",),
    types=("Creature",),
    subtypes=("Goblin",),
    power=1,
    toughness=1,
)

MYR = TokenSpec(
    name="Myr Token",  # CR 111.4
    colors=(),
    types=("Artifact", "Creature"),
    subtypes=("Myr",),
    power=1,
    toughness=1,
)
