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

from collections.abc import Callable
from typing import Any, TypeVar

from arbiter_core.cards import render_choices, wording_base, wording_multiplayer
from arbiter_core.cards.model import (
    Ability,
    ActivatedAbility,
    AddMana,
    CardDefinition,
    Cost,
    EnchantAbility,
    EquipAbility,
    KeywordAbility,
    SpellAbility,
    StaticAbility,
    TriggeredAbility,
)
from arbiter_core.cards.model.base import KEYWORD_NAMES, KEYWORD_REMINDERS
from arbiter_core.cards.render_effects import effects_text
from arbiter_core.cards.render_words import (
    BASIC_LAND_MANA,
    TRIGGER_PHRASES,
    TRIGGER_REMINDERS,
    capitalise,
    cost_text,
    indefinite_article,
)
from arbiter_core.kernel.registry import Registry

__all__ = ["ABILITY_WORDING", "ability_wording", "render_ability", "render_oracle"]
_WORDINGS = (wording_base, wording_multiplayer)  # imported for their registrations


def is_intrinsic_mana_ability(ability: Ability, card: CardDefinition) -> bool:
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


def keyword_text(ability: KeywordAbility) -> str:
    return KEYWORD_NAMES[ability.keyword]


ABILITY_WORDING: Registry[type, Callable[[Any, CardDefinition], str]] = Registry(
    "ability wording")
A = TypeVar("A")


def ability_wording(kind: type[A]) -> Callable[[Callable[[A, CardDefinition], str]],
                                               Callable[[A, CardDefinition], str]]:
    """Register the decorated function as the Oracle paragraph of an ability class (a
    mechanic whose ability is a class of its own registers it beside its rule)."""
    def add(fn: Callable[[A, CardDefinition], str]) -> Callable[[A, CardDefinition], str]:
        ABILITY_WORDING.add(kind, fn)
        return fn
    return add


def render_ability(ability: Ability, card: CardDefinition) -> str:
    """One ability as an Oracle paragraph, capitalised (keywords alone included)."""
    words = ABILITY_WORDING.get(type(ability))
    if words is None:
        raise TypeError(f"no wording for ability {ability!r}")
    return words(ability, card)


@ability_wording(KeywordAbility)
def _keyword(ability: KeywordAbility, card: CardDefinition) -> str:
    text = capitalise(keyword_text(ability))
    if ability.reminder:
        text += f" ({KEYWORD_REMINDERS[ability.keyword]})"
    return text


@ability_wording(SpellAbility)
def _spell(ability: SpellAbility, card: CardDefinition) -> str:
    if ability.modes:  # CR 700.2
        return render_choices.modes_text(
            ability, lambda effects: effects_text(effects, card, ability.targets))
    body = capitalise(effects_text(ability.effects, card, ability.targets))
    extra = ability.extra_cost_per_target_beyond_first
    if extra:
        # A cost increase (CR 601.2f) is printed as its own paragraph first.
        return (f"This spell costs {{{extra}}} more to cast for each target beyond "
                f"the first.\n{body}")
    return body


@ability_wording(ActivatedAbility)
def _activated(ability: ActivatedAbility, card: CardDefinition) -> str:
    text = (f"{cost_text(ability.cost)}: "
            f"{capitalise(effects_text(ability.effects, card, ability.targets))}")
    if ability.sorcery_speed:
        text += " Activate only as a sorcery."  # CR 602.5d
    if ability.any_player:
        text += " Any player may activate this ability."  # CR 602.2
    if ability.opponents_turn_before_combat:  # CR 602.5
        text += " Activate only during an opponent's turn and only before combat."
    if is_intrinsic_mana_ability(ability, card):
        text = f"({text})"  # reminder text for CR 305.6
    return text


@ability_wording(TriggeredAbility)
def _triggered(ability: TriggeredAbility, card: CardDefinition) -> str:
    trigger = TRIGGER_PHRASES[ability.event].format(name=card.name)
    # Intervening "if" clauses (CR 603.4).
    conditions: list[str] = []
    if ability.if_untapped:
        conditions.append(f"{card.name} is untapped")
    if ability.if_didnt_attack:
        conditions.append(f"{card.name} didn't attack this turn")
    if ability.if_life_at_least is not None:
        conditions.append(f"you have {ability.if_life_at_least} or more life")
    condition = f", if {' and '.join(conditions)}" if conditions else ""
    effects = effects_text(ability.effects, card, ability.targets,
                           additional_draw=ability.event == "each_draw_step",
                           optional=ability.optional)
    if card.name in trigger and effects.startswith(f"{card.name} gets "):
        effects = "it" + effects.removeprefix(card.name)  # the trigger named it already
    text = f"{trigger}{condition}, {effects}"
    reminder = TRIGGER_REMINDERS.get(ability.event)
    return f"{text} ({reminder})" if reminder else text


@ability_wording(StaticAbility)
def _static(ability: StaticAbility, card: CardDefinition) -> str:
    return capitalise(effects_text(ability.effects, card))


@ability_wording(EnchantAbility)
def _enchant(ability: EnchantAbility, card: CardDefinition) -> str:
    text = f"Enchant {ability.what}"  # CR 702.5a
    if ability.reminder:
        text += (f" (Target {indefinite_article(ability.what)} {ability.what} as you cast "
                 "this. This card enters the battlefield attached to that "
                 f"{ability.what}.)")
    return text


@ability_wording(EquipAbility)
def _equip(ability: EquipAbility, card: CardDefinition) -> str:
    return f"Equip {cost_text(ability.cost)}"  # CR 702.6a


def render_oracle(card: CardDefinition) -> str:
    """The card's abilities as Oracle text, one paragraph per line (see module doc)."""
    lines: list[str] = []
    keyword_run: list[str] = []
    for ability in card.abilities:
        if isinstance(ability, KeywordAbility) and not ability.reminder:
            keyword_run.append(keyword_text(ability))
            continue
        if keyword_run:
            lines.append(capitalise(", ".join(keyword_run)))
            keyword_run = []
        lines.append(render_ability(ability, card))
    if keyword_run:
        lines.append(capitalise(", ".join(keyword_run)))
    return "\n".join(lines)
