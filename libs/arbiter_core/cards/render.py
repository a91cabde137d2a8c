"""Render a card's declarative abilities back to Oracle-style English.

The text is produced from the ability data alone (plus the card's name and subtypes),
so comparing it with the card's Oracle text (CR 108.1) checks that the definition says
what the card says. Layout rules, chosen to reproduce Oracle wording:

* Each ability is one paragraph (CR 113.2c); paragraphs are joined with "\\n".
* Consecutive keyword abilities share one line, joined with ", ", only the first
  capitalised ("Flying, deathtouch, lifelink"). A keyword whose definition records
  printed reminder text (CR 207.2a) stands on its own line, followed by that text in
  parentheses ("Reach (This creature can block creatures with flying.)").
* The card refers to itself by name (CR 201.5).
* The mana ability a basic land type grants (CR 305.6) is rules text the card has
  anyway, so the Oracle prints it as reminder text, in parentheses: "({T}: Add {G}.)".
* Effects are sentences in order. A target is named in full the first time ("target
  creature"), then "it" within the same sentence or right after a sentence that said
  "that creature", otherwise "that creature". A few pairs of effects share one sentence,
  joined with "and" ("Untap target creature ... and gain control of it"). Delayed
  triggers an effect sets up (CR 603.7) are written after all the effects.
"""

from __future__ import annotations

from collections.abc import Sequence

from arbiter_core.cards import render_choices
from arbiter_core.cards.model import (
    Ability,
    ActivatedAbility,
    AddMana,
    AllCreaturesHaveKeyword,
    Amount,
    Attach,
    AttackIfAble,
    BecomeCreature,
    CantAttackOrBlock,
    CantAttackYouIfChosenColorWithoutFlying,
    CantGetPoison,
    CantLose,
    CardDefinition,
    ChooseColorAsEnters,
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
    ModifyPowerToughness,
    NoLossForZeroLife,
    NoMinusCountersOnYourCreatures,
    NoMoreThanOneCombatant,
    OpponentsCantWin,
    OpponentsCreaturesLoseKeyword,
    PlayerRef,
    PreventCombatDamage,
    Proliferate,
    PTSubject,
    RedirectNextDamage,
    RedistributeLifeTotals,
    RemoveCounterFromSelf,
    ReturnToHand,
    RevealOpponentChooses,
    SearchOntoBattlefield,
    SetLifeTotal,
    ShuffleIntoLibrary,
    SpellAbility,
    StaticAbility,
    TargetKind,
    TargetSpec,
    TokenSpec,
    TriggeredAbility,
    TriggerEvent,
    Untap,
    WinGame,
)

__all__ = ["render_ability", "render_oracle"]

# ---------------------------------------------------------------- vocabulary

KEYWORD_NAMES: dict[Keyword, str] = {
    "flying": "flying",
    "reach": "reach",
    "vigilance": "vigilance",
    "defender": "defender",
    "haste": "haste",
    "first_strike": "first strike",
    "double_strike": "double strike",
    "trample": "trample",
    "deathtouch": "deathtouch",
    "lifelink": "lifelink",
    "persist": "persist",
    "menace": "menace",
    "banding": "banding",
}

# Reminder text for a keyword an effect grants until end of turn (CR 207.2a).
GRANTED_REMINDERS: dict[Keyword, str] = {
    "haste": "It can attack and {T} this turn.",
}

# Reminder text as the Oracle prints it for each keyword (CR 207.2a).
KEYWORD_REMINDERS: dict[Keyword, str] = {
    "flying": "This creature can't be blocked except by creatures with flying or reach.",
    "reach": "This creature can block creatures with flying.",
    "vigilance": "Attacking doesn't cause this creature to tap.",
    "defender": "This creature can't attack.",
    "haste": "This creature can attack and {T} as soon as it comes under your control.",
    "first_strike": "This creature deals combat damage before creatures without first strike.",
    "double_strike": "This creature deals both first-strike and regular combat damage.",
    "trample": (
        "This creature can deal excess combat damage to the player or planeswalker it's attacking."
    ),
    "deathtouch": "Any amount of damage this deals to a creature is enough to destroy it.",
    "lifelink": "Damage dealt by this creature also causes you to gain that much life.",
    "persist": (
        "When this creature dies, if it had no -1/-1 counters on it, return it to the "
        "battlefield under its owner's control with a -1/-1 counter on it."
    ),
    "menace": "This creature can't be blocked except by two or more creatures.",
    "banding": (
        "Any creatures with banding, and up to one without, can attack in a band. Bands are "
        "blocked as a group. If any creatures with banding you control are blocking or being "
        "blocked by a creature, you divide that creature's combat damage, not its controller, "
        "among any of the creatures it's being blocked by or is blocking."
    ),
}

COLOR_WORDS = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}

# CR 305.6: each basic land type grants "{T}: Add [its mana symbol]."
BASIC_LAND_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}

NUMBER_WORDS = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
)

# singular, plural
TARGET_NOUNS: dict[TargetKind, tuple[str, str]] = {
    "any": ("target", "targets"),
    "creature": ("creature", "creatures"),
    "player": ("player", "players"),
    "player_or_planeswalker": ("player or planeswalker", "players and/or planeswalkers"),
    "spell": ("spell", "spells"),
    "artifact_or_enchantment": ("artifact or enchantment", "artifacts and/or enchantments"),
    "creature_card_in_your_graveyard": (
        "creature card from your graveyard",
        "creature cards from your graveyard",
    ),
    "opponent": ("opponent", "opponents"),
    "creature_an_opponent_controls": (
        "creature an opponent controls",
        "creatures your opponents control",
    ),
    "creature_planeswalker_or_player": (
        "creature, planeswalker, or player",
        "creatures, planeswalkers, and/or players",
    ),
}

# How a target already named is referred back to: "that creature", "that player".
TARGET_REFERENCE_NOUNS: dict[TargetKind, str] = {
    "any": "permanent or player",
    "creature": "creature",
    "player": "player",
    "player_or_planeswalker": "player or planeswalker",
    "spell": "spell",
    "artifact_or_enchantment": "permanent",
    "creature_card_in_your_graveyard": "card",
    "opponent": "player",
    "creature_an_opponent_controls": "creature",
    "creature_planeswalker_or_player": "permanent or player",
}

TRIGGER_PHRASES: dict[TriggerEvent, str] = {
    "deals_damage_to_opponent": "Whenever {name} deals damage to an opponent",
    "each_draw_step": "At the beginning of each player's draw step",
    "your_upkeep": "At the beginning of your upkeep",
    "you_lose_life": "Whenever you lose life",
    "life_20_or_more": "When you have 20 or more life",  # a state trigger, CR 603.8
    "nontoken_creature_enters": "Whenever a nontoken creature enters the battlefield",
    "creature_enters": "Whenever a creature enters the battlefield",
    "player_cycles": "Whenever a player cycles a card",
    "deals_damage_to_player": "Whenever {name} deals damage to a player",
    "dealt_combat_damage": "Whenever {name} is dealt combat damage",
    "opponent_casts_spell": "Whenever an opponent casts a spell",
}

# Reminder text the Oracle prints after an effect (CR 207.2a).
EFFECT_REMINDERS = {
    "give_poison": "A player with ten or more poison counters loses the game.",
    "proliferate": "Choose any number of permanents and/or players, then give each another "
                   "counter of each kind already there.",
    "life_cant_change": "You can't gain or lose life. You can't pay any amount of life "
                        "except 0.",
    "redistribute_life_totals": "Each of those players gets one life total back.",
    "detain": "Until your next turn, that creature can't attack or block and its activated "
              "abilities can't be activated.",
}

# Reminder text the Oracle prints after a trigger on this event (CR 207.2a): losing
# life includes damage dealt to you (CR 120.3a).
TRIGGER_REMINDERS: dict[TriggerEvent, str] = {
    "you_lose_life": "Damage dealt to you causes you to lose life.",
}

PT_SUBJECTS: dict[PTSubject, str] = {
    "enchanted": "enchanted creature",
    "equipped": "equipped creature",
    "creatures_you_control": "creatures you control",
}

PLAYER_SUBJECTS: dict[PlayerRef, str] = {
    "controller": "",  # imperative: "Draw two cards."
    "target_player": "target player",
    "that_player": "that player",
}

# ---------------------------------------------------------------- helpers


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


def _number(n: int) -> str:
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def _indefinite_article(word: str) -> str:
    """ "a" or "an" by sound: "an 8/8", "an 11/11", "an artifact", "a 1/1"."""
    spoken = word.split("/", 1)[0]
    if spoken.isdigit():
        return "an" if spoken.startswith("8") or spoken in ("11", "18") else "a"
    return "an" if word[:1].lower() in "aeiou" else "a"


def _count_noun(n: int, singular: str, plural: str, *, article: str = "a") -> str:
    """Counted noun: "a card", "two cards"."""
    return f"{article} {singular}" if n == 1 else f"{_number(n)} {plural}"


def _mana_symbols(mana: str) -> str:
    """Mana symbols: "BBB" -> "{B}{B}{B}"; text already in braces is kept."""
    if "{" in mana:
        return mana
    return "".join(f"{{{symbol}}}" for symbol in mana)


def _cost(cost: Cost) -> str:
    """An activation cost (CR 602.1a): mana first, then {T}, comma-separated."""
    parts = [_mana_symbols(cost.mana)] if cost.mana else []
    if cost.tap:
        parts.append("{T}")
    if cost.pay_half_life:
        parts.append("Pay half your life, rounded up")  # CR 119.4
    return ", ".join(parts)


def _target_phrase(spec: TargetSpec) -> str:
    """How a target requirement reads (CR 115.1, 115.4)."""
    singular, plural = TARGET_NOUNS[spec.kind]
    if spec.not_color is not None:
        prefix = "non" + COLOR_WORDS[spec.not_color]
        singular, plural = f"{prefix} {singular}", f"{prefix} {plural}"
    if spec.kind == "any":
        if (spec.min_count, spec.max_count) == (1, 1):
            return "any target"
        if spec.max_count is None:
            return "any number of targets"
        return f"{_number(spec.max_count)} targets"
    if spec.max_count is None:
        return f"any number of target {plural}"
    if spec.min_count == 0:
        noun = singular if spec.max_count == 1 else plural
        return f"up to {_number(spec.max_count)} target {noun}"
    if spec.max_count == 1:
        return f"{'another ' if spec.another else ''}target {singular}"
    return f"{_number(spec.max_count)} target {plural}"


class _Context:
    """What an effect's wording depends on besides the effect itself.

    It also tracks how each target was last referred to, so that later effects say
    "that creature" or "it" (see the module doc), and collects the sentences that are
    written after all the effects (delayed triggers, CR 603.7).
    """

    def __init__(
        self,
        card: CardDefinition,
        targets: Sequence[TargetSpec],
        *,
        additional_draw: bool = False,
        optional: bool = False,
    ) -> None:
        self.name = card.name
        self.targets = targets
        self.additional_draw = additional_draw
        self.optional = optional
        self.sentence = 0
        self.afterwords: list[str] = []
        # target index -> (sentence number, "full" | "that" | "it") of its last mention
        self._mentions: dict[int, tuple[int, str]] = {}

    def _spec(self, index: int) -> TargetSpec:
        if not 0 <= index < len(self.targets):
            raise ValueError(f"{self.name}: effect refers to missing target {index}")
        return self.targets[index]

    def target(self, index: int) -> str:
        """The target named in full: "target creature"."""
        phrase = _target_phrase(self._spec(index))
        self._mentions[index] = (self.sentence, "full")
        return phrase

    def noun(self, index: int) -> str:
        """The noun for referring back to the target: "creature", "player"."""
        return TARGET_REFERENCE_NOUNS[self._spec(index).kind]

    def ref(self, index: int) -> str:
        """The target named in full the first time, afterwards "it" or "that creature"."""
        mention = self._mentions.get(index)
        if mention is None:
            return self.target(index)
        sentence, form = mention
        if sentence == self.sentence or form == "that":
            self._mentions[index] = (self.sentence, "it")
            return "it"
        self._mentions[index] = (self.sentence, "that")
        return f"that {self.noun(index)}"


def _amount(amount: Amount) -> str:
    if amount == "that_much":
        return "that much"
    return str(amount) if isinstance(amount, int) else "X"


def _where_x(amount: Amount) -> str:
    if amount == "goblins_you_control":
        return ", where X is the number of Goblins you control"
    return ""


def _token(spec: TokenSpec, count: Amount) -> str:
    """Token wording, e.g. "X 1/1 red Goblin creature tokens" (CR 111.4)."""
    colors = " and ".join(COLOR_WORDS[c] for c in spec.colors) or "colorless"
    types = " ".join(t.lower() for t in spec.types)
    body = f"{spec.power}/{spec.toughness} {colors} {' '.join(spec.subtypes)} {types}"
    if isinstance(count, int):
        article = _indefinite_article(body)
        return _count_noun(count, f"{body} token", f"{body} tokens", article=article)
    return f"X {body} tokens"


def _and_list(items: Sequence[str]) -> str:
    """ "a", "a and b", "a, b, and c"."""
    if len(items) <= 2:
        return " and ".join(items)
    return f"{', '.join(items[:-1])}, and {items[-1]}"


def _player_verb(who: PlayerRef, verb: str) -> str:
    """The verb: "draw" for the controller (imperative), else "that player draws"."""
    subject = PLAYER_SUBJECTS[who]
    return verb if not subject else f"{subject} {verb}s"


def _effect(effect: Effect, ctx: _Context) -> str:
    """One effect as a sentence (ending in "."), starting lowercase unless with a name."""
    if isinstance(effect, DealDamage):
        amount = _amount(effect.amount)
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
        return f"{ctx.name} deals {amount} damage {receivers}{_where_x(effect.amount)}."
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
        return f"add {_mana_symbols(effect.mana)}."
    if isinstance(effect, DrawCards):
        singular, plural = "card", "cards"
        if ctx.additional_draw:
            singular, plural = "additional card", "additional cards"
        article = "an" if singular[0] in "aeiou" else "a"
        cards = _count_noun(effect.count, singular, plural, article=article)
        unless = effect.unless_that_player_pays
        unless_text = f" unless that player pays {unless}" if unless else ""  # 118.12a
        return f"{_player_verb(effect.who, 'draw')} {cards}{unless_text}."
    if isinstance(effect, Discard):
        cards = _count_noun(effect.count, "card", "cards")
        random = " at random" if effect.at_random else ""
        return f"{_player_verb(effect.who, 'discard')} {cards}{random}."
    if isinstance(effect, ReturnToHand):
        spec = ctx.targets[effect.what] if effect.what < len(ctx.targets) else None
        # A card in your graveyard is one you own (CR 400.3): it goes to your hand.
        in_your_graveyard = spec is not None and spec.kind == "creature_card_in_your_graveyard"
        hand = "your hand" if in_your_graveyard else "its owner's hand"
        return f"return {ctx.target(effect.what)} to {hand}."
    if isinstance(effect, CreateTokens):
        return f"create {_token(effect.token, effect.count)}{_where_x(effect.count)}."
    if isinstance(effect, PreventCombatDamage):
        return "prevent all combat damage that would be dealt this turn."
    if isinstance(effect, ExtraTurn):
        return "take an extra turn after this one."
    if isinstance(effect, Attach):
        return f"attach {ctx.name} to {ctx.target(effect.target)}."
    return _multiplayer_effect(effect, ctx)


def _multiplayer_effect(effect: Effect, ctx: _Context) -> str:
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
            f"search {player}'s library for {_indefinite_article(card_type)} {card_type} card "
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
        with_keywords = f" with {_and_list(keywords)}" if keywords else ""
        return f"{ctx.name} becomes {_indefinite_article(body)} {body}{with_keywords}."
    if isinstance(effect, CreateTokenForThatController):
        return f"that creature's controller creates {_token(effect.token, 1)}."
    if isinstance(effect, CantLose):
        return "you can't lose the game."
    if isinstance(effect, OpponentsCantWin):
        return "your opponents can't win the game."
    if isinstance(effect, NoLossForZeroLife):
        return "you don't lose the game for having 0 or less life."  # not CR 704.5a
    if isinstance(effect, CantAttackYouIfChosenColorWithoutFlying):
        return "creatures of the chosen color without flying can't attack you."
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
    return chosen if chosen is not None else _added_effect(effect, ctx)


def _with_reminder(text: str, effect: Effect) -> str:
    if getattr(effect, "reminder", False):
        return f"{text} ({EFFECT_REMINDERS[effect.kind]})"
    return text


def _added_effect(effect: Effect, ctx: _Context) -> str:
    """Wording for poison (122.1f), life totals (119), static grants and detain."""
    if isinstance(effect, GivePoison):
        counters = _count_noun(effect.count, "poison counter", "poison counters")
        return _with_reminder(f"{_player_verb(effect.who, 'get')} {counters}.", effect)
    if isinstance(effect, EntersWithCounters):
        counters = _count_noun(effect.count, f"{effect.counter} counter",
                               f"{effect.counter} counters")
        return f"{ctx.name} enters the battlefield with {counters} on it."
    if isinstance(effect, RemoveCounterFromSelf):
        article = _indefinite_article(effect.counter)
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
        cards = _count_noun(effect.count, "card", "cards")
        top = "the top card" if effect.count == 1 else f"the top {cards}"
        return (f"reveal {top} of your library. An opponent chooses one of them. Put that "
                "card into your graveyard and the rest into your hand.")
    if isinstance(effect, LoseAllPoison):
        return f"{ctx.ref(effect.target)} loses all poison counters."
    if isinstance(effect, Proliferate):
        return _with_reminder("proliferate.", effect)
    if isinstance(effect, LifeCantChange):
        return _with_reminder("your life total can't change.", effect)
    if isinstance(effect, SetLifeTotal):
        return f"{ctx.ref(effect.target)}'s life total becomes {effect.amount}."
    if isinstance(effect, ExchangeLifeTotals):
        return f"{ctx.ref(effect.target)} exchange life totals."
    if isinstance(effect, RedirectNextDamage):
        return (f"the next {_amount(effect.amount)} damage that would be dealt to "
                f"{ctx.target(effect.source_target)} this turn is dealt to "
                f"{ctx.target(effect.to_target)} instead.")
    if isinstance(effect, RedistributeLifeTotals):
        return _with_reminder("redistribute any number of players' life totals.", effect)
    if isinstance(effect, GainLife):
        return f"you gain {_amount(effect.amount)} life."
    if isinstance(effect, LoseLife):
        return f"attacking player loses {_amount(effect.amount)} life."
    if isinstance(effect, AllCreaturesHaveKeyword):
        return f"all creatures have {KEYWORD_NAMES[effect.keyword]}."
    if isinstance(effect, Detain):
        return _with_reminder(f"detain {ctx.ref(effect.target)}.", effect)
    return _combat_effect(effect)


def _combat_effect(effect: Effect) -> str:
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


def _shares_sentence(previous: Effect, effect: Effect) -> bool:
    """Whether `effect` continues `previous`'s sentence after "and"."""
    if isinstance(previous, Untap) and isinstance(effect, GainControl):
        # "Untap target creature ... and gain control of it"
        return effect.subject == "target" and effect.target == previous.target
    if isinstance(previous, GainLife) and isinstance(effect, LoseLife):
        return True  # "you gain that much life and attacking player loses that much life"
    # "You can't lose the game and your opponents can't win the game."
    return isinstance(previous, CantLose) and isinstance(effect, OpponentsCantWin)


def _ends_paragraph(effect: Effect) -> bool:
    """A keyword action printed with its reminder text stands as its own paragraph
    ("Proliferate. (...)" then "Draw a card." on the next line)."""
    return isinstance(effect, Proliferate | Detain) and effect.reminder


def _effects(
    effects: Sequence[Effect],
    card: CardDefinition,
    targets: Sequence[TargetSpec] = (),
    *,
    additional_draw: bool = False,
    optional: bool = False,
) -> str:
    """The effects as sentences, the first one starting lowercase (see module doc)."""
    ctx = _Context(card, targets, additional_draw=additional_draw, optional=optional)
    sentences: list[str] = []
    breaks: set[int] = set()  # indexes of sentences that begin a new paragraph
    previous: Effect | None = None
    for effect in effects:
        joined = previous is not None and _shares_sentence(previous, effect)
        if previous is not None and not joined:
            ctx.sentence += 1
        text = _effect(effect, ctx)
        if joined:
            sentences[-1] = f"{sentences[-1].removesuffix('.')} and {text}"
        else:
            if previous is not None and _ends_paragraph(previous):
                breaks.add(len(sentences))
            sentences.append(text if not sentences else _capitalise(text))
        previous = effect
    sentences.extend(ctx.afterwords)
    if optional:
        sentences[0] = f"you may {sentences[0]}"  # CR 603.5
    return "".join(("\n" if i in breaks else " ") + text if i else text
                   for i, text in enumerate(sentences))


def _is_intrinsic_mana_ability(ability: Ability, card: CardDefinition) -> bool:
    """True for "{T}: Add [mana]." granted by one of the card's basic land types
    (CR 305.6)."""
    if "Land" not in card.types or not isinstance(ability, ActivatedAbility):
        return False
    granted = {BASIC_LAND_MANA[t] for t in card.subtypes if t in BASIC_LAND_MANA}
    return (
        ability.cost == Cost(tap=True)
        and not ability.targets
        and not ability.sorcery_speed
        and len(ability.effects) == 1
        and isinstance(ability.effects[0], AddMana)
        and ability.effects[0].mana in granted
    )


def _keyword(ability: KeywordAbility) -> str:
    return KEYWORD_NAMES[ability.keyword]


def render_ability(ability: Ability, card: CardDefinition) -> str:
    """One ability as an Oracle paragraph, capitalised (keywords alone included)."""
    if isinstance(ability, KeywordAbility):
        text = _capitalise(_keyword(ability))
        if ability.reminder:
            text += f" ({KEYWORD_REMINDERS[ability.keyword]})"
        return text
    if isinstance(ability, SpellAbility) and ability.modes:  # CR 700.2
        return render_choices.modes_text(
            ability, lambda effects: _effects(effects, card, ability.targets))
    if isinstance(ability, SpellAbility):
        body = _capitalise(_effects(ability.effects, card, ability.targets))
        extra = ability.extra_cost_per_target_beyond_first
        if extra:
            # A cost increase (CR 601.2f) is printed as its own paragraph first.
            return (
                f"This spell costs {{{extra}}} more to cast for each target beyond "
                f"the first.\n{body}"
            )
        return body
    if isinstance(ability, ActivatedAbility):
        text = (
            f"{_cost(ability.cost)}: "
            f"{_capitalise(_effects(ability.effects, card, ability.targets))}"
        )
        if ability.sorcery_speed:
            text += " Activate only as a sorcery."  # CR 602.5d
        if ability.any_player:
            text += " Any player may activate this ability."  # CR 602.2
        if ability.opponents_turn_before_combat:  # CR 602.5
            text += " Activate only during an opponent's turn and only before combat."
        if _is_intrinsic_mana_ability(ability, card):
            text = f"({text})"  # reminder text for CR 305.6
        return text
    if isinstance(ability, TriggeredAbility):
        trigger = TRIGGER_PHRASES[ability.event].format(name=card.name)
        # Intervening "if" clauses (CR 603.4).
        conditions: list[str] = []
        if ability.if_untapped:
            conditions.append(f"{card.name} is untapped")
        if ability.if_life_at_least is not None:
            conditions.append(f"you have {ability.if_life_at_least} or more life")
        condition = f", if {' and '.join(conditions)}" if conditions else ""
        effects = _effects(
            ability.effects,
            card,
            ability.targets,
            additional_draw=ability.event == "each_draw_step",
            optional=ability.optional,
        )
        text = f"{trigger}{condition}, {effects}"
        reminder = TRIGGER_REMINDERS.get(ability.event)
        return f"{text} ({reminder})" if reminder else text
    if isinstance(ability, StaticAbility):
        return _capitalise(_effects(ability.effects, card))
    if isinstance(ability, EnchantAbility):
        text = f"Enchant {ability.what}"  # CR 702.5a
        if ability.reminder:
            text += (f" (Target {_indefinite_article(ability.what)} {ability.what} as you cast "
                     "this. This card enters the battlefield attached to that "
                     f"{ability.what}.)")
        return text
    if isinstance(ability, EquipAbility):
        return f"Equip {_cost(ability.cost)}"  # CR 702.6a
    raise TypeError(f"no wording for ability {ability!r}")


def render_oracle(card: CardDefinition) -> str:
    """The card's abilities as Oracle text, one paragraph per line (see module doc)."""
    lines: list[str] = []
    keyword_run: list[str] = []
    for ability in card.abilities:
        if isinstance(ability, KeywordAbility) and not ability.reminder:
            keyword_run.append(_keyword(ability))
            continue
        if keyword_run:
            lines.append(_capitalise(", ".join(keyword_run)))
            keyword_run = []
        lines.append(render_ability(ability, card))
    if keyword_run:
        lines.append(_capitalise(", ".join(keyword_run)))
    return "\n".join(lines)
