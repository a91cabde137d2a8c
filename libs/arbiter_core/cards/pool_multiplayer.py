"""Cards for the multiplayer rules (CR 800-810): the seed documents' cards and those taken
from the full Oracle file for a rule they exercise (tools/extra_cards.txt)."""

from __future__ import annotations

from arbiter_core.cards.build import MYR, card, kw, spell, target
from arbiter_core.cards.model import (
    ActivatedAbility,
    AllCreaturesHaveKeyword,
    AttackIfAble,
    BecomeCreature,
    CantAttackYouIfChosenColorWithoutFlying,
    CantGetPoison,
    CantLose,
    CardDefinition,
    ChooseColorAsEnters,
    ChooseOpponentAsEnters,
    Cost,
    CreateTokenForThatController,
    CyclingAbility,
    DealDamage,
    DestroyUnlessAttacked,
    Detain,
    DoubleLife,
    DrawCards,
    EnchantAbility,
    EntersWithCounters,
    ExchangeLifeTotals,
    ExileUntilNextEndStep,
    GainControl,
    GainKeyword,
    GainLife,
    GainLifePerLifeLost,
    GivePoison,
    HighestLifeWinsIfNoCounters,
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
    Proliferate,
    PutCounterOnEachCreature,
    RedirectNextDamage,
    RedistributeLifeTotals,
    RemoveCounterFromSelf,
    RevealOpponentChooses,
    SacrificeUnlessPayLife,
    SearchOntoBattlefield,
    SetLifeTotal,
    ShuffleIntoLibrary,
    SpellAbility,
    StaticAbility,
    TargetSpec,
    TriggeredAbility,
    Untap,
    WinGame,
)

MULTIPLAYER: tuple[CardDefinition, ...] = (
    # ------------------------------------------------ multiplayer cards (CR 800-810)
    card(
        "Teferi's Moat",
        StaticAbility(effects=(ChooseColorAsEnters(),)),  # CR 614.12
        StaticAbility(effects=(CantAttackYouIfChosenColorWithoutFlying(),)),
    ),
    card(
        "Platinum Angel",
        kw("flying"),
        StaticAbility(effects=(CantLose(), OpponentsCantWin())),
    ),
    card(
        "Transcendence",
        StaticAbility(effects=(NoLossForZeroLife(),)),
        TriggeredAbility(event="life_20_or_more", effects=(LoseGame(),)),  # CR 603.8
        TriggeredAbility(event="you_lose_life", effects=(GainLifePerLifeLost(per_point=2),)),
    ),
    card(
        "Beacon of Immortality",
        spell(DoubleLife(target=0), ShuffleIntoLibrary(), targets=target("player")),
    ),
    card(
        "Test of Endurance",
        TriggeredAbility(
            event="your_upkeep",
            if_life_at_least=50,  # intervening "if" clause, CR 603.4
            effects=(WinGame(),),
        ),
    ),
    card(
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
    card("Repay in Kind", spell(LifeBecomesLowest())),
    card(
        "Ray of Command",
        spell(
            Untap(target=0),
            GainControl(subject="target", target=0, until_end_of_turn=True, tap_when_lost=True),
            GainKeyword(keyword="haste", target=0),
            targets=target("creature_an_opponent_controls"),
        ),
    ),
    card(
        "Persuasion",
        EnchantAbility(what="creature", reminder=True),
        StaticAbility(effects=(GainControl(subject="enchanted"),)),
    ),
    card(
        "Mind Control",
        EnchantAbility(what="creature"),
        StaticAbility(effects=(GainControl(subject="enchanted"),)),
    ),
    card(
        "Bribery",
        spell(
            SearchOntoBattlefield(target=0, card_type="Creature"),
            targets=target("opponent"),
        ),
    ),
    card(
        "Act of Treason",
        spell(
            GainControl(subject="target", target=0, until_end_of_turn=True),
            Untap(target=0),
            GainKeyword(keyword="haste", target=0, reminder=True),
            targets=target("creature"),
        ),
    ),
    card(
        "Genesis Chamber",
        TriggeredAbility(
            event="nontoken_creature_enters",
            if_untapped=True,  # intervening "if" clause, CR 603.4
            effects=(CreateTokenForThatController(token=MYR),),
        ),
    ),
    card(
        "Astral Slide",
        TriggeredAbility(
            event="player_cycles",
            optional=True,
            targets=target("creature"),
            effects=(ExileUntilNextEndStep(target=0),),
        ),
    ),
    # ------------------------------------------------ from the full Oracle file
    # (tools/extra_cards.txt): poison (810.10), life totals (810.9), range of influence
    # (801), attack and block options (802), shared team turns (805), durations (800.4m)
    card(
        "Marsh Viper",
        TriggeredAbility(
            event="deals_damage_to_player",
            effects=(GivePoison(who="that_player", count=2, reminder=True),),
        ),
    ),
    card(
        "Leeches",
        spell(
            LoseAllPoison(target=0),
            DealDamage(amount="that_much", to=0),
            targets=target("player"),
        ),
    ),
    card("Steady Progress", spell(Proliferate(), DrawCards())),  # CR 701.34
    card("Platinum Emperion", StaticAbility(effects=(LifeCantChange(reminder=True),))),
    card("Blessed Wind", spell(SetLifeTotal(target=0, amount=20), targets=target("player"))),
    card(
        "Soul Conduit",
        ActivatedAbility(
            cost=Cost(mana="{6}", tap=True),
            targets=(TargetSpec(kind="player", min_count=2, max_count=2),),
            effects=(ExchangeLifeTotals(target=0),),
        ),
    ),
    card(
        "Rhystic Study",
        TriggeredAbility(
            event="opponent_casts_spell",
            optional=True,
            effects=(DrawCards(unless_that_player_pays="{1}"),),
        ),
    ),
    card(
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
    card(
        "Captain's Maneuver",
        SpellAbility(
            targets=(
                TargetSpec(kind="creature_planeswalker_or_player"),
                TargetSpec(kind="creature_planeswalker_or_player", another=True),
            ),
            effects=(RedirectNextDamage(amount="X", source_target=0, to_target=1),),
        ),
    ),
    card("Murmurs from Beyond", spell(RevealOpponentChooses(count=3))),
    card("Reverse the Sands", spell(RedistributeLifeTotals())),
    # information about a player who left (800.4i), modes chosen by an opponent (801.5b),
    # a loop of mandatory actions (801.16), life paid at once (810.9b)
    card(
        "Nyxathid",
        StaticAbility(effects=(ChooseOpponentAsEnters(),)),  # CR 614.12
        StaticAbility(effects=(PerCardInChosenPlayersHand(power=-1, toughness=-1),)),
    ),
    card(
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
    card(
        "Aether Flash",
        TriggeredAbility(event="creature_enters",
                         effects=(DealDamage(amount=2, to="that_creature"),)),
    ),
    card("Putrid Goblin", kw("persist", reminder=True)),  # CR 702.79a
    card("Killing Wave", spell(SacrificeUnlessPayLife(amount="X"))),
    card("Boggart Brute", kw("menace", reminder=True)),
    card(
        "Concordant Crossroads",
        StaticAbility(effects=(AllCreaturesHaveKeyword(keyword="haste"),)),
    ),
    card(
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
    card(
        "Souls of the Faultless",
        kw("defender", reminder=True),
        TriggeredAbility(
            event="dealt_combat_damage",
            effects=(GainLife(amount="that_much"), LoseLife(amount="that_much")),
        ),
    ),
    card(
        "Melira, Sylvok Outcast",
        StaticAbility(effects=(CantGetPoison(),)),
        StaticAbility(effects=(NoMinusCountersOnYourCreatures(),)),
        StaticAbility(effects=(OpponentsCreaturesLoseKeyword(keyword="infect"),)),
    ),
    # attack requirements (508.1d, 805.9), restrictions (508.1c, 509.1b), banding (702.22)
    card(
        "Maddening Imp",
        kw("flying"),
        ActivatedAbility(
            cost=Cost(tap=True),
            effects=(AttackIfAble(who="active_player", non_wall=True), DestroyUnlessAttacked()),
            opponents_turn_before_combat=True,
        ),
    ),
    card(
        "Silent Arbiter",
        StaticAbility(effects=(NoMoreThanOneCombatant(declaring="attack"),)),
        StaticAbility(effects=(NoMoreThanOneCombatant(declaring="block"),)),
    ),
    card("Benalish Hero", kw("banding", reminder=True)),
    card(
        "Inaction Injunction",
        spell(Detain(target=0), DrawCards(), targets=target("creature_an_opponent_controls")),
    ),
    # cycling (702.29): a player cycles a card, and Astral Slide triggers
    card("Desert Cerodon", CyclingAbility(cost=Cost(mana="{R}"), reminder=True)),
)
