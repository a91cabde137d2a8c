"""Declarative card abilities: data that the rules core interprets, never callables.

A card definition is a list of abilities (CR 113) built from the frozen pydantic models
below. Each model is plain data a judge can read; `render.py` turns it back into English
so it can be compared with the card's Oracle text. The rules core interprets these in
`effects.py` (resolution, CR 608.2), `casting.py` (targets and costs, CR 601.2) and
`layers.py` (static abilities, CR 604 and 613).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


Keyword = Literal[
    "flying",
    "reach",
    "vigilance",
    "defender",
    "haste",
    "first_strike",
    "double_strike",
    "trample",
    "deathtouch",
    "lifelink",
    "persist",  # 702.79
    "menace",  # 702.111
    "banding",  # 702.22 (no "bands with other" in the pool)
]

Color = Literal["W", "U", "B", "R", "G"]

# ---------------------------------------------------------------- targets (CR 115)

TargetKind = Literal[
    "any",  # creature, player, planeswalker or battle (115.4)
    "creature",
    "player",
    "player_or_planeswalker",
    "spell",
    "artifact_or_enchantment",
    "creature_card_in_your_graveyard",
    "opponent",  # "target opponent" (Bribery)
    "creature_an_opponent_controls",  # Ray of Command
    "creature_planeswalker_or_player",  # Captain's Maneuver (no battles)
]


class TargetSpec(_Data):
    """One target requirement of a spell or ability (CR 115.1, 601.2c).

    `min_count`/`max_count` describe "target" (1/1) or "any number of targets"
    (1/None). `not_color` restricts to objects that are not of that color (Doom Blade's
    "nonblack").
    """

    kind: TargetKind
    min_count: int = 1
    max_count: int | None = 1
    not_color: Color | None = None
    another: bool = False  # "another target": not one chosen for an earlier target


# ---------------------------------------------------------------- amounts

# "that_much": the amount of the event a trigger refers to (Souls of the Faultless's
# "that much life"), or of the effect just before it (Leeches' "that much damage").
Amount = int | Literal["X", "goblins_you_control", "that_much"]

# ---------------------------------------------------------------- effects (CR 608.2c)

TargetRef = int  # index into the ability's `targets` list


class DealDamage(_Data):
    """The source deals damage (CR 120). `to` is a target index, or every player.

    `divided` splits the amount evenly among all chosen targets of that index, rounding
    down (Fireball).
    """

    kind: Literal["deal_damage"] = "deal_damage"
    amount: Amount
    # "that_player": the player a trigger or a mode names (Misfortune's chooser);
    # "that_creature": the object a trigger names ("deals 2 damage to it", Aether Flash)
    to: TargetRef | Literal["each_player", "that_player", "that_creature"]
    divided: bool = False


class Destroy(_Data):
    """Destroy (CR 701.8): a target, or all creatures. `no_regenerate` is Wrath's rider."""

    kind: Literal["destroy"] = "destroy"
    what: TargetRef | Literal["all_creatures"]
    no_regenerate: bool = False


class CounterTarget(_Data):
    """Counter target spell (CR 701.6)."""

    kind: Literal["counter"] = "counter"
    what: TargetRef = 0


PTSubject = Literal["target", "self", "enchanted", "equipped", "creatures_you_control"]


class ModifyPowerToughness(_Data):
    """+N/+M in layer 7c (CR 613.4c). `until_end_of_turn` for a resolving effect
    (CR 611.2); otherwise it is the effect of a static ability (CR 604, 611.3)."""

    kind: Literal["modify_pt"] = "modify_pt"
    subject: PTSubject
    target: TargetRef = 0
    power: int
    toughness: int
    until_end_of_turn: bool = False


class CantAttackOrBlock(_Data):
    """A static restriction on the enchanted creature (CR 508.1c, 509.1b)."""

    kind: Literal["cant_attack_or_block"] = "cant_attack_or_block"
    subject: Literal["enchanted"] = "enchanted"


class AddMana(_Data):
    """Add mana to the controller's pool (CR 106.3, 605). `mana` is a string of symbols
    such as "G", "CC" or "BBB"."""

    kind: Literal["add_mana"] = "add_mana"
    mana: str


PlayerRef = Literal["controller", "target_player", "that_player"]


class DrawCards(_Data):
    """A player draws cards (CR 121). `that_player` is the player a trigger names."""

    kind: Literal["draw"] = "draw"
    who: PlayerRef = "controller"
    count: int = 1
    # "unless that player pays {1}" (Rhystic Study): the player a trigger names may pay
    # this mana to stop the draw (CR 118.12a; 800.4f: not paid if they have left).
    unless_that_player_pays: str = ""


class Discard(_Data):
    """A player discards (CR 701.9); `at_random` for Hypnotic Specter."""

    kind: Literal["discard"] = "discard"
    who: PlayerRef
    count: int = 1
    at_random: bool = False


class ReturnToHand(_Data):
    """Return the target to its owner's hand (CR 400.7)."""

    kind: Literal["return_to_hand"] = "return_to_hand"
    what: TargetRef = 0


class TokenSpec(_Data):
    """A token's characteristics (CR 111.4)."""

    name: str
    colors: tuple[Color, ...]
    types: tuple[str, ...]
    subtypes: tuple[str, ...]
    power: int
    toughness: int


class CreateTokens(_Data):
    """Create tokens (CR 111.2, 701.7)."""

    kind: Literal["create_tokens"] = "create_tokens"
    count: Amount
    token: TokenSpec


class PreventCombatDamage(_Data):
    """Prevent all combat damage this turn (CR 615: a prevention shield, Fog)."""

    kind: Literal["prevent_combat_damage"] = "prevent_combat_damage"


class ExtraTurn(_Data):
    """The controller takes an extra turn after this one (CR 500.7)."""

    kind: Literal["extra_turn"] = "extra_turn"


class Attach(_Data):
    """Attach this Equipment to the target creature (CR 701.3, equip 702.6)."""

    kind: Literal["attach"] = "attach"
    target: TargetRef = 0


class GainControl(_Data):
    """Control-changing effect, layer 2 (CR 613.1b). From a resolving spell it lasts
    until end of turn (Act of Treason, Ray of Command); from a static ability it lasts
    while the Aura enchants the creature (Mind Control, Persuasion). `tap_when_lost` is
    Ray of Command's delayed trigger "When you lose control of the creature, tap it"."""

    kind: Literal["gain_control"] = "gain_control"
    subject: Literal["target", "enchanted"] = "target"
    target: TargetRef = 0
    until_end_of_turn: bool = False
    tap_when_lost: bool = False


class Untap(_Data):
    """Untap the target (CR 701.26b)."""

    kind: Literal["untap"] = "untap"
    target: TargetRef = 0


class GainKeyword(_Data):
    """The target gains a keyword until end of turn, layer 6 (CR 613.1f)."""

    kind: Literal["gain_keyword"] = "gain_keyword"
    keyword: Keyword
    target: TargetRef = 0
    until_end_of_turn: bool = True
    reminder: bool = False  # the Oracle prints reminder text (CR 207.2a)


class SearchOntoBattlefield(_Data):
    """Search the target player's library for a card of `card_type` and put it onto the
    battlefield under your control; then that player shuffles (CR 701.19, Bribery)."""

    kind: Literal["search_onto_battlefield"] = "search_onto_battlefield"
    target: TargetRef = 0
    card_type: str = "Creature"


class DoubleLife(_Data):
    """Double the target player's life total: they gain life equal to it (CR 119.5;
    810.9a: in Two-Headed Giant the team's total is the player's)."""

    kind: Literal["double_life"] = "double_life"
    target: TargetRef = 0


class ShuffleIntoLibrary(_Data):
    """Shuffle this card into its owner's library (CR 701.24, Beacon of Immortality)."""

    kind: Literal["shuffle_into_library"] = "shuffle_into_library"


class LifeBecomesLowest(_Data):
    """Each player's life total becomes the lowest life total among all players
    (CR 119.5; 810.9d in Two-Headed Giant)."""

    kind: Literal["life_becomes_lowest"] = "life_becomes_lowest"


class WinGame(_Data):
    """The controller wins the game (CR 104.2b; 801.14 with limited range)."""

    kind: Literal["win_game"] = "win_game"


class LoseGame(_Data):
    """The controller loses the game (CR 104.3e)."""

    kind: Literal["lose_game"] = "lose_game"


class GainLifePerLifeLost(_Data):
    """Gain N life for each 1 life lost (Transcendence's trigger)."""

    kind: Literal["gain_life_per_life_lost"] = "gain_life_per_life_lost"
    per_point: int = 2


class BecomeCreature(_Data):
    """The permanent becomes a creature with these characteristics (layers 4, 6, 7b,
    CR 613.1d/f/g); permanent (Lurking Evil)."""

    kind: Literal["become_creature"] = "become_creature"
    power: int
    toughness: int
    subtypes: tuple[str, ...] = ()
    keywords: tuple[Keyword, ...] = ()


class CreateTokenForThatController(_Data):
    """"that creature's controller creates" a token (Genesis Chamber)."""

    kind: Literal["create_token_for_that_controller"] = "create_token_for_that_controller"
    token: TokenSpec


class CantLose(_Data):
    """Static: you can't lose the game (CR 104.3; 810.8a for a 2HG team)."""

    kind: Literal["cant_lose"] = "cant_lose"


class OpponentsCantWin(_Data):
    """Static: your opponents can't win the game (CR 104.2; 810.8a)."""

    kind: Literal["opponents_cant_win"] = "opponents_cant_win"


class NoLossForZeroLife(_Data):
    """Static: you don't lose the game for having 0 or less life (704.5a doesn't apply)."""

    kind: Literal["no_loss_for_zero_life"] = "no_loss_for_zero_life"


class CantAttackYouIfChosenColorWithoutFlying(_Data):
    """Static: creatures of the chosen color without flying can't attack you
    (Teferi's Moat; CR 508.1c restriction)."""

    kind: Literal["moat"] = "moat"


class ExileUntilNextEndStep(_Data):
    """Exile the target; return that card to the battlefield under its owner's control
    at the beginning of the next end step (a delayed trigger, CR 603.7; Astral Slide).
    800.4d: nothing returns for an owner who has left the game."""

    kind: Literal["exile_until_next_end_step"] = "exile_until_next_end_step"
    target: TargetRef = 0


class ChooseColorAsEnters(_Data):
    """"As ~ enters, choose a color" (CR 614.12: a replacement effect; the choice is made
    as the permanent enters)."""

    kind: Literal["choose_color_as_enters"] = "choose_color_as_enters"


# ---------------------------------------------------------------- poison (CR 122.1f, 810.10)


class GivePoison(_Data):
    """The player gets poison counters (CR 122.1f; 810.10: a Two-Headed Giant team's).
    `reminder` for the Oracle's "(A player with ten or more poison counters loses the
    game.)" (CR 207.2a)."""

    kind: Literal["give_poison"] = "give_poison"
    who: PlayerRef = "that_player"
    count: int = 1
    reminder: bool = False


class LoseAllPoison(_Data):
    """The target player loses all poison counters (Leeches; 810.10a-b in 2HG: the
    team's counters)."""

    kind: Literal["lose_all_poison"] = "lose_all_poison"
    target: TargetRef = 0


class EntersWithCounters(_Data):
    """"~ enters the battlefield with N [kind] counters on it." (CR 614.1c: a
    replacement effect; the counters are there as it enters)."""

    kind: Literal["enters_with_counters"] = "enters_with_counters"
    counter: str
    count: int


class RemoveCounterFromSelf(_Data):
    """Remove a [kind] counter from the source (CR 122.8 wording; Celestial
    Convergence)."""

    kind: Literal["remove_counter_from_self"] = "remove_counter_from_self"
    counter: str


class HighestLifeWinsIfNoCounters(_Data):
    """"If there are no [kind] counters on ~, the player with the highest life total wins
    the game. If two or more players are tied for highest life total, the game is a
    draw." (Celestial Convergence). Life totals are seen only within the controller's
    range (801.11); a win makes the opponents within the winner's range lose (801.14);
    a draw is one for the controller and every player within their range, who leave
    (801.15, 104.4e), and for everyone without limited range (104.4c)."""

    kind: Literal["highest_life_wins_if_no_counters"] = "highest_life_wins_if_no_counters"
    counter: str


class CantGetPoison(_Data):
    """Static: "You can't get poison counters." (Melira; 810.10c: nor can a player on
    your Two-Headed Giant team)."""

    kind: Literal["cant_get_poison"] = "cant_get_poison"


class NoMinusCountersOnYourCreatures(_Data):
    """Static: "Creatures you control can't have -1/-1 counters put on them." (Melira)."""

    kind: Literal["no_minus_counters_on_your_creatures"] = "no_minus_counters_on_your_creatures"


class OpponentsCreaturesLoseKeyword(_Data):
    """Static: "Creatures your opponents control lose [keyword]." (Melira: infect), layer
    6 (CR 613.1f). No card in the pool has infect, so today it removes nothing."""

    kind: Literal["opponents_creatures_lose_keyword"] = "opponents_creatures_lose_keyword"
    keyword: Literal["infect"] = "infect"


class RevealOpponentChooses(_Data):
    """Reveal the top `count` cards of your library; an opponent chooses one of them; put
    that card into your graveyard and the rest into your hand (Murmurs from Beyond). You
    choose which opponent, within range (801.5a); with none within range the closest
    opponent to your left makes the choice (801.5c); if the opponent leaves before
    choosing, you choose another opponent (800.4g)."""

    kind: Literal["reveal_opponent_chooses"] = "reveal_opponent_chooses"
    count: int = 3


class Proliferate(_Data):
    """Proliferate (CR 701.34): choose any number of permanents and/or players that have
    a counter, then give each another counter of each kind already there. A keyword
    action; with `reminder` its reminder text is printed and it ends its paragraph."""

    kind: Literal["proliferate"] = "proliferate"
    reminder: bool = True


# ---------------------------------------------------------------- life totals (CR 119)


class LifeCantChange(_Data):
    """Static: "Your life total can't change." - you can't gain or lose life, nor pay
    life other than 0 (CR 119.7, 119.8; 810.9g-h for a 2HG team)."""

    kind: Literal["life_cant_change"] = "life_cant_change"
    reminder: bool = False


class SetLifeTotal(_Data):
    """The target player's life total becomes `amount` (CR 119.5; 810.9c)."""

    kind: Literal["set_life_total"] = "set_life_total"
    target: TargetRef = 0
    amount: int


class ExchangeLifeTotals(_Data):
    """The chosen targets (two players) exchange life totals (CR 701.12c; 810.9e)."""

    kind: Literal["exchange_life_totals"] = "exchange_life_totals"
    target: TargetRef = 0


class RedistributeLifeTotals(_Data):
    """Redistribute any number of players' life totals (Reverse the Sands): the
    controller chooses players (within range, 801.5a) and gives each of them one of
    their life totals (CR 119.5: they gain or lose the difference; 810.9f: at most one
    member of each Two-Headed Giant team)."""

    kind: Literal["redistribute_life_totals"] = "redistribute_life_totals"
    reminder: bool = True


class RedirectNextDamage(_Data):
    """"The next X damage that would be dealt to [target] this turn is dealt to [another
    target] instead." A redirection effect (CR 614.9), a shield used up as damage is
    redirected; 801.13a: the part it would make a spell or ability deal outside that
    spell's or ability's controller's range of influence does nothing."""

    kind: Literal["redirect_next_damage"] = "redirect_next_damage"
    amount: Amount = "X"
    source_target: TargetRef = 0
    to_target: TargetRef = 1


class ChooseOpponentAsEnters(_Data):
    """"As ~ enters, choose an opponent." (CR 614.12: the choice is made as the permanent
    enters; a choice of a player, so one within range of influence, 801.5a.)"""

    kind: Literal["choose_opponent_as_enters"] = "choose_opponent_as_enters"


class PerCardInChosenPlayersHand(_Data):
    """Static: "~ gets -1/-1 for each card in the chosen player's hand." (Nyxathid), layer
    7c (CR 613.4c). Information about a specific player: their hand now, or as they left
    the game (800.4i)."""

    kind: Literal["per_card_in_chosen_hand"] = "per_card_in_chosen_hand"
    power: int
    toughness: int


class PutCounterOnEachCreature(_Data):
    """Put a [kind] counter on each creature you control, or that player controls (the
    player a mode names, Misfortune) (CR 122.6)."""

    kind: Literal["put_counter_on_each_creature"] = "put_counter_on_each_creature"
    counter: str
    whose: Literal["you", "that_player"] = "you"


class SacrificeUnlessPayLife(_Data):
    """"For each creature, its controller sacrifices it unless they pay X life." (Killing
    Wave): each player chooses which of their creatures to pay for (APNAP order, 101.4),
    then the payments (119.4; 810.9b: a Two-Headed Giant team's together) and the
    sacrifices (701.21a) happen at once."""

    kind: Literal["sacrifice_unless_pay_life"] = "sacrifice_unless_pay_life"
    amount: Amount = "X"


class ReturnWithCounter(_Data):
    """Persist's effect (CR 702.79a): return the card that died to the battlefield under
    its owner's control with a [kind] counter on it."""

    kind: Literal["return_with_counter"] = "return_with_counter"
    counter: str = "-1/-1"


class GainLife(_Data):
    """You gain life (CR 119.6)."""

    kind: Literal["gain_life"] = "gain_life"
    amount: Amount


class LoseLife(_Data):
    """A player loses life (CR 119.3). `attacking_player` is the player a trigger names
    as "attacking player" (805.10c: for a blocking creature, the controller of the
    creature it blocks)."""

    kind: Literal["lose_life"] = "lose_life"
    who: Literal["attacking_player"] = "attacking_player"
    amount: Amount


# ---------------------------------------------------------------- other statics and actions


class AllCreaturesHaveKeyword(_Data):
    """Static: all creatures have the keyword, layer 6 (CR 613.1f; Concordant
    Crossroads)."""

    kind: Literal["all_creatures_have_keyword"] = "all_creatures_have_keyword"
    keyword: Keyword


class AttackIfAble(_Data):
    """"Non-Wall creatures the active player controls attack this turn if able." A
    requirement on each such creature (CR 508.1d), fixed as the effect is applied; with
    several active players the controller chooses one of them (805.9)."""

    kind: Literal["attack_if_able"] = "attack_if_able"
    who: Literal["active_player"] = "active_player"
    non_wall: bool = True


class DestroyUnlessAttacked(_Data):
    """"At the beginning of the next end step, destroy each of those creatures that
    didn't attack this turn." A delayed triggered ability (CR 603.7) set up for the
    creatures the effect before it affected."""

    kind: Literal["destroy_unless_attacked"] = "destroy_unless_attacked"


class NoMoreThanOneCombatant(_Data):
    """Static: "No more than one creature can attack each combat." (a restriction on the
    whole declaration, CR 508.1c; 802.3a) or "... can block each combat." (509.1b;
    802.4b: judged per defending player)."""

    kind: Literal["no_more_than_one_combatant"] = "no_more_than_one_combatant"
    declaring: Literal["attack", "block"]


class Detain(_Data):
    """Detain the target (CR 701.35a): until your next turn it can't attack or block and
    its activated abilities can't be activated (800.4m if you leave the game). A keyword
    action; with `reminder` its reminder text is printed and it ends its paragraph."""

    kind: Literal["detain"] = "detain"
    target: TargetRef = 0
    reminder: bool = True


Effect = (
    DealDamage
    | Destroy
    | CounterTarget
    | ModifyPowerToughness
    | CantAttackOrBlock
    | AddMana
    | DrawCards
    | Discard
    | ReturnToHand
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
    | LoseLife
    | AllCreaturesHaveKeyword
    | Detain
    | AttackIfAble
    | DestroyUnlessAttacked
    | NoMoreThanOneCombatant
)

# ---------------------------------------------------------------- costs


class Cost(_Data):
    """An activation cost (CR 118, 602.1a): mana symbols and/or {T}."""

    mana: str = ""  # e.g. "{R}", "{1}"
    tap: bool = False
    pay_half_life: bool = False  # "Pay half your life, rounded up" (CR 119.4, 810.9a)


# ---------------------------------------------------------------- abilities (CR 113)


class KeywordAbility(_Data):
    """A keyword ability (CR 702).

    `reminder` records whether the card's Oracle text prints the keyword's reminder text
    (CR 207.2a: reminder text has no rules effect; whether it is printed varies from card
    to card, e.g. Shivan Dragon's "Flying (...)" but Air Elemental's bare "Flying").
    """

    kind: Literal["keyword"] = "keyword"
    keyword: Keyword
    reminder: bool = False


class Mode(_Data):
    """One mode of a modal spell (CR 700.2): its effects, in order."""

    effects: tuple[Effect, ...] = Field(min_length=1)


class SpellAbility(_Data):
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


class ActivatedAbility(_Data):
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
]


class TriggeredAbility(_Data):
    """A triggered ability (CR 603). `if_untapped` is an intervening-if clause checked
    when it triggers and on resolution (CR 603.4)."""

    kind: Literal["triggered"] = "triggered"
    event: TriggerEvent
    if_untapped: bool = False
    if_life_at_least: int | None = None  # Test of Endurance's "if you have 50 or more life"
    optional: bool = False  # "you may"
    targets: tuple[TargetSpec, ...] = ()
    effects: tuple[Effect, ...] = Field(min_length=1)


class StaticAbility(_Data):
    """A static ability (CR 604) whose effects apply while the source is on the
    battlefield, in layer order (CR 613)."""

    kind: Literal["static"] = "static"
    effects: tuple[Effect, ...] = Field(min_length=1)


class EnchantAbility(_Data):
    """Enchant [quality] (CR 702.5): targets as an Aura spell and restricts attachment."""

    kind: Literal["enchant"] = "enchant"
    what: Literal["creature"] = "creature"
    reminder: bool = False  # the Oracle prints reminder text (CR 207.2a)


class EquipAbility(_Data):
    """Equip [cost] (CR 702.6): attach to target creature you control, sorcery speed."""

    kind: Literal["equip"] = "equip"
    cost: Cost


Ability = (
    KeywordAbility
    | SpellAbility
    | ActivatedAbility
    | TriggeredAbility
    | StaticAbility
    | EnchantAbility
    | EquipAbility
)


class CardDefinition(_Data):
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
    oracle: str = ""
    abilities: tuple[Ability, ...] = ()
