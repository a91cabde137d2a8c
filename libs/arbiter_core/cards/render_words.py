"""The words `render.py` writes cards with: keyword names and reminder texts (CR 207.2a),
colours, numbers, target nouns (CR 115), trigger phrases, and the phrase builders for
costs, targets, amounts and tokens."""

from __future__ import annotations

from collections.abc import Sequence

from arbiter_core.cards.model import (
    TOKEN_ABILITIES,
    Amount,
    CardDefinition,
    Cost,
    PlayerRef,
    PTSubject,
    TargetKind,
    TargetSpec,
    TokenSpec,
    TriggerEvent,
)

# ---------------------------------------------------------------- vocabulary

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
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
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
    "goblin_card_in_your_graveyard": (
        "Goblin card from your graveyard",
        "Goblin cards from your graveyard",
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
    "noncreature_artifact": ("noncreature artifact", "noncreature artifacts"),
    "red_green_or_white_creature_you_control": (
        "red, green, or white creature you control",
        "red, green, and/or white creatures you control",
    ),
    "creature_card_in_an_opponents_graveyard": (
        "creature card from an opponent's graveyard",
        "creature cards from opponents' graveyards",
    ),
    "creature_you_control": ("creature you control", "creatures you control"),
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
    "goblin_card_in_your_graveyard": "card",
    "opponent": "player",
    "creature_an_opponent_controls": "creature",
    "creature_planeswalker_or_player": "permanent or player",
    "noncreature_artifact": "artifact",
    "red_green_or_white_creature_you_control": "creature",
    "creature_card_in_an_opponents_graveyard": "card",
    "creature_you_control": "creature",
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
    "opponent_casts_creature_spell": "Whenever an opponent casts a creature spell",
    "your_end_step": "At the beginning of your end step",
    "attacks_opponent": "Whenever {name} attacks an opponent",
    "creature_you_control_attacks_alone": "Whenever a creature you control attacks alone",
    "blocks_or_becomes_blocked": "Whenever {name} blocks or becomes blocked",
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
    "each_player": "each player",
}

# ---------------------------------------------------------------- helpers


def capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


def number_word(n: int) -> str:
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def indefinite_article(word: str) -> str:
    """ "a" or "an" by sound: "an 8/8", "an 11/11", "an artifact", "a 1/1"."""
    spoken = word.split("/", 1)[0]
    if spoken.isdigit():
        return "an" if spoken.startswith("8") or spoken in ("11", "18") else "a"
    return "an" if word[:1].lower() in "aeiou" else "a"


def count_noun(n: int, singular: str, plural: str, *, article: str = "a") -> str:
    """Counted noun: "a card", "two cards"."""
    return f"{article} {singular}" if n == 1 else f"{number_word(n)} {plural}"


def mana_symbols(mana: str) -> str:
    """Mana symbols: "BBB" -> "{B}{B}{B}"; text already in braces is kept."""
    if "{" in mana:
        return mana
    return "".join(f"{{{symbol}}}" for symbol in mana)


def cost_text(cost: Cost) -> str:
    """An activation cost (CR 602.1a): mana first, then {T}, comma-separated; a loyalty
    cost (CR 606.4) in a loyalty symbol, "[+2]", "[\u22121]" or "[0]"."""
    if cost.loyalty is not None:
        n = cost.loyalty
        return f"[+{n}]" if n > 0 else (f"[\u2212{-n}]" if n < 0 else "[0]")
    parts = [mana_symbols(cost.mana)] if cost.mana else []
    if cost.tap:
        parts.append("{T}")
    if cost.sacrifice:
        parts.append(f"Sacrifice {indefinite_article(cost.sacrifice)} {cost.sacrifice}")
    if cost.pay_half_life:
        parts.append("Pay half your life, rounded up")  # CR 119.4
    return ", ".join(parts)


def target_phrase(spec: TargetSpec) -> str:
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
        return f"{number_word(spec.max_count)} targets"
    if spec.max_count is None:
        return f"any number of target {plural}"
    if spec.min_count == 0:
        noun = singular if spec.max_count == 1 else plural
        return f"up to {number_word(spec.max_count)} target {noun}"
    if spec.max_count == 1:
        return f"{'another ' if spec.another else ''}target {singular}"
    return f"{number_word(spec.max_count)} target {plural}"


class Context:
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
        phrase = target_phrase(self._spec(index))
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


def amount_text(amount: Amount) -> str:
    if amount == "that_much":
        return "that much"
    return str(amount) if isinstance(amount, int) else "X"


def where_x(amount: Amount) -> str:
    if amount == "goblins_you_control":
        return ", where X is the number of Goblins you control"
    return ""


def token_text(spec: TokenSpec, count: Amount) -> str:
    """Token wording, e.g. "X 1/1 red Goblin creature tokens" (CR 111.4)."""
    colors = " and ".join(COLOR_WORDS[c] for c in spec.colors) or "colorless"
    types = " ".join(t.lower() for t in spec.types)
    body = f"{spec.power}/{spec.toughness} {colors} {' '.join(spec.subtypes)} {types}"
    quoted = TOKEN_ABILITIES.get(spec.name, ((), ""))[1]
    with_text = f' with "{quoted}"' if quoted else ""
    if isinstance(count, int):
        article = indefinite_article(body)
        return count_noun(count, f"{body} token{with_text}", f"{body} tokens{with_text}",
                          article=article)
    return f"X {body} tokens{with_text}"


def and_list(items: Sequence[str]) -> str:
    """ "a", "a and b", "a, b, and c"."""
    if len(items) <= 2:
        return " and ".join(items)
    return f"{', '.join(items[:-1])}, and {items[-1]}"


def player_verb(who: PlayerRef, verb: str) -> str:
    """The verb: "draw" for the controller (imperative), else "that player draws"."""
    subject = PLAYER_SUBJECTS[who]
    return verb if not subject else f"{subject} {verb}s"
