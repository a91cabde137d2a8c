"""Effects about poison (CR 122.1f, 810.10), counters, life totals (CR 119) and the
other statics and actions of the pool."""

from __future__ import annotations

from typing import Literal

from arbiter_core.cards.model.base import (
    Amount,
    DataModel,
    Keyword,
    TargetRef,
)
from arbiter_core.cards.model.effects import PlayerRef

# ---------------------------------------------------------------- poison (CR 122.1f, 810.10)


class GivePoison(DataModel):
    """The player gets poison counters (CR 122.1f; 810.10: a Two-Headed Giant team's).
    `reminder` for the Oracle's "(A player with ten or more poison counters loses the
    game.)" (CR 207.2a)."""

    kind: Literal["give_poison"] = "give_poison"
    who: PlayerRef = "that_player"
    count: int = 1
    reminder: bool = False


class LoseAllPoison(DataModel):
    """The target player loses all poison counters (Leeches; 810.10a-b in 2HG: the
    team's counters)."""

    kind: Literal["lose_all_poison"] = "lose_all_poison"
    target: TargetRef = 0


class EntersWithCounters(DataModel):
    """"~ enters the battlefield with N [kind] counters on it." (CR 614.1c: a
    replacement effect; the counters are there as it enters)."""

    kind: Literal["enters_with_counters"] = "enters_with_counters"
    counter: str
    count: int


class RemoveCounterFromSelf(DataModel):
    """Remove a [kind] counter from the source (CR 122.8 wording; Celestial
    Convergence)."""

    kind: Literal["remove_counter_from_self"] = "remove_counter_from_self"
    counter: str


class HighestLifeWinsIfNoCounters(DataModel):
    """"If there are no [kind] counters on ~, the player with the highest life total wins
    the game. If two or more players are tied for highest life total, the game is a
    draw." (Celestial Convergence). Life totals are seen only within the controller's
    range (801.11); a win makes the opponents within the winner's range lose (801.14);
    a draw is one for the controller and every player within their range, who leave
    (801.15, 104.4e), and for everyone without limited range (104.4c)."""

    kind: Literal["highest_life_wins_if_no_counters"] = "highest_life_wins_if_no_counters"
    counter: str


class CantGetPoison(DataModel):
    """Static: "You can't get poison counters." (Melira; 810.10c: nor can a player on
    your Two-Headed Giant team)."""

    kind: Literal["cant_get_poison"] = "cant_get_poison"


class NoMinusCountersOnYourCreatures(DataModel):
    """Static: "Creatures you control can't have -1/-1 counters put on them." (Melira)."""

    kind: Literal["no_minus_counters_on_your_creatures"] = "no_minus_counters_on_your_creatures"


class OpponentsCreaturesLoseKeyword(DataModel):
    """Static: "Creatures your opponents control lose [keyword]." (Melira: infect), layer
    6 (CR 613.1f). No card in the pool has infect, so today it removes nothing."""

    kind: Literal["opponents_creatures_lose_keyword"] = "opponents_creatures_lose_keyword"
    keyword: Literal["infect"] = "infect"


class RevealOpponentChooses(DataModel):
    """Reveal the top `count` cards of your library; an opponent chooses one of them; put
    that card into your graveyard and the rest into your hand (Murmurs from Beyond). You
    choose which opponent, within range (801.5a); with none within range the closest
    opponent to your left makes the choice (801.5c); if the opponent leaves before
    choosing, you choose another opponent (800.4g)."""

    kind: Literal["reveal_opponent_chooses"] = "reveal_opponent_chooses"
    count: int = 3


class Proliferate(DataModel):
    """Proliferate (CR 701.34): choose any number of permanents and/or players that have
    a counter, then give each another counter of each kind already there. A keyword
    action; with `reminder` its reminder text is printed and it ends its paragraph."""

    kind: Literal["proliferate"] = "proliferate"
    reminder: bool = True


# ---------------------------------------------------------------- life totals (CR 119)


class LifeCantChange(DataModel):
    """Static: "Your life total can't change." - you can't gain or lose life, nor pay
    life other than 0 (CR 119.7, 119.8; 810.9g-h for a 2HG team)."""

    kind: Literal["life_cant_change"] = "life_cant_change"
    reminder: bool = False


class SetLifeTotal(DataModel):
    """The target player's life total becomes `amount` (CR 119.5; 810.9c)."""

    kind: Literal["set_life_total"] = "set_life_total"
    target: TargetRef = 0
    amount: int


class ExchangeLifeTotals(DataModel):
    """The chosen targets (two players) exchange life totals (CR 701.12c; 810.9e)."""

    kind: Literal["exchange_life_totals"] = "exchange_life_totals"
    target: TargetRef = 0


class RedistributeLifeTotals(DataModel):
    """Redistribute any number of players' life totals (Reverse the Sands): the
    controller chooses players (within range, 801.5a) and gives each of them one of
    their life totals (CR 119.5: they gain or lose the difference; 810.9f: at most one
    member of each Two-Headed Giant team)."""

    kind: Literal["redistribute_life_totals"] = "redistribute_life_totals"
    reminder: bool = True


class RedirectNextDamage(DataModel):
    """"The next X damage that would be dealt to [target] this turn is dealt to [another
    target] instead." A redirection effect (CR 614.9), a shield used up as damage is
    redirected; 801.13a: the part it would make a spell or ability deal outside that
    spell's or ability's controller's range of influence does nothing."""

    kind: Literal["redirect_next_damage"] = "redirect_next_damage"
    amount: Amount = "X"
    source_target: TargetRef = 0
    to_target: TargetRef = 1


class ChooseOpponentAsEnters(DataModel):
    """"As ~ enters, choose an opponent." (CR 614.12: the choice is made as the permanent
    enters; a choice of a player, so one within range of influence, 801.5a.)"""

    kind: Literal["choose_opponent_as_enters"] = "choose_opponent_as_enters"


class PerCardInChosenPlayersHand(DataModel):
    """Static: "~ gets -1/-1 for each card in the chosen player's hand." (Nyxathid), layer
    7c (CR 613.4c). Information about a specific player: their hand now, or as they left
    the game (800.4i)."""

    kind: Literal["per_card_in_chosen_hand"] = "per_card_in_chosen_hand"
    power: int
    toughness: int


class PutCounterOnEachCreature(DataModel):
    """Put a [kind] counter on each creature you control, or that player controls (the
    player a mode names, Misfortune) (CR 122.6)."""

    kind: Literal["put_counter_on_each_creature"] = "put_counter_on_each_creature"
    counter: str
    whose: Literal["you", "that_player"] = "you"


class SacrificeUnlessPayLife(DataModel):
    """"For each creature, its controller sacrifices it unless they pay X life." (Killing
    Wave): each player chooses which of their creatures to pay for (APNAP order, 101.4),
    then the payments (119.4; 810.9b: a Two-Headed Giant team's together) and the
    sacrifices (701.21a) happen at once."""

    kind: Literal["sacrifice_unless_pay_life"] = "sacrifice_unless_pay_life"
    amount: Amount = "X"


class ReturnWithCounter(DataModel):
    """Persist's effect (CR 702.79a): return the card that died to the battlefield under
    its owner's control with a [kind] counter on it."""

    kind: Literal["return_with_counter"] = "return_with_counter"
    counter: str = "-1/-1"


class GainLife(DataModel):
    """You gain life (CR 119.6)."""

    kind: Literal["gain_life"] = "gain_life"
    amount: Amount


class LoseLife(DataModel):
    """A player loses life (CR 119.3). `attacking_player` is the player a trigger names
    as "attacking player" (805.10c: for a blocking creature, the controller of the
    creature it blocks)."""

    kind: Literal["lose_life"] = "lose_life"
    who: Literal["attacking_player"] = "attacking_player"
    amount: Amount


# ---------------------------------------------------------------- other statics and actions


class BeginOnBattlefield(DataModel):
    """"If ~ is in your opening hand, you may begin the game with it on the
    battlefield." An opening-hand action (CR 103.6a; Leyline of Sanctity)."""

    kind: Literal["begin_on_battlefield"] = "begin_on_battlefield"


class RevealForFirstUpkeepDrain(DataModel):
    """"You may reveal this card from your opening hand. If you do, at the beginning of
    the first upkeep, each opponent loses N life, then you gain life equal to the life
    lost this way." An opening-hand action (CR 103.6b; Chancellor of the Dross)."""

    kind: Literal["reveal_first_upkeep_drain"] = "reveal_first_upkeep_drain"
    amount: int = 3


class YouHaveHexproof(DataModel):
    """Static: "You have hexproof." - you can't be the target of spells or abilities
    your opponents control (CR 702.11d; Leyline of Sanctity)."""

    kind: Literal["you_have_hexproof"] = "you_have_hexproof"
    reminder: bool = False


class AllCreaturesHaveKeyword(DataModel):
    """Static: all creatures have the keyword, layer 6 (CR 613.1f; Concordant
    Crossroads)."""

    kind: Literal["all_creatures_have_keyword"] = "all_creatures_have_keyword"
    keyword: Keyword


class AttackIfAble(DataModel):
    """"Non-Wall creatures the active player controls attack this turn if able." A
    requirement on each such creature (CR 508.1d), fixed as the effect is applied; with
    several active players the controller chooses one of them (805.9)."""

    kind: Literal["attack_if_able"] = "attack_if_able"
    who: Literal["active_player"] = "active_player"
    non_wall: bool = True


class DestroyUnlessAttacked(DataModel):
    """"At the beginning of the next end step, destroy each of those creatures that
    didn't attack this turn." A delayed triggered ability (CR 603.7) set up for the
    creatures the effect before it affected."""

    kind: Literal["destroy_unless_attacked"] = "destroy_unless_attacked"


class NoMoreThanOneCombatant(DataModel):
    """Static: "No more than one creature can attack each combat." (a restriction on the
    whole declaration, CR 508.1c; 802.3a) or "... can block each combat." (509.1b;
    802.4b: judged per defending player)."""

    kind: Literal["no_more_than_one_combatant"] = "no_more_than_one_combatant"
    declaring: Literal["attack", "block"]


class Detain(DataModel):
    """Detain the target (CR 701.35a): until your next turn it can't attack or block and
    its activated abilities can't be activated (800.4m if you leave the game). A keyword
    action; with `reminder` its reminder text is printed and it ends its paragraph."""

    kind: Literal["detain"] = "detain"
    target: TargetRef = 0
    reminder: bool = True
