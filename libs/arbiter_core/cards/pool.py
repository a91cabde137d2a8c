"""The cards the engine implements, as declarative `CardDefinition`s.

Printed characteristics (name, mana cost, colors, type line, power/toughness, Oracle
text) come from the generated `facts.py`; this module only adds each card's abilities,
in Oracle order, one ability per keyword or paragraph (CR 113.2c, 702.1). Pure data: no
I/O, no clock, no randomness.
"""

from __future__ import annotations

from arbiter_core.cards.facts import FACTS
from arbiter_core.cards.model import (
    Ability,
    ActivatedAbility,
    AddMana,
    AllCreaturesHaveKeyword,
    AttackIfAble,
    BecomeCreature,
    CantAttackOrBlock,
    CantAttackYouIfChosenColorWithoutFlying,
    CantGetPoison,
    CantLose,
    CardDefinition,
    ChooseColorAsEnters,
    ChooseOpponentAsEnters,
    Cost,
    CounterTarget,
    CreateTokenForThatController,
    CreateTokens,
    DealDamage,
    Destroy,
    DestroyUnlessAttacked,
    Detain,
    Discard,
    DoubleLife,
    DrawCards,
    Effect,
    EnchantAbility,
    EntersWithCounters,
    EquipAbility,
    ExchangeLifeTotals,
    ExileUntilNextEndStep,
    ExtraTurn,
    GainControl,
    GainKeyword,
    GainLife,
    GainLifePerLifeLost,
    GivePoison,
    HighestLifeWinsIfNoCounters,
    Keyword,
    KeywordAbility,
    LifeBecomesLowest,
    LifeCantChange,
    LoseAllPoison,
    LoseGame,
    LoseLife,
    Mode,
    ModifyPowerToughness,
    NoLossForZeroLife,
    NoMinusCountersOnYourCreatures,
    NoMoreThanOneCombatant,
    OpponentsCantWin,
    OpponentsCreaturesLoseKeyword,
    PerCardInChosenPlayersHand,
    PreventCombatDamage,
    Proliferate,
    PutCounterOnEachCreature,
    RedirectNextDamage,
    RedistributeLifeTotals,
    RemoveCounterFromSelf,
    ReturnToHand,
    RevealOpponentChooses,
    SacrificeUnlessPayLife,
    SearchOntoBattlefield,
    SetLifeTotal,
    ShuffleIntoLibrary,
    SpellAbility,
    StaticAbility,
    TargetKind,
    TargetSpec,
    TokenSpec,
    TriggeredAbility,
    Untap,
    WinGame,
)


def _card(name: str, *abilities: Ability) -> CardDefinition:
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
        oracle=facts.oracle_text,
        abilities=abilities,
    )


def _kw(keyword: Keyword, *, reminder: bool = False) -> KeywordAbility:
    return KeywordAbility(keyword=keyword, reminder=reminder)


def _target(kind: TargetKind) -> tuple[TargetSpec, ...]:
    """A single "target [kind]" requirement (CR 115.1)."""
    return (TargetSpec(kind=kind),)


def _tap_for(mana: str) -> ActivatedAbility:
    """The ability "{T}: Add [mana]." -- a mana ability (CR 605.1a); for a basic land
    type it is the intrinsic ability of CR 305.6."""
    return ActivatedAbility(cost=Cost(tap=True), effects=(AddMana(mana=mana),))


def _spell(*effects: Effect, targets: tuple[TargetSpec, ...] = ()) -> SpellAbility:
    """An instant's or sorcery's spell ability (CR 113.3a)."""
    return SpellAbility(targets=targets, effects=effects)


_GOBLIN = TokenSpec(
    name="Goblin Token",  # CR 111.4: subtype plus "Token"
    colors=("R",),
    types=("Creature",),
    subtypes=("Goblin",),
    power=1,
    toughness=1,
)

_MYR = TokenSpec(
    name="Myr Token",  # CR 111.4
    colors=(),
    types=("Artifact", "Creature"),
    subtypes=("Myr",),
    power=1,
    toughness=1,
)

_DEFINITIONS: tuple[CardDefinition, ...] = (
    # ------------------------------------------------ basic lands (CR 205.4c, 305.6)
    _card("Plains", _tap_for("W")),
    _card("Island", _tap_for("U")),
    _card("Swamp", _tap_for("B")),
    _card("Mountain", _tap_for("R")),
    _card("Forest", _tap_for("G")),
    _card("Wastes", _tap_for("C")),  # no basic land type: a printed ability
    # ------------------------------------------------ creatures
    _card("Grizzly Bears"),
    _card("Llanowar Elves", _tap_for("G")),
    _card("Savannah Lions"),
    _card("Hill Giant"),
    _card("Craw Wurm"),
    _card("Air Elemental", _kw("flying")),
    _card(
        "Shivan Dragon",
        _kw("flying", reminder=True),
        ActivatedAbility(
            cost=Cost(mana="{R}"),
            effects=(
                ModifyPowerToughness(subject="self", power=1, toughness=0, until_end_of_turn=True),
            ),
        ),
    ),
    _card("Giant Spider", _kw("reach", reminder=True)),
    _card("Wall of Stone", _kw("defender", reminder=True)),
    _card("Raging Goblin", _kw("haste", reminder=True)),
    _card("Youthful Knight", _kw("first_strike")),
    _card("Fencing Ace", _kw("double_strike")),
    _card("Typhoid Rats", _kw("deathtouch", reminder=True)),
    _card("Vampire Nighthawk", _kw("flying"), _kw("deathtouch"), _kw("lifelink")),
    _card("Colossal Dreadmaw", _kw("trample", reminder=True)),
    _card("Ornithopter", _kw("flying")),
    _card("Watchwolf"),
    _card("Serra Angel", _kw("flying"), _kw("vigilance")),
    _card(
        "Hypnotic Specter",
        _kw("flying"),
        TriggeredAbility(
            event="deals_damage_to_opponent",
            effects=(Discard(who="that_player", at_random=True),),
        ),
    ),
    _card("Isamaru, Hound of Konda"),
    _card(
        "Krenko, Mob Boss",
        ActivatedAbility(
            cost=Cost(tap=True),
            effects=(CreateTokens(count="goblins_you_control", token=_GOBLIN),),
        ),
    ),
    # ------------------------------------------------ instants and sorceries (CR 113.3a)
    _card("Shock", _spell(DealDamage(amount=2, to=0), targets=_target("any"))),
    _card("Lightning Bolt", _spell(DealDamage(amount=3, to=0), targets=_target("any"))),
    _card(
        "Lava Axe",
        _spell(DealDamage(amount=5, to=0), targets=_target("player_or_planeswalker")),
    ),
    _card(
        "Fireball",
        SpellAbility(
            targets=(TargetSpec(kind="any", min_count=1, max_count=None),),
            effects=(DealDamage(amount="X", to=0, divided=True),),
            extra_cost_per_target_beyond_first=1,  # CR 601.2f
        ),
    ),
    _card("Flame Rift", _spell(DealDamage(amount=4, to="each_player"))),
    _card("Counterspell", _spell(CounterTarget(what=0), targets=_target("spell"))),
    _card("Cancel", _spell(CounterTarget(what=0), targets=_target("spell"))),
    _card(
        "Giant Growth",
        _spell(
            ModifyPowerToughness(subject="target", power=3, toughness=3, until_end_of_turn=True),
            targets=_target("creature"),
        ),
    ),
    _card("Divination", _spell(DrawCards(count=2))),
    _card("Wrath of God", _spell(Destroy(what="all_creatures", no_regenerate=True))),
    _card(
        "Doom Blade",
        _spell(Destroy(what=0), targets=(TargetSpec(kind="creature", not_color="B"),)),
    ),
    _card("Unsummon", _spell(ReturnToHand(what=0), targets=_target("creature"))),
    _card("Dark Ritual", _spell(AddMana(mana="BBB"))),
    _card("Naturalize", _spell(Destroy(what=0), targets=_target("artifact_or_enchantment"))),
    _card("Disenchant", _spell(Destroy(what=0), targets=_target("artifact_or_enchantment"))),
    _card("Fog", _spell(PreventCombatDamage())),
    _card(
        "Raise Dead",
        _spell(ReturnToHand(what=0), targets=_target("creature_card_in_your_graveyard")),
    ),
    _card(
        "Mind Rot",
        _spell(Discard(who="target_player", count=2), targets=_target("player")),
    ),
    _card("Time Walk", _spell(ExtraTurn())),
    # ------------------------------------------------ auras (CR 303.4, 702.5)
    _card(
        "Pacifism",
        EnchantAbility(what="creature"),
        StaticAbility(effects=(CantAttackOrBlock(),)),
    ),
    _card(
        "Holy Strength",
        EnchantAbility(what="creature"),
        StaticAbility(effects=(ModifyPowerToughness(subject="enchanted", power=1, toughness=2),)),
    ),
    # ------------------------------------------------ artifacts and enchantments
    _card(
        "Bonesplitter",
        StaticAbility(effects=(ModifyPowerToughness(subject="equipped", power=2, toughness=0),)),
        EquipAbility(cost=Cost(mana="{1}")),  # CR 702.6a
    ),
    _card("Sol Ring", _tap_for("CC")),
    _card(
        "Glorious Anthem",
        StaticAbility(
            effects=(ModifyPowerToughness(subject="creatures_you_control", power=1, toughness=1),)
        ),
    ),
    _card(
        "Howling Mine",
        TriggeredAbility(
            event="each_draw_step",
            if_untapped=True,  # intervening "if" clause, CR 603.4
            effects=(DrawCards(who="that_player"),),
        ),
    ),
    # ------------------------------------------------ multiplayer cards (CR 800-810)
    _card(
        "Teferi's Moat",
        StaticAbility(effects=(ChooseColorAsEnters(),)),  # CR 614.12
        StaticAbility(effects=(CantAttackYouIfChosenColorWithoutFlying(),)),
    ),
    _card(
        "Platinum Angel",
        _kw("flying"),
        StaticAbility(effects=(CantLose(), OpponentsCantWin())),
    ),
    _card(
        "Transcendence",
        StaticAbility(effects=(NoLossForZeroLife(),)),
        TriggeredAbility(event="life_20_or_more", effects=(LoseGame(),)),  # CR 603.8
        TriggeredAbility(event="you_lose_life", effects=(GainLifePerLifeLost(per_point=2),)),
    ),
    _card(
        "Beacon of Immortality",
        _spell(DoubleLife(target=0), ShuffleIntoLibrary(), targets=_target("player")),
    ),
    _card(
        "Test of Endurance",
        TriggeredAbility(
            event="your_upkeep",
            if_life_at_least=50,  # intervening "if" clause, CR 603.4
            effects=(WinGame(),),
        ),
    ),
    _card(
        "Lurking Evil",
        ActivatedAbility(
            cost=Cost(pay_half_life=True),
            effects=(
                BecomeCreature(
                    power=4,
                    toughness=4,
                    subtypes=("Phyrexian", "Horror"),
                    keywords=("flying",),
                ),
            ),
        ),
    ),
    _card("Repay in Kind", _spell(LifeBecomesLowest())),
    _card(
        "Ray of Command",
        _spell(
            Untap(target=0),
            GainControl(subject="target", target=0, until_end_of_turn=True, tap_when_lost=True),
            GainKeyword(keyword="haste", target=0),
            targets=_target("creature_an_opponent_controls"),
        ),
    ),
    _card(
        "Persuasion",
        EnchantAbility(what="creature", reminder=True),
        StaticAbility(effects=(GainControl(subject="enchanted"),)),
    ),
    _card(
        "Mind Control",
        EnchantAbility(what="creature"),
        StaticAbility(effects=(GainControl(subject="enchanted"),)),
    ),
    _card(
        "Bribery",
        _spell(
            SearchOntoBattlefield(target=0, card_type="Creature"),
            targets=_target("opponent"),
        ),
    ),
    _card(
        "Act of Treason",
        _spell(
            GainControl(subject="target", target=0, until_end_of_turn=True),
            Untap(target=0),
            GainKeyword(keyword="haste", target=0, reminder=True),
            targets=_target("creature"),
        ),
    ),
    _card(
        "Genesis Chamber",
        TriggeredAbility(
            event="nontoken_creature_enters",
            if_untapped=True,  # intervening "if" clause, CR 603.4
            effects=(CreateTokenForThatController(token=_MYR),),
        ),
    ),
    _card(
        "Astral Slide",
        TriggeredAbility(
            event="player_cycles",
            optional=True,
            targets=_target("creature"),
            effects=(ExileUntilNextEndStep(target=0),),
        ),
    ),
    # ------------------------------------------------ from the full Oracle file
    # (tools/extra_cards.txt): poison (810.10), life totals (810.9), range of influence
    # (801), attack and block options (802), shared team turns (805), durations (800.4m)
    _card(
        "Marsh Viper",
        TriggeredAbility(
            event="deals_damage_to_player",
            effects=(GivePoison(who="that_player", count=2, reminder=True),),
        ),
    ),
    _card(
        "Leeches",
        _spell(
            LoseAllPoison(target=0),
            DealDamage(amount="that_much", to=0),
            targets=_target("player"),
        ),
    ),
    _card("Steady Progress", _spell(Proliferate(), DrawCards())),  # CR 701.34
    _card("Platinum Emperion", StaticAbility(effects=(LifeCantChange(reminder=True),))),
    _card("Blessed Wind", _spell(SetLifeTotal(target=0, amount=20), targets=_target("player"))),
    _card(
        "Soul Conduit",
        ActivatedAbility(
            cost=Cost(mana="{6}", tap=True),
            targets=(TargetSpec(kind="player", min_count=2, max_count=2),),
            effects=(ExchangeLifeTotals(target=0),),
        ),
    ),
    _card(
        "Rhystic Study",
        TriggeredAbility(
            event="opponent_casts_spell",
            optional=True,
            effects=(DrawCards(unless_that_player_pays="{1}"),),
        ),
    ),
    _card(
        "Celestial Convergence",
        StaticAbility(effects=(EntersWithCounters(counter="omen", count=7),)),  # CR 614.1c
        TriggeredAbility(
            event="your_upkeep",
            effects=(
                RemoveCounterFromSelf(counter="omen"),
                HighestLifeWinsIfNoCounters(counter="omen"),
            ),
        ),
    ),
    _card(
        "Captain's Maneuver",
        SpellAbility(
            targets=(
                TargetSpec(kind="creature_planeswalker_or_player"),
                TargetSpec(kind="creature_planeswalker_or_player", another=True),
            ),
            effects=(RedirectNextDamage(amount="X", source_target=0, to_target=1),),
        ),
    ),
    _card("Murmurs from Beyond", _spell(RevealOpponentChooses(count=3))),
    _card("Reverse the Sands", _spell(RedistributeLifeTotals())),
    # information about a player who left (800.4i), modes chosen by an opponent (801.5b),
    # a loop of mandatory actions (801.16), life paid at once (810.9b)
    _card(
        "Nyxathid",
        StaticAbility(effects=(ChooseOpponentAsEnters(),)),  # CR 614.12
        StaticAbility(effects=(PerCardInChosenPlayersHand(power=-1, toughness=-1),)),
    ),
    _card(
        "Misfortune",
        SpellAbility(
            mode_chooser="an_opponent",  # CR 700.2e
            modes=(
                Mode(effects=(PutCounterOnEachCreature(counter="+1/+1", whose="you"),
                              GainLife(amount=4))),
                Mode(effects=(PutCounterOnEachCreature(counter="-1/-1", whose="that_player"),
                              DealDamage(amount=4, to="that_player"))),
            ),
        ),
    ),
    _card(
        "Aether Flash",
        TriggeredAbility(event="creature_enters",
                         effects=(DealDamage(amount=2, to="that_creature"),)),
    ),
    _card("Putrid Goblin", _kw("persist", reminder=True)),  # CR 702.79a
    _card("Killing Wave", _spell(SacrificeUnlessPayLife(amount="X"))),
    _card("Boggart Brute", _kw("menace", reminder=True)),
    _card(
        "Concordant Crossroads",
        StaticAbility(effects=(AllCreaturesHaveKeyword(keyword="haste"),)),
    ),
    _card(
        "Flailing Soldier",
        ActivatedAbility(
            cost=Cost(mana="{1}"),
            effects=(
                ModifyPowerToughness(subject="self", power=1, toughness=1, until_end_of_turn=True),
            ),
            any_player=True,
        ),
        ActivatedAbility(
            cost=Cost(mana="{1}"),
            effects=(
                ModifyPowerToughness(
                    subject="self", power=-1, toughness=-1, until_end_of_turn=True
                ),
            ),
            any_player=True,
        ),
    ),
    _card(
        "Souls of the Faultless",
        _kw("defender", reminder=True),
        TriggeredAbility(
            event="dealt_combat_damage",
            effects=(GainLife(amount="that_much"), LoseLife(amount="that_much")),
        ),
    ),
    _card(
        "Melira, Sylvok Outcast",
        StaticAbility(effects=(CantGetPoison(),)),
        StaticAbility(effects=(NoMinusCountersOnYourCreatures(),)),
        StaticAbility(effects=(OpponentsCreaturesLoseKeyword(keyword="infect"),)),
    ),
    # attack requirements (508.1d, 805.9), restrictions (508.1c, 509.1b), banding (702.22)
    _card(
        "Maddening Imp",
        _kw("flying"),
        ActivatedAbility(
            cost=Cost(tap=True),
            effects=(AttackIfAble(who="active_player", non_wall=True), DestroyUnlessAttacked()),
            opponents_turn_before_combat=True,
        ),
    ),
    _card(
        "Silent Arbiter",
        StaticAbility(effects=(NoMoreThanOneCombatant(declaring="attack"),)),
        StaticAbility(effects=(NoMoreThanOneCombatant(declaring="block"),)),
    ),
    _card("Benalish Hero", _kw("banding", reminder=True)),
    _card(
        "Inaction Injunction",
        _spell(Detain(target=0), DrawCards(), targets=_target("creature_an_opponent_controls")),
    ),
)

POOL: dict[str, CardDefinition] = {card.name: card for card in _DEFINITIONS}
