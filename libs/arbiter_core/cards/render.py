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
"""

from __future__ import annotations

from collections.abc import Sequence

from arbiter_core.cards.model import (
    Ability,
    ActivatedAbility,
    AddMana,
    Amount,
    Attach,
    CantAttackOrBlock,
    CardDefinition,
    Cost,
    CounterTarget,
    CreateTokens,
    DealDamage,
    Destroy,
    Discard,
    DrawCards,
    Effect,
    EnchantAbility,
    EquipAbility,
    ExtraTurn,
    Keyword,
    KeywordAbility,
    ModifyPowerToughness,
    PlayerRef,
    PreventCombatDamage,
    PTSubject,
    ReturnToHand,
    SpellAbility,
    StaticAbility,
    TargetKind,
    TargetSpec,
    TokenSpec,
    TriggeredAbility,
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
        return f"target {singular}"
    return f"{_number(spec.max_count)} target {plural}"


class _Context:
    """What an effect's wording depends on besides the effect itself."""

    def __init__(
        self, card: CardDefinition, targets: Sequence[TargetSpec], *, additional_draw: bool
    ) -> None:
        self.name = card.name
        self.targets = targets
        self.additional_draw = additional_draw

    def target(self, index: int) -> str:
        if not 0 <= index < len(self.targets):
            raise ValueError(f"{self.name}: effect refers to missing target {index}")
        return _target_phrase(self.targets[index])


def _amount(amount: Amount) -> str:
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
        return _count_noun(count, f"{body} token", f"{body} tokens")
    return f"X {body} tokens"


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
        elif effect.divided:
            receivers = f"divided evenly, rounded down, among {ctx.target(effect.to)}"
        else:
            receivers = f"to {ctx.target(effect.to)}"
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
        return f"{_player_verb(effect.who, 'draw')} {cards}."
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
    raise TypeError(f"no wording for effect {effect!r}")


def _effects(
    effects: Sequence[Effect],
    card: CardDefinition,
    targets: Sequence[TargetSpec] = (),
    *,
    additional_draw: bool = False,
) -> str:
    ctx = _Context(card, targets, additional_draw=additional_draw)
    return " ".join(_effect(effect, ctx) for effect in effects)


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
        if _is_intrinsic_mana_ability(ability, card):
            text = f"({text})"  # reminder text for CR 305.6
        return text
    if isinstance(ability, TriggeredAbility):
        if ability.event == "deals_damage_to_opponent":
            trigger = f"Whenever {card.name} deals damage to an opponent"
        else:
            trigger = "At the beginning of each player's draw step"
        condition = f", if {card.name} is untapped" if ability.if_untapped else ""
        effects = _effects(ability.effects, card, additional_draw=ability.event == "each_draw_step")
        return f"{trigger}{condition}, {effects}"
    if isinstance(ability, StaticAbility):
        return _capitalise(_effects(ability.effects, card))
    if isinstance(ability, EnchantAbility):
        return f"Enchant {ability.what}"  # CR 702.5a
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
