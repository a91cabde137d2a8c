"""Wording for modal spells and the effects of chosen players, life paid at once and
persist (CR 700.2, 614.12, 800.4i, 119.4, 702.79a); `render.py` calls these.

Modes (CR 700.2) are printed as a bulleted list after the instruction to choose ("An
opponent chooses one —", 700.2e). Within a mode, effects share one sentence joined by
"and"; when an opponent chooses, the spell's controller is named as "You", and a later
effect of the same mode drops the repeated subject ("You put ... and gain 4 life").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from arbiter_core.cards.model import (
    ChooseOpponentAsEnters,
    Effect,
    PerCardInChosenPlayersHand,
    PutCounterOnEachCreature,
    ReturnWithCounter,
    SacrificeUnlessPayLife,
    SpellAbility,
)

CHOOSERS = {"you": "Choose one —", "an_opponent": "An opponent chooses one —"}


def effect_text(effect: Effect, name: str) -> str | None:
    """One effect as a sentence starting lowercase, or None if it isn't one of these."""
    if isinstance(effect, ChooseOpponentAsEnters):
        return f"as {name} enters the battlefield, choose an opponent."  # CR 614.12
    if isinstance(effect, PerCardInChosenPlayersHand):
        change = f"{effect.power:+d}/{effect.toughness:+d}"
        return f"{name} gets {change} for each card in the chosen player's hand."
    if isinstance(effect, PutCounterOnEachCreature):
        whose = "you control" if effect.whose == "you" else "that player controls"
        return f"put a {effect.counter} counter on each creature {whose}."
    if isinstance(effect, SacrificeUnlessPayLife):
        amount = effect.amount if isinstance(effect.amount, int) else "X"
        return (f"for each creature, its controller sacrifices it unless they pay {amount} "
                "life.")
    if isinstance(effect, ReturnWithCounter):
        return ("return it to the battlefield under its owner's control with a "
                f"{effect.counter} counter on it.")
    return None


def modes_text(ability: SpellAbility, sentence: Callable[[Sequence[Effect]], str]) -> str:
    """The instruction to choose, then one bulleted line per mode. `sentence` renders
    effects the way `render.py` does (lowercase first word, ending in ".")."""
    lines = [CHOOSERS[ability.mode_chooser]]
    for mode in ability.modes:
        parts: list[str] = []
        for effect in mode.effects:
            text = sentence((effect,)).removesuffix(".")
            if not parts and ability.mode_chooser != "you" and _imperative(text):
                text = f"you {text}"  # another player chooses: name the controller
            elif parts and parts[0].startswith("you ") and text.startswith("you "):
                text = text.removeprefix("you ")
            parts.append(text)
        body = " and ".join(parts)
        lines.append(f"• {body[:1].upper()}{body[1:]}.")
    return "\n".join(lines)


def _imperative(text: str) -> bool:
    return text.split(" ", 1)[0] in ("put", "draw", "gain", "create", "destroy", "return")
