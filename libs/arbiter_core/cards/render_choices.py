"""Wording for modal spells (CR 700.2); `render.py` calls it.

Modes (CR 700.2) are printed as a bulleted list after the instruction to choose ("An
opponent chooses one —", 700.2e). Within a mode, effects share one sentence joined by
"and"; when an opponent chooses, the spell's controller is named as "You", and a later
effect of the same mode drops the repeated subject ("You put ... and gain 4 life").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from arbiter_core.cards.model import Effect, SpellAbility

CHOOSERS = {"you": "Choose one —", "an_opponent": "An opponent chooses one —"}


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
