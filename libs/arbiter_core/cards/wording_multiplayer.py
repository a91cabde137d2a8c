"""The Oracle wording of the multiplayer pool's effects: poison (122.1f), life totals
(119), static grants, detain (701.35), attack requirements (508.1c-d), chosen players
(614.12, 800.4i), life paid at once (119.4) and persist (702.79a)."""

from __future__ import annotations

from arbiter_core.cards.model import (
    AllCreaturesHaveKeyword,
    AttackIfAble,
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
    RevealOpponentChooses,
    SacrificeUnlessPayLife,
    SetLifeTotal,
)
from arbiter_core.cards.model.base import KEYWORD_NAMES
from arbiter_core.cards.render_effects import with_reminder, wording
from arbiter_core.cards.render_words import (
    Context,
    amount_text,
    count_noun,
    indefinite_article,
    player_verb,
)


@wording(GivePoison)
def _give_poison(effect: GivePoison, ctx: Context) -> str:
    counters = count_noun(effect.count, "poison counter", "poison counters")
    return with_reminder(f"{player_verb(effect.who, 'get')} {counters}.", effect)


@wording(EntersWithCounters)
def _enters_with_counters(effect: EntersWithCounters, ctx: Context) -> str:
    counters = count_noun(effect.count, f"{effect.counter} counter",
                           f"{effect.counter} counters")
    return f"{ctx.name} enters the battlefield with {counters} on it."


@wording(RemoveCounterFromSelf)
def _remove_counter_from_self(effect: RemoveCounterFromSelf, ctx: Context) -> str:
    article = indefinite_article(effect.counter)
    return f"remove {article} {effect.counter} counter from {ctx.name}."


@wording(HighestLifeWinsIfNoCounters)
def _highest_life_wins_if_no_counters(effect: HighestLifeWinsIfNoCounters, ctx: Context) -> str:
    return (f"if there are no {effect.counter} counters on {ctx.name}, the player with "
            "the highest life total wins the game. If two or more players are tied for "
            "highest life total, the game is a draw.")


@wording(CantGetPoison)
def _cant_get_poison(effect: CantGetPoison, ctx: Context) -> str:
    return "you can't get poison counters."


@wording(NoMinusCountersOnYourCreatures)
def _no_minus_counters_on_your_creatures(effect: NoMinusCountersOnYourCreatures,
                                         ctx: Context) -> str:
    return "creatures you control can't have -1/-1 counters put on them."


@wording(OpponentsCreaturesLoseKeyword)
def _opponents_creatures_lose_keyword(effect: OpponentsCreaturesLoseKeyword, ctx: Context) -> str:
    return f"creatures your opponents control lose {effect.keyword}."


@wording(RevealOpponentChooses)
def _reveal_opponent_chooses(effect: RevealOpponentChooses, ctx: Context) -> str:
    cards = count_noun(effect.count, "card", "cards")
    top = "the top card" if effect.count == 1 else f"the top {cards}"
    return (f"reveal {top} of your library. An opponent chooses one of them. Put that "
            "card into your graveyard and the rest into your hand.")


@wording(LoseAllPoison)
def _lose_all_poison(effect: LoseAllPoison, ctx: Context) -> str:
    return f"{ctx.ref(effect.target)} loses all poison counters."


@wording(Proliferate)
def _proliferate(effect: Proliferate, ctx: Context) -> str:
    return with_reminder("proliferate.", effect)


@wording(LifeCantChange)
def _life_cant_change(effect: LifeCantChange, ctx: Context) -> str:
    return with_reminder("your life total can't change.", effect)


@wording(SetLifeTotal)
def _set_life_total(effect: SetLifeTotal, ctx: Context) -> str:
    return f"{ctx.ref(effect.target)}'s life total becomes {effect.amount}."


@wording(ExchangeLifeTotals)
def _exchange_life_totals(effect: ExchangeLifeTotals, ctx: Context) -> str:
    return f"{ctx.ref(effect.target)} exchange life totals."


@wording(RedirectNextDamage)
def _redirect_next_damage(effect: RedirectNextDamage, ctx: Context) -> str:
    return (f"the next {amount_text(effect.amount)} damage that would be dealt to "
            f"{ctx.target(effect.source_target)} this turn is dealt to "
            f"{ctx.target(effect.to_target)} instead.")


@wording(RedistributeLifeTotals)
def _redistribute_life_totals(effect: RedistributeLifeTotals, ctx: Context) -> str:
    return with_reminder("redistribute any number of players' life totals.", effect)


@wording(GainLife)
def _gain_life(effect: GainLife, ctx: Context) -> str:
    return f"you gain {amount_text(effect.amount)} life."


@wording(LoseLife)
def _lose_life(effect: LoseLife, ctx: Context) -> str:
    return f"attacking player loses {amount_text(effect.amount)} life."


@wording(AllCreaturesHaveKeyword)
def _all_creatures_have_keyword(effect: AllCreaturesHaveKeyword, ctx: Context) -> str:
    return f"all creatures have {KEYWORD_NAMES[effect.keyword]}."


@wording(Detain)
def _detain(effect: Detain, ctx: Context) -> str:
    return with_reminder(f"detain {ctx.ref(effect.target)}.", effect)


@wording(AttackIfAble)
def _attack_if_able(effect: AttackIfAble, ctx: Context) -> str:
    non_wall = "non-Wall " if effect.non_wall else ""
    return f"{non_wall}creatures the active player controls attack this turn if able."


@wording(DestroyUnlessAttacked)
def _destroy_unless_attacked(effect: DestroyUnlessAttacked, ctx: Context) -> str:
    return ("at the beginning of the next end step, destroy each of those creatures "
            "that didn't attack this turn.")


@wording(NoMoreThanOneCombatant)
def _no_more_than_one_combatant(effect: NoMoreThanOneCombatant, ctx: Context) -> str:
    return f"no more than one creature can {effect.declaring} each combat."


@wording(ChooseOpponentAsEnters)
def _choose_opponent_as_enters(effect: ChooseOpponentAsEnters, ctx: Context) -> str:
    return f"as {ctx.name} enters the battlefield, choose an opponent."  # CR 614.12


@wording(PerCardInChosenPlayersHand)
def _per_card_in_chosen_players_hand(effect: PerCardInChosenPlayersHand, ctx: Context) -> str:
    change = f"{effect.power:+d}/{effect.toughness:+d}"
    return f"{ctx.name} gets {change} for each card in the chosen player's hand."


@wording(PutCounterOnEachCreature)
def _put_counter_on_each_creature(effect: PutCounterOnEachCreature, ctx: Context) -> str:
    whose = "you control" if effect.whose == "you" else "that player controls"
    return f"put a {effect.counter} counter on each creature {whose}."


@wording(SacrificeUnlessPayLife)
def _sacrifice_unless_pay_life(effect: SacrificeUnlessPayLife, ctx: Context) -> str:
    amount = effect.amount if isinstance(effect.amount, int) else "X"
    return (f"for each creature, its controller sacrifices it unless they pay {amount} "
            "life.")


@wording(ReturnWithCounter)
def _return_with_counter(effect: ReturnWithCounter, ctx: Context) -> str:
    return ("return it to the battlefield under its owner's control with a "
            f"{effect.counter} counter on it.")
