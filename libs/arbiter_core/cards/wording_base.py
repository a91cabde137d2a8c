"""The Oracle wording of the effects of the starter pool's cards (CR 608.2c order):
damage, destruction, counters, cards, tokens, control, life totals and the game's
result, as `render_effects` registers them (one function per effect model)."""

from __future__ import annotations

from arbiter_core.cards.model import (
    AddMana,
    Attach,
    BecomeCreature,
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
    DrawCards,
    EnterAsCopy,
    ExileUntilNextEndStep,
    ExtraTurn,
    GainControl,
    GainKeyword,
    GainLifePerLifeLost,
    LifeBecomesLowest,
    LoseGame,
    Mill,
    ModifyPowerToughness,
    NoLossForZeroLife,
    OpponentsCantWin,
    PreventCombatDamage,
    PutOnTopOfLibrary,
    ReturnToHand,
    SearchOntoBattlefield,
    ShuffleIntoLibrary,
    Untap,
    WinGame,
)
from arbiter_core.cards.model.base import GRANTED_REMINDERS, KEYWORD_NAMES
from arbiter_core.cards.render_effects import wording
from arbiter_core.cards.render_words import (
    PT_SUBJECTS,
    Context,
    amount_text,
    and_list,
    count_noun,
    indefinite_article,
    mana_symbols,
    player_verb,
    token_text,
    where_x,
)


@wording(DealDamage)
def _deal_damage(effect: DealDamage, ctx: Context) -> str:
    amount = amount_text(effect.amount)
    if effect.to == "each_player":
        receivers = "to each player"
    elif effect.to == "that_player":
        receivers = "to that player"
    elif effect.to == "that_creature":
        receivers = "to it"
    elif effect.divided:
        receivers = f"divided evenly, rounded down, among {ctx.target(effect.to)}"
    else:
        receivers = f"to {ctx.ref(effect.to)}"
    return f"{ctx.name} deals {amount} damage {receivers}{where_x(effect.amount)}."


@wording(Destroy)
def _destroy(effect: Destroy, ctx: Context) -> str:
    if effect.what == "all_creatures":
        text = "destroy all creatures."
        rider = " They can't be regenerated."
    else:
        text = f"destroy {ctx.target(effect.what)}."
        rider = " It can't be regenerated."
    return text + (rider if effect.no_regenerate else "")


@wording(CounterTarget)
def _counter_target(effect: CounterTarget, ctx: Context) -> str:
    text = f"counter {ctx.target(effect.what)}."
    if effect.to_library_top:
        text += (" If that spell is countered this way, put it on top of its owner's "
                 "library instead of into that player's graveyard.")
    return text


@wording(ModifyPowerToughness)
def _modify_power_toughness(effect: ModifyPowerToughness, ctx: Context) -> str:
    change = f"{effect.power:+d}/{effect.toughness:+d}"
    if effect.subject == "target":
        subject = ctx.target(effect.target)
    elif effect.subject == "self":
        subject = ctx.name
    else:
        subject = PT_SUBJECTS[effect.subject]
    verb = "get" if effect.subject == "creatures_you_control" else "gets"
    duration = " until end of turn" if effect.until_end_of_turn else ""
    return f"{subject} {verb} {change}{duration}."


@wording(CantAttackOrBlock)
def _cant_attack_or_block(effect: CantAttackOrBlock, ctx: Context) -> str:
    return "enchanted creature can't attack or block."


@wording(AddMana)
def _add_mana(effect: AddMana, ctx: Context) -> str:
    return f"add {mana_symbols(effect.mana)}."


@wording(DrawCards)
def _draw_cards(effect: DrawCards, ctx: Context) -> str:
    singular, plural = "card", "cards"
    if ctx.additional_draw:
        singular, plural = "additional card", "additional cards"
    article = "an" if singular[0] in "aeiou" else "a"
    cards = count_noun(effect.count, singular, plural, article=article)
    unless = effect.unless_that_player_pays
    unless_text = f" unless that player pays {unless}" if unless else ""  # 118.12a
    return f"{player_verb(effect.who, 'draw')} {cards}{unless_text}."


@wording(Mill)
def _mill(effect: Mill, ctx: Context) -> str:
    # CR 701.17a
    return f"{player_verb(effect.who, 'mill')} {count_noun(effect.count, 'card', 'cards')}."


@wording(Discard)
def _discard(effect: Discard, ctx: Context) -> str:
    cards = count_noun(effect.count, "card", "cards")
    random = " at random" if effect.at_random else ""
    return f"{player_verb(effect.who, 'discard')} {cards}{random}."


@wording(ReturnToHand)
def _return_to_hand(effect: ReturnToHand, ctx: Context) -> str:
    if effect.what == "all_creatures":
        return "return all creatures to their owners' hands."
    spec = ctx.targets[effect.what] if effect.what < len(ctx.targets) else None
    # A card in your graveyard is one you own (CR 400.3): it goes to your hand.
    in_your_graveyard = spec is not None and spec.kind in (
        "creature_card_in_your_graveyard", "goblin_card_in_your_graveyard")
    hand = "your hand" if in_your_graveyard else "its owner's hand"
    return f"return {ctx.target(effect.what)} to {hand}."


@wording(PutOnTopOfLibrary)
def _put_on_top_of_library(effect: PutOnTopOfLibrary, ctx: Context) -> str:
    return f"put {ctx.target(effect.what)} on top of its owner's library."


@wording(CreateTokens)
def _create_tokens(effect: CreateTokens, ctx: Context) -> str:
    text = f"create {token_text(effect.token, effect.count)}{where_x(effect.count)}"
    return text if text.endswith('."') else f"{text}."  # a quoted ability ends it


@wording(PreventCombatDamage)
def _prevent_combat_damage(effect: PreventCombatDamage, ctx: Context) -> str:
    return "prevent all combat damage that would be dealt this turn."


@wording(ExtraTurn)
def _extra_turn(effect: ExtraTurn, ctx: Context) -> str:
    return "take an extra turn after this one."


@wording(Attach)
def _attach(effect: Attach, ctx: Context) -> str:
    return f"attach {ctx.name} to {ctx.target(effect.target)}."


@wording(GainControl)
def _gain_control(effect: GainControl, ctx: Context) -> str:
    if effect.subject == "enchanted":
        return "you control enchanted creature."
    if effect.tap_when_lost:
        # A delayed triggered ability (CR 603.7), written after the other effects.
        noun = ctx.noun(effect.target)
        ctx.afterwords.append(f"When you lose control of the {noun}, tap it.")
    duration = " until end of turn" if effect.until_end_of_turn else ""
    return f"gain control of {ctx.ref(effect.target)}{duration}."


@wording(Untap)
def _untap(effect: Untap, ctx: Context) -> str:
    return f"untap {ctx.ref(effect.target)}."


@wording(GainKeyword)
def _gain_keyword(effect: GainKeyword, ctx: Context) -> str:
    duration = " until end of turn" if effect.until_end_of_turn else ""
    text = f"{ctx.ref(effect.target)} gains {KEYWORD_NAMES[effect.keyword]}{duration}."
    if effect.reminder and effect.keyword in GRANTED_REMINDERS:
        text += f" ({GRANTED_REMINDERS[effect.keyword]})"
    return text


@wording(SearchOntoBattlefield)
def _search_onto_battlefield(effect: SearchOntoBattlefield, ctx: Context) -> str:
    player = ctx.ref(effect.target)
    card_type = effect.card_type.lower()
    return (
        f"search {player}'s library for {indefinite_article(card_type)} {card_type} card "
        "and put that card onto the battlefield under your control. "
        f"Then that {ctx.noun(effect.target)} shuffles."
    )


@wording(DoubleLife)
def _double_life(effect: DoubleLife, ctx: Context) -> str:
    return f"double {ctx.ref(effect.target)}'s life total."


@wording(ShuffleIntoLibrary)
def _shuffle_into_library(effect: ShuffleIntoLibrary, ctx: Context) -> str:
    return f"shuffle {ctx.name} into its owner's library."


@wording(LifeBecomesLowest)
def _life_becomes_lowest(effect: LifeBecomesLowest, ctx: Context) -> str:
    return "each player's life total becomes the lowest life total among all players."


@wording(WinGame)
def _win_game(effect: WinGame, ctx: Context) -> str:
    return "you win the game."


@wording(LoseGame)
def _lose_game(effect: LoseGame, ctx: Context) -> str:
    return "you lose the game."


@wording(GainLifePerLifeLost)
def _gain_life_per_life_lost(effect: GainLifePerLifeLost, ctx: Context) -> str:
    return f"you gain {effect.per_point} life for each 1 life you lost."


@wording(BecomeCreature)
def _become_creature(effect: BecomeCreature, ctx: Context) -> str:
    body = " ".join((f"{effect.power}/{effect.toughness}", *effect.subtypes, "creature"))
    keywords = [KEYWORD_NAMES[k] for k in effect.keywords]
    with_keywords = f" with {and_list(keywords)}" if keywords else ""
    return f"{ctx.name} becomes {indefinite_article(body)} {body}{with_keywords}."


@wording(CreateTokenForThatController)
def _create_token_for_that_controller(effect: CreateTokenForThatController, ctx: Context) -> str:
    return f"that creature's controller creates {token_text(effect.token, 1)}."


@wording(CantLose)
def _cant_lose(effect: CantLose, ctx: Context) -> str:
    return "you can't lose the game."


@wording(OpponentsCantWin)
def _opponents_cant_win(effect: OpponentsCantWin, ctx: Context) -> str:
    return "your opponents can't win the game."


@wording(NoLossForZeroLife)
def _no_loss_for_zero_life(effect: NoLossForZeroLife, ctx: Context) -> str:
    return "you don't lose the game for having 0 or less life."  # not CR 704.5a


@wording(CantAttackYouIfChosenColorWithoutFlying)
def _cant_attack_you_if_chosen_color_without_flying(effect: CantAttackYouIfChosenColorWithoutFlying,
                                                    ctx: Context) -> str:
    return "creatures of the chosen color without flying can't attack you."


@wording(EnterAsCopy)
def _enter_as_copy(effect: EnterAsCopy, ctx: Context) -> str:
    # CR 707.5, 614.1c
    if effect.of == "creature_card_in_a_graveyard":
        return (f"you may have {ctx.name} enter the battlefield as a copy of any "
                "creature card in a graveyard.")
    return (f"you may have {ctx.name} enter the battlefield as a copy of any creature "
            "on the battlefield.")


@wording(ChooseColorAsEnters)
def _choose_color_as_enters(effect: ChooseColorAsEnters, ctx: Context) -> str:
    return f"as {ctx.name} enters the battlefield, choose a color."  # CR 614.12


@wording(ExileUntilNextEndStep)
def _exile_until_next_end_step(effect: ExileUntilNextEndStep, ctx: Context) -> str:
    exiled = f"exile {ctx.ref(effect.target)}."
    # After "you may", the return depends on the exile having happened (CR 603.5).
    then = "If you do, return" if ctx.optional else "Return"
    return (
        f"{exiled} {then} that card to the battlefield under its owner's control "
        "at the beginning of the next end step."
    )
