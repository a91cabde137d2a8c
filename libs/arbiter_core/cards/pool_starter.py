"""The reference starter pool's cards: basic lands, creatures, instants and sorceries,
auras, artifacts, enchantments and a planeswalker (abilities in Oracle order, CR 113.2c)."""

from __future__ import annotations

from arbiter_core.cards.build import GOBLIN, card, kw, spell, tap_for, target
from arbiter_core.cards.model import (
    ActivatedAbility,
    AddMana,
    CantAttackOrBlock,
    CardDefinition,
    Cost,
    CounterTarget,
    CreateTokens,
    DealDamage,
    Destroy,
    Discard,
    DrawCards,
    EnchantAbility,
    EnterAsCopy,
    EquipAbility,
    ExtraTurn,
    Mill,
    ModifyPowerToughness,
    PreventCombatDamage,
    Proliferate,
    PutOntoBattlefieldAttacking,
    ReturnToHand,
    SpellAbility,
    StaticAbility,
    TargetSpec,
    TriggeredAbility,
)

STARTER: tuple[CardDefinition, ...] = (
    # ------------------------------------------------ basic lands (CR 205.4c, 305.6)
    card("Plains", tap_for("W")),
    card("Island", tap_for("U")),
    card("Swamp", tap_for("B")),
    card("Mountain", tap_for("R")),
    card("Forest", tap_for("G")),
    card("Wastes", tap_for("C")),  # no basic land type: a printed ability
    # ------------------------------------------------ creatures
    card("Grizzly Bears"),
    card("Llanowar Elves", tap_for("G")),
    card("Savannah Lions"),
    card("Hill Giant"),
    card("Craw Wurm"),
    card("Air Elemental", kw("flying")),
    card(
        "Shivan Dragon",
        kw("flying", reminder=True),
        ActivatedAbility(
            cost=Cost(mana="{R}"),
            effects=(
                ModifyPowerToughness(subject="self", power=1, toughness=0, until_end_of_turn=True),
            ),
        ),
    ),
    card("Giant Spider", kw("reach", reminder=True)),
    card("Wall of Stone", kw("defender", reminder=True)),
    card("Raging Goblin", kw("haste", reminder=True)),
    card("Youthful Knight", kw("first_strike")),
    card("Fencing Ace", kw("double_strike")),
    card("Typhoid Rats", kw("deathtouch", reminder=True)),
    card("Vampire Nighthawk", kw("flying"), kw("deathtouch"), kw("lifelink")),
    card("Colossal Dreadmaw", kw("trample", reminder=True)),
    card("Ornithopter", kw("flying")),
    card("Watchwolf"),
    card("Serra Angel", kw("flying"), kw("vigilance")),
    card(
        "Hypnotic Specter",
        kw("flying"),
        TriggeredAbility(
            event="deals_damage_to_opponent",
            effects=(Discard(who="that_player", at_random=True),),
        ),
    ),
    card("Isamaru, Hound of Konda"),
    card(  # a commander of the reference pool (903): 508.4, combat/put_attacking.py
        "Kaalia of the Vast", kw("flying"),
        TriggeredAbility(event="attacks_opponent", optional=True, effects=(
            PutOntoBattlefieldAttacking(subtypes=("Angel", "Demon", "Dragon")),)),
    ),
    card(  # a commander of the reference pool (903): proliferate, 701.34
        "Atraxa, Praetors' Voice", kw("flying"), kw("vigilance"), kw("deathtouch"),
        kw("lifelink"),
        TriggeredAbility(event="your_end_step", effects=(Proliferate(),)),
    ),
    card(
        "Krenko, Mob Boss",
        ActivatedAbility(
            cost=Cost(tap=True),
            effects=(CreateTokens(count="goblins_you_control", token=GOBLIN),),
        ),
    ),
    # ------------------------------------------------ instants and sorceries (CR 113.3a)
    card("Shock", spell(DealDamage(amount=2, to=0), targets=target("any"))),
    card("Lightning Bolt", spell(DealDamage(amount=3, to=0), targets=target("any"))),
    card(
        "Lava Axe",
        spell(DealDamage(amount=5, to=0), targets=target("player_or_planeswalker")),
    ),
    card(
        "Fireball",
        SpellAbility(
            targets=(TargetSpec(kind="any", min_count=1, max_count=None),),
            effects=(DealDamage(amount="X", to=0, divided=True),),
            extra_cost_per_target_beyond_first=1,  # CR 601.2f
        ),
    ),
    card("Flame Rift", spell(DealDamage(amount=4, to="each_player"))),
    card("Counterspell", spell(CounterTarget(what=0), targets=target("spell"))),
    card("Cancel", spell(CounterTarget(what=0), targets=target("spell"))),
    card(
        "Giant Growth",
        spell(
            ModifyPowerToughness(subject="target", power=3, toughness=3, until_end_of_turn=True),
            targets=target("creature"),
        ),
    ),
    card("Divination", spell(DrawCards(count=2))),
    card("Wrath of God", spell(Destroy(what="all_creatures", no_regenerate=True))),
    card(
        "Doom Blade",
        spell(Destroy(what=0), targets=(TargetSpec(kind="creature", not_color="B"),)),
    ),
    card("Unsummon", spell(ReturnToHand(what=0), targets=target("creature"))),
    card("Dark Ritual", spell(AddMana(mana="BBB"))),
    card("Naturalize", spell(Destroy(what=0), targets=target("artifact_or_enchantment"))),
    card("Disenchant", spell(Destroy(what=0), targets=target("artifact_or_enchantment"))),
    card("Fog", spell(PreventCombatDamage())),
    card(
        "Raise Dead",
        spell(ReturnToHand(what=0), targets=target("creature_card_in_your_graveyard")),
    ),
    card(
        "Mind Rot",
        spell(Discard(who="target_player", count=2), targets=target("player")),
    ),
    card("Time Walk", spell(ExtraTurn())),
    # ------------------------------------------------ auras (CR 303.4, 702.5)
    card(
        "Pacifism",
        EnchantAbility(what="creature"),
        StaticAbility(effects=(CantAttackOrBlock(),)),
    ),
    card(
        "Holy Strength",
        EnchantAbility(what="creature"),
        StaticAbility(effects=(ModifyPowerToughness(subject="enchanted", power=1, toughness=2),)),
    ),
    # ------------------------------------------------ artifacts and enchantments
    card(
        "Bonesplitter",
        StaticAbility(effects=(ModifyPowerToughness(subject="equipped", power=2, toughness=0),)),
        EquipAbility(cost=Cost(mana="{1}")),  # CR 702.6a
    ),
    card("Sol Ring", tap_for("CC")),
    card(
        "Glorious Anthem",
        StaticAbility(
            effects=(ModifyPowerToughness(subject="creatures_you_control", power=1, toughness=1),)
        ),
    ),
    card(
        "Howling Mine",
        TriggeredAbility(
            event="each_draw_step",
            if_untapped=True,  # intervening "if" clause, CR 603.4
            effects=(DrawCards(who="that_player"),),
        ),
    ),
    # A planeswalker (CR 306): loyalty abilities, their costs in loyalty counters (606.4).
    card(
        "Jace Beleren",
        ActivatedAbility(cost=Cost(loyalty=2), effects=(DrawCards(who="each_player"),)),
        ActivatedAbility(cost=Cost(loyalty=-1), targets=target("player"),
                         effects=(DrawCards(who="target_player"),)),
        ActivatedAbility(cost=Cost(loyalty=-10), targets=target("player"),
                         effects=(Mill(who="target_player", count=20),)),
    ),
    card("Clone", StaticAbility(effects=(EnterAsCopy(),))),  # CR 707.5, 614.1c
)
