"""Effects as Oracle-style sentences (CR 608.2c order), the multiplayer effects' wording,
and how consecutive effects share a sentence or a paragraph."""

from __future__ import annotations

from collections.abc import Sequence

from arbiter_core.cards import render_choices
from arbiter_core.cards.model import (
    AddMana,
    AllCreaturesHaveKeyword,
    Attach,
    AttackIfAble,
    BecomeCreature,
    CantAttackOrBlock,
    CantAttackYouIfChosenColorWithoutFlying,
    CantGetPoison,
    CantLose,
    CardDefinition,
    ChooseColorAsEnters,
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
    EnterAsCopy,
    EntersWithCounters,
    ExchangeLifeTotals,
    ExileUntilNextEndStep,
    ExtraTurn,
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
    Mill,
    ModifyPowerToughness,
    NoLossForZeroLife,
    NoMinusCountersOnYourCreatures,
    NoMoreThanOneCombatant,
    OpponentsCantWin,
    OpponentsCreaturesLoseKeyword,
    PreventCombatDamage,
    Proliferate,
    RedirectNextDamage,
    RedistributeLifeTotals,
    RemoveCounterFromSelf,
    ReturnToHand,
    RevealOpponentChooses,
    SearchOntoBattlefield,
    SetLifeTotal,
    ShuffleIntoLibrary,
    TargetSpec,
    Untap,
    WinGame,
)
from arbiter_core.cards.render_words import (
    EFFECT_REMINDERS,
    GRANTED_REMINDERS,
    KEYWORD_NAMES,
    PT_SUBJECTS,
    Context,
    amount_text,
    and_list,
    capitalise,
    count_noun,
    indefinite_article,
    mana_symbols,
    player_verb,
    token_text,
    where_x,
)


def effect_sentence(effect: Effect, ctx: Context) -> str:
    """One effect as a sentence (ending in "."), starting lowercase unless with a name."""
    if isinstance(effect, DealDamage):
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
    if isinstance(effect, Destroy):
        if effect.what == "all_creatures":
            text = "destroy all creatures."
            rider = " They can't be regenerated."
        else:
            text = f"destroy {ctx.target(effect.what)}."
            rider = " It can't be regenerated."
        return text + (rider if effect.no_regenerate else "")
    if isinstance(effect, CounterTarget):
        return f"counter {ctx.target(effect.what)}."
    if isinstance(effect, ModifyPowerToughness):
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
    if isinstance(effect, CantAttackOrBlock):
        return "enchanted creature can't attack or block."
    if isinstance(effect, AddMana):
        return f"add {mana_symbols(effect.mana)}."
    if isinstance(effect, DrawCards):
        singular, plural = "card", "cards"
        if ctx.additional_draw:
            singular, plural = "additional card", "additional cards"
        article = "an" if singular[0] in "aeiou" else "a"
        cards = count_noun(effect.count, singular, plural, article=article)
        unless = effect.unless_that_player_pays
        unless_text = f" unless that player pays {unless}" if unless else ""  # 118.12a
        return f"{player_verb(effect.who, 'draw')} {cards}{unless_text}."
    if isinstance(effect, Mill):  # CR 701.17a
        return f"{player_verb(effect.who, 'mill')} {count_noun(effect.count, 'card', 'cards')}."
    if isinstance(effect, Discard):
        cards = count_noun(effect.count, "card", "cards")
        random = " at random" if effect.at_random else ""
        return f"{player_verb(effect.who, 'discard')} {cards}{random}."
    if isinstance(effect, ReturnToHand):
        spec = ctx.targets[effect.what] if effect.what < len(ctx.targets) else None
        # A card in your graveyard is one you own (CR 400.3): it goes to your hand.
        in_your_graveyard = spec is not None and spec.kind == "creature_card_in_your_graveyard"
        hand = "your hand" if in_your_graveyard else "its owner's hand"
        return f"return {ctx.target(effect.what)} to {hand}."
    if isinstance(effect, CreateTokens):
        return f"create {token_text(effect.token, effect.count)}{where_x(effect.count)}."
    if isinstance(effect, PreventCombatDamage):
        return "prevent all combat damage that would be dealt this turn."
    if isinstance(effect, ExtraTurn):
        return "take an extra turn after this one."
    if isinstance(effect, Attach):
        return f"attach {ctx.name} to {ctx.target(effect.target)}."
    return multiplayer_effect(effect, ctx)


def multiplayer_effect(effect: Effect, ctx: Context) -> str:
    """Wording for the control, life-total and game-result effects (CR 613.1b, 119, 104)."""
    if isinstance(effect, GainControl):
        if effect.subject == "enchanted":
            return "you control enchanted creature."
        if effect.tap_when_lost:
            # A delayed triggered ability (CR 603.7), written after the other effects.
            noun = ctx.noun(effect.target)
            ctx.afterwords.append(f"When you lose control of the {noun}, tap it.")
        duration = " until end of turn" if effect.until_end_of_turn else ""
        return f"gain control of {ctx.ref(effect.target)}{duration}."
    if isinstance(effect, Untap):
        return f"untap {ctx.ref(effect.target)}."
    if isinstance(effect, GainKeyword):
        duration = " until end of turn" if effect.until_end_of_turn else ""
        text = f"{ctx.ref(effect.target)} gains {KEYWORD_NAMES[effect.keyword]}{duration}."
        if effect.reminder and effect.keyword in GRANTED_REMINDERS:
            text += f" ({GRANTED_REMINDERS[effect.keyword]})"
        return text
    if isinstance(effect, SearchOntoBattlefield):
        player = ctx.ref(effect.target)
        card_type = effect.card_type.lower()
        return (
            f"search {player}'s library for {indefinite_article(card_type)} {card_type} card "
            "and put that card onto the battlefield under your control. "
            f"Then that {ctx.noun(effect.target)} shuffles."
        )
    if isinstance(effect, DoubleLife):
        return f"double {ctx.ref(effect.target)}'s life total."
    if isinstance(effect, ShuffleIntoLibrary):
        return f"shuffle {ctx.name} into its owner's library."
    if isinstance(effect, LifeBecomesLowest):
        return "each player's life total becomes the lowest life total among all players."
    if isinstance(effect, WinGame):
        return "you win the game."
    if isinstance(effect, LoseGame):
        return "you lose the game."
    if isinstance(effect, GainLifePerLifeLost):
        return f"you gain {effect.per_point} life for each 1 life you lost."
    if isinstance(effect, BecomeCreature):
        body = " ".join((f"{effect.power}/{effect.toughness}", *effect.subtypes, "creature"))
        keywords = [KEYWORD_NAMES[k] for k in effect.keywords]
        with_keywords = f" with {and_list(keywords)}" if keywords else ""
        return f"{ctx.name} becomes {indefinite_article(body)} {body}{with_keywords}."
    if isinstance(effect, CreateTokenForThatController):
        return f"that creature's controller creates {token_text(effect.token, 1)}."
    if isinstance(effect, CantLose):
        return "you can't lose the game."
    if isinstance(effect, OpponentsCantWin):
        return "your opponents can't win the game."
    if isinstance(effect, NoLossForZeroLife):
        return "you don't lose the game for having 0 or less life."  # not CR 704.5a
    if isinstance(effect, CantAttackYouIfChosenColorWithoutFlying):
        return "creatures of the chosen color without flying can't attack you."
    if isinstance(effect, EnterAsCopy):  # CR 707.5, 614.1c
        return (f"you may have {ctx.name} enter the battlefield as a copy of any creature "
                "on the battlefield.")
    if isinstance(effect, ChooseColorAsEnters):
        return f"as {ctx.name} enters the battlefield, choose a color."  # CR 614.12
    if isinstance(effect, ExileUntilNextEndStep):
        exiled = f"exile {ctx.ref(effect.target)}."
        # After "you may", the return depends on the exile having happened (CR 603.5).
        then = "If you do, return" if ctx.optional else "Return"
        return (
            f"{exiled} {then} that card to the battlefield under its owner's control "
            "at the beginning of the next end step."
        )
    chosen = render_choices.effect_text(effect, ctx.name)
    return chosen if chosen is not None else added_effect(effect, ctx)


def with_reminder(text: str, effect: Effect) -> str:
    if getattr(effect, "reminder", False):
        return f"{text} ({EFFECT_REMINDERS[effect.kind]})"
    return text


def added_effect(effect: Effect, ctx: Context) -> str:
    """Wording for poison (122.1f), life totals (119), static grants and detain."""
    if isinstance(effect, GivePoison):
        counters = count_noun(effect.count, "poison counter", "poison counters")
        return with_reminder(f"{player_verb(effect.who, 'get')} {counters}.", effect)
    if isinstance(effect, EntersWithCounters):
        counters = count_noun(effect.count, f"{effect.counter} counter",
                               f"{effect.counter} counters")
        return f"{ctx.name} enters the battlefield with {counters} on it."
    if isinstance(effect, RemoveCounterFromSelf):
        article = indefinite_article(effect.counter)
        return f"remove {article} {effect.counter} counter from {ctx.name}."
    if isinstance(effect, HighestLifeWinsIfNoCounters):
        return (f"if there are no {effect.counter} counters on {ctx.name}, the player with "
                "the highest life total wins the game. If two or more players are tied for "
                "highest life total, the game is a draw.")
    if isinstance(effect, CantGetPoison):
        return "you can't get poison counters."
    if isinstance(effect, NoMinusCountersOnYourCreatures):
        return "creatures you control can't have -1/-1 counters put on them."
    if isinstance(effect, OpponentsCreaturesLoseKeyword):
        return f"creatures your opponents control lose {effect.keyword}."
    if isinstance(effect, RevealOpponentChooses):
        cards = count_noun(effect.count, "card", "cards")
        top = "the top card" if effect.count == 1 else f"the top {cards}"
        return (f"reveal {top} of your library. An opponent chooses one of them. Put that "
                "card into your graveyard and the rest into your hand.")
    if isinstance(effect, LoseAllPoison):
        return f"{ctx.ref(effect.target)} loses all poison counters."
    if isinstance(effect, Proliferate):
        return with_reminder("proliferate.", effect)
    if isinstance(effect, LifeCantChange):
        return with_reminder("your life total can't change.", effect)
    if isinstance(effect, SetLifeTotal):
        return f"{ctx.ref(effect.target)}'s life total becomes {effect.amount}."
    if isinstance(effect, ExchangeLifeTotals):
        return f"{ctx.ref(effect.target)} exchange life totals."
    if isinstance(effect, RedirectNextDamage):
        return (f"the next {amount_text(effect.amount)} damage that would be dealt to "
                f"{ctx.target(effect.source_target)} this turn is dealt to "
                f"{ctx.target(effect.to_target)} instead.")
    if isinstance(effect, RedistributeLifeTotals):
        return with_reminder("redistribute any number of players' life totals.", effect)
    if isinstance(effect, GainLife):
        return f"you gain {amount_text(effect.amount)} life."
    if isinstance(effect, LoseLife):
        return f"attacking player loses {amount_text(effect.amount)} life."
    if isinstance(effect, AllCreaturesHaveKeyword):
        return f"all creatures have {KEYWORD_NAMES[effect.keyword]}."
    if isinstance(effect, Detain):
        return with_reminder(f"detain {ctx.ref(effect.target)}.", effect)
    return combat_effect(effect)


def combat_effect(effect: Effect) -> str:
    """Wording for attack requirements and restrictions (CR 508.1c-d, 509.1b)."""
    if isinstance(effect, AttackIfAble):
        non_wall = "non-Wall " if effect.non_wall else ""
        return f"{non_wall}creatures the active player controls attack this turn if able."
    if isinstance(effect, DestroyUnlessAttacked):
        return ("at the beginning of the next end step, destroy each of those creatures "
                "that didn't attack this turn.")
    if isinstance(effect, NoMoreThanOneCombatant):
        return f"no more than one creature can {effect.declaring} each combat."
    raise TypeError(f"no wording for effect {effect!r}")


def shares_sentence(previous: Effect, effect: Effect) -> bool:
    """Whether `effect` continues `previous`'s sentence after "and"."""
    if isinstance(previous, Untap) and isinstance(effect, GainControl):
        # "Untap target creature ... and gain control of it"
        return effect.subject == "target" and effect.target == previous.target
    if isinstance(previous, GainLife) and isinstance(effect, LoseLife):
        return True  # "you gain that much life and attacking player loses that much life"
    # "You can't lose the game and your opponents can't win the game."
    return isinstance(previous, CantLose) and isinstance(effect, OpponentsCantWin)


def ends_paragraph(effect: Effect) -> bool:
    """A keyword action printed with its reminder text stands as its own paragraph
    ("Proliferate. (...)" then "Draw a card." on the next line)."""
    return isinstance(effect, Proliferate | Detain) and effect.reminder


def effects_text(
    effects: Sequence[Effect],
    card: CardDefinition,
    targets: Sequence[TargetSpec] = (),
    *,
    additional_draw: bool = False,
    optional: bool = False,
) -> str:
    """The effects as sentences, the first one starting lowercase (see module doc)."""
    ctx = Context(card, targets, additional_draw=additional_draw, optional=optional)
    sentences: list[str] = []
    breaks: set[int] = set()  # indexes of sentences that begin a new paragraph
    previous: Effect | None = None
    for effect in effects:
        joined = previous is not None and shares_sentence(previous, effect)
        if previous is not None and not joined:
            ctx.sentence += 1
        text = effect_sentence(effect, ctx)
        if joined:
            sentences[-1] = f"{sentences[-1].removesuffix('.')} and {text}"
        else:
            if previous is not None and ends_paragraph(previous):
                breaks.add(len(sentences))
            sentences.append(text if not sentences else capitalise(text))
        previous = effect
    sentences.extend(ctx.afterwords)
    if optional:
        sentences[0] = f"you may {sentences[0]}"  # CR 603.5
    return "".join(("\n" if i in breaks else " ") + text if i else text
                   for i, text in enumerate(sentences))
