"""Abilities (CR 113): keyword, spell, activated, triggered, static, enchant and equip;
their costs (CR 118), and the card definition that lists them."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from arbiter_core.cards.model.base import (
    Color,
    DataModel,
    Keyword,
    TargetSpec,
)
from arbiter_core.cards.model.commanders import (
    BringFromOutside,
    DamageEqualToSacrificed,
    DoubleDamageToOpponents,
    ExileSelf,
    PreventHalfDamageToYou,
    ThatCreatureGains,
)
from arbiter_core.cards.model.counters_life import (
    AllCreaturesHaveKeyword,
    AttackIfAble,
    BeginOnBattlefield,
    CantGetPoison,
    ChooseOpponentAsEnters,
    DestroyUnlessAttacked,
    Detain,
    EntersWithCounters,
    ExchangeLifeTotals,
    GainLife,
    GivePoison,
    HighestLifeWinsIfNoCounters,
    LifeCantChange,
    LoseAllPoison,
    LoseLife,
    NoMinusCountersOnYourCreatures,
    NoMoreThanOneCombatant,
    OpponentsCreaturesLoseKeyword,
    PerCardInChosenPlayersHand,
    Proliferate,
    PutCounterOnEachCreature,
    RedirectNextDamage,
    RedistributeLifeTotals,
    RemoveCounterFromSelf,
    ReturnWithCounter,
    RevealForFirstUpkeepDrain,
    RevealOpponentChooses,
    SacrificeUnlessPayLife,
    SetLifeTotal,
    YouHaveHexproof,
)
from arbiter_core.cards.model.effects import (
    AddMana,
    AddManaInCommanderIdentity,
    Attach,
    BecomeArtifactCreatureUntilEndOfTurn,
    BecomeCopyUntilEndOfTurn,
    BecomeCreature,
    CanBeYourCommander,
    CantAttackOrBlock,
    CantAttackYouIfChosenColorWithoutFlying,
    CantLose,
    ChooseColorAsEnters,
    CounterTarget,
    CreateTokenForThatController,
    CreateTokens,
    DealDamage,
    Destroy,
    Discard,
    DoubleLife,
    DrawAndLoseCommanderManaValue,
    DrawCards,
    DrawPerCreatureOfColor,
    EnterAsCopy,
    ExileUntilNextEndStep,
    ExtraTurn,
    GainControl,
    GainKeyword,
    GainLifePerLifeLost,
    LifeBecomesLowest,
    LoseGame,
    Manifest,
    Mill,
    ModifyPowerToughness,
    NoLossForZeroLife,
    OpponentsCantWin,
    PowerToughnessFaceDownCreatures,
    PreventCombatDamage,
    PutOnBottomOfLibraries,
    PutOntoBattlefieldAttacking,
    PutOnTopOfLibrary,
    ReturnCommandersToCommandZone,
    ReturnToHand,
    SearchOntoBattlefield,
    ShuffleIntoLibrary,
    TurnOthersFaceDownAsEnters,
    Untap,
    WinGame,
)
from arbiter_core.cards.model.transform import ExtortPayment, LootThenTransform, TapThenTransform

Effect = (
    DealDamage
    | BeginOnBattlefield
    | RevealForFirstUpkeepDrain
    | YouHaveHexproof
    | Destroy
    | CounterTarget
    | ModifyPowerToughness
    | CantAttackOrBlock
    | AddMana
    | AddManaInCommanderIdentity
    | DrawCards
    | Discard
    | Mill
    | Manifest
    | ReturnToHand
    | PutOnTopOfLibrary
    | PutOnBottomOfLibraries
    | BecomeCopyUntilEndOfTurn
    | BecomeArtifactCreatureUntilEndOfTurn
    | ReturnCommandersToCommandZone
    | DrawAndLoseCommanderManaValue
    | CanBeYourCommander
    | DrawPerCreatureOfColor
    | TurnOthersFaceDownAsEnters
    | PowerToughnessFaceDownCreatures
    | CreateTokens
    | PreventCombatDamage
    | ExtraTurn
    | Attach
    | GainControl
    | Untap
    | GainKeyword
    | SearchOntoBattlefield
    | DoubleLife
    | ShuffleIntoLibrary
    | LifeBecomesLowest
    | WinGame
    | LoseGame
    | GainLifePerLifeLost
    | BecomeCreature
    | CreateTokenForThatController
    | CantLose
    | OpponentsCantWin
    | NoLossForZeroLife
    | CantAttackYouIfChosenColorWithoutFlying
    | ChooseColorAsEnters
    | EnterAsCopy
    | ExileUntilNextEndStep
    | GivePoison
    | EntersWithCounters
    | RemoveCounterFromSelf
    | HighestLifeWinsIfNoCounters
    | CantGetPoison
    | NoMinusCountersOnYourCreatures
    | OpponentsCreaturesLoseKeyword
    | LoseAllPoison
    | RevealOpponentChooses
    | Proliferate
    | LifeCantChange
    | PutOntoBattlefieldAttacking
    | SetLifeTotal
    | ExchangeLifeTotals
    | RedistributeLifeTotals
    | RedirectNextDamage
    | ChooseOpponentAsEnters
    | PerCardInChosenPlayersHand
    | PutCounterOnEachCreature
    | SacrificeUnlessPayLife
    | ReturnWithCounter
    | GainLife
    | LootThenTransform
    | TapThenTransform
    | ExtortPayment
    | LoseLife
    | AllCreaturesHaveKeyword
    | Detain
    | AttackIfAble
    | DestroyUnlessAttacked
    | NoMoreThanOneCombatant
    | ThatCreatureGains
    | DoubleDamageToOpponents
    | PreventHalfDamageToYou
    | DamageEqualToSacrificed
    | BringFromOutside
    | ExileSelf
)

# ---------------------------------------------------------------- costs


class Cost(DataModel):
    """An activation cost (CR 118, 602.1a): mana symbols and/or {T}."""

    mana: str = ""  # e.g. "{R}", "{1}"
    tap: bool = False
    pay_half_life: bool = False  # "Pay half your life, rounded up" (CR 119.4, 810.9a)
    # A loyalty ability's cost (CR 606.4): put (+N) or remove (-N) N loyalty counters;
    # printed "[+N]" / "[\u2212N]" (606.5).
    loyalty: int | None = None
    # "Sacrifice an artifact" (CR 118.3, 701.21): the permanent is chosen as the cost is
    # paid (a decision, `effects/sacrifice_cost.py`)
    sacrifice: Literal["artifact"] | None = None


# ---------------------------------------------------------------- abilities (CR 113)


class KeywordAbility(DataModel):
    """A keyword ability (CR 702).

    `reminder` records whether the card's Oracle text prints the keyword's reminder text
    (CR 207.2a: reminder text has no rules effect; whether it is printed varies from card
    to card, e.g. Shivan Dragon's "Flying (...)" but Air Elemental's bare "Flying").
    """

    kind: Literal["keyword"] = "keyword"
    keyword: Keyword
    reminder: bool = False


class Mode(DataModel):
    """One mode of a modal spell (CR 700.2): its effects, in order."""

    effects: tuple[Effect, ...] = Field(min_length=1)


class SpellAbility(DataModel):
    """The effect of an instant or sorcery as it resolves (CR 113.3a). A modal spell has
    `modes` instead of `effects` (CR 700.2); "An opponent chooses one" is
    `mode_chooser="an_opponent"` (700.2e)."""

    kind: Literal["spell"] = "spell"
    targets: tuple[TargetSpec, ...] = ()
    effects: tuple[Effect, ...] = ()
    extra_cost_per_target_beyond_first: int = 0  # Fireball (CR 601.2f)
    modes: tuple[Mode, ...] = ()
    mode_chooser: Literal["you", "an_opponent"] = "you"

    @model_validator(mode="after")
    def _effects_or_modes(self) -> SpellAbility:
        if bool(self.effects) == bool(self.modes) or len(self.modes) == 1:
            raise ValueError("a spell ability has effects, or two or more modes")
        return self


class ActivatedAbility(DataModel):
    """An activated ability (CR 602); a mana ability when it adds mana and has no target
    (CR 605.1a). `sorcery_speed` for equip (CR 702.6a)."""

    kind: Literal["activated"] = "activated"
    cost: Cost
    targets: tuple[TargetSpec, ...] = ()
    effects: tuple[Effect, ...] = Field(min_length=1)
    sorcery_speed: bool = False
    any_player: bool = False  # "Any player may activate this ability." (801.6 with range)
    # "Activate only during an opponent's turn and only before combat." (CR 602.5)
    opponents_turn_before_combat: bool = False


TriggerEvent = Literal[
    "deals_damage_to_opponent",  # "Whenever ~ deals damage to an opponent"
    "each_draw_step",  # "At the beginning of each player's draw step"
    "your_upkeep",  # "At the beginning of your upkeep"
    "you_lose_life",  # "Whenever you lose life"
    "life_20_or_more",  # state trigger "When you have 20 or more life" (CR 603.8)
    "nontoken_creature_enters",  # "Whenever a nontoken creature enters"
    "creature_enters",  # "Whenever a creature enters the battlefield" (Aether Flash)
    "player_cycles",  # "Whenever a player cycles a card"
    "deals_damage_to_player",  # "Whenever ~ deals damage to a player"
    "dealt_combat_damage",  # "Whenever ~ is dealt combat damage"
    "opponent_casts_spell",  # "Whenever an opponent casts a spell"
    "opponent_casts_creature_spell",  # "... a creature spell" (Aether Sting)
    "your_end_step",  # "At the beginning of your end step" (Atraxa, Praetors' Voice)
    "attacks_opponent",  # "Whenever ~ attacks an opponent" (Kaalia of the Vast)
    # "Whenever a creature you control attacks alone" (702.83b; Rafiq of the Many)
    "creature_you_control_attacks_alone",
    "blocks_or_becomes_blocked",  # "Whenever ~ blocks or becomes blocked" (Karn)
]


class TriggeredAbility(DataModel):
    """A triggered ability (CR 603). `if_untapped` is an intervening-if clause checked
    when it triggers and on resolution (CR 603.4)."""

    kind: Literal["triggered"] = "triggered"
    event: TriggerEvent
    if_untapped: bool = False
    if_life_at_least: int | None = None  # Test of Endurance's "if you have 50 or more life"
    if_didnt_attack: bool = False  # Homicidal Brute's "if ~ didn't attack this turn"
    optional: bool = False  # "you may"
    targets: tuple[TargetSpec, ...] = ()
    effects: tuple[Effect, ...] = Field(min_length=1)


class StaticAbility(DataModel):
    """A static ability (CR 604) whose effects apply while the source is on the
    battlefield, in layer order (CR 613)."""

    kind: Literal["static"] = "static"
    effects: tuple[Effect, ...] = Field(min_length=1)


class EnchantAbility(DataModel):
    """Enchant [quality] (CR 702.5): targets as an Aura spell and restricts attachment."""

    kind: Literal["enchant"] = "enchant"
    what: Literal["creature"] = "creature"
    reminder: bool = False  # the Oracle prints reminder text (CR 207.2a)


class EquipAbility(DataModel):
    """Equip [cost] (CR 702.6): attach to target creature you control, sorcery speed."""

    kind: Literal["equip"] = "equip"
    cost: Cost


class CyclingAbility(DataModel):
    """Cycling [cost] (CR 702.29a): "[Cost], Discard this card: Draw a card." - an
    activated ability that functions only while the card is in its owner's hand."""

    kind: Literal["cycling"] = "cycling"
    cost: Cost
    reminder: bool = False  # the Oracle prints reminder text (CR 207.2a)


class MorphAbility(DataModel):
    """Morph [cost] (CR 702.37a): the card may be cast face down as a 2/2 creature for
    {3} (702.37c), and turned face up for its morph cost any time its controller has
    priority (702.37e). A static ability; the rules are in `keywords/morph.py`."""

    kind: Literal["morph"] = "morph"
    cost: Cost
    reminder: bool = False  # the Oracle prints reminder text (CR 207.2a)


class CasualAbility(DataModel):
    """An ability of a plane, phenomenon, scheme or vanguard card (CR 311-314, 901.7,
    902.7, 904.8), which functions from the command zone: `name` keys what it does in
    the variant module that implements it (`variants.casual_cards`), `text` is its Oracle
    paragraph. `when` says what it is: a static ability, or the event it triggers on -
    rolling {CHAOS} (311.7), encountering a phenomenon (312.5), setting a scheme in
    motion (701.32)."""

    kind: Literal["casual"] = "casual"
    name: str
    text: str
    when: Literal["static", "chaos", "encounter", "planeswalk_to", "set_in_motion",
                  "your_upkeep", "your_draw_step", "your_end_step", "each_end_step",
                  "creature_dies", "activated", "land_enters", "creature_leaves",
                  "planeswalk_away", "cast_single_target"] = "static"
    optional: bool = False  # "you may"
    targets: tuple[TargetSpec, ...] = ()
    #: what it does, when the card model's effects say it; else `name` says
    effects: tuple[Effect, ...] = ()


Ability = (
    KeywordAbility
    | SpellAbility
    | ActivatedAbility
    | TriggeredAbility
    | StaticAbility
    | EnchantAbility
    | EquipAbility
    | CyclingAbility
    | MorphAbility
    | CasualAbility
)


#: the abilities of a kind of token, by the token's name, as the effect that creates it
#: gives them (111.4: 'a 1/1 green Elf Druid creature token with "{T}: Add {G}."'), with
#: their quoted wording; a card module adds its token's
TOKEN_ABILITIES: dict[str, tuple[tuple[Ability, ...], str]] = {}


class CardDefinition(DataModel):
    """A card as the engine knows it: Oracle facts plus the declarative abilities.

    `oracle` is the card's Oracle text (MTGJSON 2022-04-25), kept beside the abilities
    so a judge can compare them; `render.py` renders `abilities` back to English.
    """

    name: str
    mana_cost: str = ""  # "{1}{R}", "" for lands
    colors: tuple[Color, ...] = ()
    supertypes: tuple[str, ...] = ()
    types: tuple[str, ...]
    subtypes: tuple[str, ...] = ()
    power: int | None = None
    toughness: int | None = None
    loyalty: int | None = None  # printed loyalty of a planeswalker (CR 209.1, 306.5b)
    oracle: str = ""
    abilities: tuple[Ability, ...] = ()
