"""Card definitions (libs/arbiter_core/cards): facts, abilities and rendered Oracle text."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import pytest

from arbiter_core.cards import POOL, UnknownCard, card_names, get_card
from arbiter_core.cards.facts import FACTS
from arbiter_core.cards.model import (
    ActivatedAbility,
    BecomeCreature,
    CardDefinition,
    Cost,
    CreateTokens,
    CyclingAbility,
    DealDamage,
    Detain,
    EnchantAbility,
    EquipAbility,
    GainControl,
    GainKeyword,
    KeywordAbility,
    LootThenTransform,
    Manifest,
    Mill,
    MorphAbility,
    Proliferate,
    SearchOntoBattlefield,
    SpellAbility,
    TapThenTransform,
    TargetKind,
    TargetSpec,
    TokenSpec,
    TriggerEvent,
    Untap,
)
from arbiter_core.cards.pool import ADDED
from arbiter_core.cards.render import render_oracle
from arbiter_core.cards.render_words import (
    TARGET_NOUNS,
    TARGET_REFERENCE_NOUNS,
    TRIGGER_PHRASES,
)

MISMATCHES_FILE = Path(__file__).with_name("card_render_mismatches.txt")

EXPECTED_CARDS = frozenset(
    {
        "Plains",
        "Island",
        "Swamp",
        "Mountain",
        "Forest",
        "Wastes",
        "Grizzly Bears",
        "Llanowar Elves",
        "Savannah Lions",
        "Hill Giant",
        "Craw Wurm",
        "Air Elemental",
        "Shivan Dragon",
        "Giant Spider",
        "Wall of Stone",
        "Raging Goblin",
        "Youthful Knight",
        "Fencing Ace",
        "Typhoid Rats",
        "Vampire Nighthawk",
        "Colossal Dreadmaw",
        "Ornithopter",
        "Watchwolf",
        "Serra Angel",
        "Hypnotic Specter",
        "Isamaru, Hound of Konda",
        "Atraxa, Praetors' Voice",  # issue 15: commanders (903)
        "Kaalia of the Vast",
        "Krenko, Mob Boss",
        "Shock",
        "Lightning Bolt",
        "Lava Axe",
        "Fireball",
        "Flame Rift",
        "Counterspell",
        "Cancel",
        "Giant Growth",
        "Pacifism",
        "Jace Beleren",
        "Holy Strength",
        "Bonesplitter",
        "Divination",
        "Wrath of God",
        "Doom Blade",
        "Unsummon",
        "Dark Ritual",
        "Sol Ring",
        "Glorious Anthem",
        "Naturalize",
        "Disenchant",
        "Fog",
        "Raise Dead",
        "Mind Rot",
        "Howling Mine",
        "Time Walk",
        "Teferi's Moat",
        "Platinum Angel",
        "Transcendence",
        "Beacon of Immortality",
        "Test of Endurance",
        "Lurking Evil",
        "Repay in Kind",
        "Ray of Command",
        "Persuasion",
        "Mind Control",
        "Bribery",
        "Act of Treason",
        "Genesis Chamber",
        "Astral Slide",
        # from the full Oracle file (tools/extra_cards.txt)
        "Marsh Viper",
        "Leeches",
        "Steady Progress",
        "Platinum Emperion",
        "Blessed Wind",
        "Soul Conduit",
        "Boggart Brute",
        "Concordant Crossroads",
        "Flailing Soldier",
        "Souls of the Faultless",
        "Inaction Injunction",
        "Melira, Sylvok Outcast",
        "Reverse the Sands",
        "Murmurs from Beyond",
        "Rhystic Study",
        "Celestial Convergence",
        "Captain's Maneuver",
        "Nyxathid",
        "Misfortune",
        "Aether Flash",
        "Putrid Goblin",
        "Killing Wave",
        "Maddening Imp",
        "Silent Arbiter",
        "Benalish Hero",
        "Desert Cerodon",  # cycling (702.29)
        "Clone",  # enters as a copy (707.5)
    }
)


def _listed_mismatches() -> set[str]:
    names: set[str] = set()
    for raw in MISMATCHES_FILE.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            names.add(line)
    return names


MISMATCHES = _listed_mismatches()


def _extra_names() -> list[str]:
    """The names in tools/extra_cards.txt (cards from the full Oracle file)."""
    path = Path(__file__).resolve().parents[2] / "tools" / "extra_cards.txt"
    names = [line.split("#", 1)[0].strip() for line in path.read_text().splitlines()]
    return [n for n in names if n]


def test_extra_cards_are_in_the_facts_and_the_pool() -> None:
    extra = _extra_names()
    assert len(extra) == len(set(extra)) >= 26
    assert set(extra) <= set(FACTS)
    assert set(extra) <= set(POOL)


def test_pool_is_exactly_the_implemented_cards() -> None:
    """The pool's own cards, and the cards mechanic modules add beside their rules
    (`add_card`), each taken from the Oracle file (tools/extra_cards.txt)."""
    assert len(EXPECTED_CARDS) == 96
    assert set(POOL) == EXPECTED_CARDS | ADDED
    # a variant's cards (planes, 901) may come from the reference pool's facts too
    assert set(_extra_names()) | set(FACTS) >= ADDED
    assert card_names() == tuple(sorted(EXPECTED_CARDS | ADDED))
    assert all(name == card.name for name, card in POOL.items())


def test_facts_cover_the_whole_reference_pool() -> None:
    assert len(FACTS) == 102 + len(_extra_names())
    assert all(name == facts.name for name, facts in FACTS.items())
    assert set(POOL) <= set(FACTS)


def test_mismatch_list_names_only_pool_cards() -> None:
    assert set(POOL) >= MISMATCHES, sorted(MISMATCHES - set(POOL))


@pytest.mark.parametrize("name", sorted(POOL))
def test_rendered_abilities_match_oracle(name: str) -> None:
    card = POOL[name]
    rendered = render_oracle(card)
    if name in MISMATCHES:
        assert rendered != FACTS[name].oracle_text, (
            f"{name} now renders its Oracle text exactly; remove it from {MISMATCHES_FILE.name}"
        )
    else:
        assert rendered == FACTS[name].oracle_text


@pytest.mark.parametrize("name", sorted(POOL))
def test_printed_characteristics_come_from_facts(name: str) -> None:
    card, facts = POOL[name], FACTS[name]
    assert card.mana_cost == facts.mana_cost
    assert card.colors == facts.colors
    assert card.supertypes == facts.supertypes
    assert card.types == facts.types
    assert card.subtypes == facts.subtypes
    assert (card.power, card.toughness) == (facts.power, facts.toughness)
    assert card.oracle == facts.oracle_text


@pytest.mark.parametrize("name", sorted(POOL))
def test_keyword_abilities_agree_with_oracle_keywords(name: str) -> None:
    """Every keyword the Oracle lists (CR 702) is defined, and nothing more."""
    card = POOL[name]
    defined: set[str] = set()
    for ability in card.abilities:
        if isinstance(ability, KeywordAbility):
            defined.add(ability.keyword.replace("_", " ").capitalize())
        elif isinstance(ability, EnchantAbility):
            defined.add("Enchant")
        elif isinstance(ability, EquipAbility):
            defined.add("Equip")
        elif isinstance(ability, CyclingAbility):
            defined.add("Cycling")
        elif isinstance(ability, MorphAbility):
            defined.add("Morph")
        for effect in getattr(ability, "effects", ()):
            if isinstance(effect, Proliferate | Detain | Mill | Manifest):  # 701
                defined.add(effect.kind.capitalize())
            if isinstance(effect, LootThenTransform | TapThenTransform):  # 701.27
                defined.add("Transform")
    assert defined == set(FACTS[name].keywords)


def test_get_card_returns_pool_definition() -> None:
    assert get_card("Shock") is POOL["Shock"]


def test_get_card_unknown_name_raises_typed_error() -> None:
    with pytest.raises(UnknownCard) as info:
        get_card("Black Lotus")
    assert isinstance(info.value, KeyError)
    assert info.value.name == "Black Lotus"
    assert "Black Lotus" in str(info.value)


def test_fireball_ability_data() -> None:
    (ability,) = get_card("Fireball").abilities
    assert isinstance(ability, SpellAbility)
    assert ability.targets == (TargetSpec(kind="any", min_count=1, max_count=None),)
    assert ability.effects == (DealDamage(amount="X", to=0, divided=True),)
    assert ability.extra_cost_per_target_beyond_first == 1


def test_krenko_creates_goblins_per_goblin() -> None:
    (ability,) = get_card("Krenko, Mob Boss").abilities
    assert isinstance(ability, ActivatedAbility)
    assert ability.cost.tap and not ability.cost.mana
    (effect,) = ability.effects
    assert isinstance(effect, CreateTokens)
    assert effect.count == "goblins_you_control"
    assert effect.token == TokenSpec(
        name="Goblin Token",  # CR 111.4
        colors=("R",),
        types=("Creature",),
        subtypes=("Goblin",),
        power=1,
        toughness=1,
    )


def test_render_uses_the_data_not_the_card_name() -> None:
    """Renaming a card changes only its self-references (CR 201.5)."""
    shock = get_card("Shock")
    renamed = CardDefinition.model_validate({**shock.model_dump(), "name": "Zap"})
    assert render_oracle(renamed) == "Zap deals 2 damage to any target."
    bolt_effects = get_card("Lightning Bolt").abilities
    bolted = shock.model_copy(update={"abilities": bolt_effects})
    assert render_oracle(bolted) == "Shock deals 3 damage to any target."


def test_basic_land_mana_ability_is_parenthesised_only_for_basic_land_types() -> None:
    """CR 305.6: the ability of a basic land type is reminder text; Wastes prints it."""
    assert render_oracle(get_card("Forest")) == "({T}: Add {G}.)"
    assert render_oracle(get_card("Wastes")) == "{T}: Add {C}."
    assert render_oracle(get_card("Llanowar Elves")) == "{T}: Add {G}."


def test_keyword_reminder_text_follows_the_definition() -> None:
    dragon = get_card("Shivan Dragon")
    flying = dragon.abilities[0]
    assert isinstance(flying, KeywordAbility)
    bare = dragon.model_copy(update={"abilities": (flying.model_copy(update={"reminder": False}),)})
    assert render_oracle(bare) == "Flying"


def test_ray_of_command_ability_data() -> None:
    (ability,) = get_card("Ray of Command").abilities
    assert isinstance(ability, SpellAbility)
    assert ability.targets == (TargetSpec(kind="creature_an_opponent_controls"),)
    assert ability.effects == (
        Untap(target=0),
        GainControl(subject="target", target=0, until_end_of_turn=True, tap_when_lost=True),
        GainKeyword(keyword="haste", target=0, until_end_of_turn=True),
    )


def test_bribery_ability_data() -> None:
    (ability,) = get_card("Bribery").abilities
    assert isinstance(ability, SpellAbility)
    assert ability.targets == (TargetSpec(kind="opponent"),)
    assert ability.effects == (SearchOntoBattlefield(target=0, card_type="Creature"),)


def test_lurking_evil_ability_data() -> None:
    (ability,) = get_card("Lurking Evil").abilities
    assert isinstance(ability, ActivatedAbility)
    assert ability.cost == Cost(pay_half_life=True)  # no mana, no {T}
    assert not ability.targets and not ability.sorcery_speed
    assert ability.effects == (
        BecomeCreature(
            power=4, toughness=4, subtypes=("Phyrexian", "Horror"), keywords=("flying",)
        ),
    )


def test_reminder_text_comes_from_the_data() -> None:
    """Persuasion and Act of Treason print reminder text; without the flag it is gone."""
    for name, reminder in (
        (
            "Persuasion",
            " (Target a creature as you cast this. This card enters the battlefield "
            "attached to that creature.)",
        ),
        ("Act of Treason", " (It can attack and {T} this turn.)"),
    ):
        card = get_card(name)
        assert render_oracle(card) == FACTS[name].oracle_text
        plain = card.model_copy(update={"abilities": tuple(
            ab.model_copy(update={"reminder": False}) if hasattr(ab, "reminder") else
            ab.model_copy(update={"effects": tuple(
                e.model_copy(update={"reminder": False}) if hasattr(e, "reminder") else e
                for e in getattr(ab, "effects", ()))}) if hasattr(ab, "effects") else ab
            for ab in card.abilities)})
        assert render_oracle(plain) == FACTS[name].oracle_text.replace(reminder, "")


def test_references_to_a_target_follow_the_effect_order() -> None:
    """The same three effects read differently in another order (render from data)."""
    treason = get_card("Act of Treason")
    (ability,) = treason.abilities
    assert isinstance(ability, SpellAbility)
    untap, control, haste = ability.effects[1], ability.effects[0], ability.effects[2]
    reordered = treason.model_copy(
        update={"abilities": (ability.model_copy(update={"effects": (untap, control, haste)}),)}
    )
    assert render_oracle(reordered) == (
        "Untap target creature and gain control of it until end of turn. "
        "That creature gains haste until end of turn. (It can attack and {T} this turn.)"
    )


def test_trigger_reminder_comes_from_the_event() -> None:
    transcendence = get_card("Transcendence")
    renamed = transcendence.model_copy(update={"name": "Other"})
    assert render_oracle(renamed).endswith(
        "Whenever you lose life, you gain 2 life for each 1 life you lost. "
        "(Damage dealt to you causes you to lose life.)"
    )


def test_render_vocabulary_covers_every_target_kind_and_trigger_event() -> None:
    kinds: set[TargetKind] = set(get_args(TargetKind))
    assert set(TARGET_NOUNS) == kinds
    assert set(TARGET_REFERENCE_NOUNS) == kinds
    events: set[TriggerEvent] = set(get_args(TriggerEvent))
    assert set(TRIGGER_PHRASES) == events
