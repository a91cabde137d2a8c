"""Effects as Oracle-style sentences (CR 608.2c order): each effect model's wording is
registered (`@wording`), and this module puts them together - how consecutive effects
share a sentence or a paragraph, "you may" (603.5), and delayed triggers written after
the effects (603.7)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from arbiter_core.cards.model import (
    CantLose,
    CardDefinition,
    Detain,
    Effect,
    GainControl,
    GainLife,
    LoseLife,
    OpponentsCantWin,
    Proliferate,
    TargetSpec,
    Untap,
)
from arbiter_core.cards.render_words import EFFECT_REMINDERS, Context, capitalise
from arbiter_core.kernel.registry import Registry

WORDING: Registry[type, Callable[[Any, Context], str]] = Registry("effect wording")
_WORDING = WORDING.table
E = TypeVar("E")


def wording(model: type[E]) -> Callable[[Callable[[E, Context], str]],
                                        Callable[[E, Context], str]]:
    """Register the decorated function as the Oracle wording of `model`: one sentence,
    ending in ".", starting lowercase unless with a name. A mechanic registers its
    effects' wording beside its rule; the pool's are `wording_base` and
    `wording_multiplayer`."""
    def add(fn: Callable[[E, Context], str]) -> Callable[[E, Context], str]:
        WORDING.add(model, fn)
        return fn
    return add


def effect_sentence(effect: Effect, ctx: Context) -> str:
    """One effect as a sentence (ending in "."), starting lowercase unless with a name."""
    words = _WORDING.get(type(effect))
    if words is None:
        raise TypeError(f"no wording for effect {effect!r}")
    return words(effect, ctx)


def with_reminder(text: str, effect: Effect) -> str:
    if getattr(effect, "reminder", False):
        return f"{text} ({EFFECT_REMINDERS[effect.kind]})"
    return text


def shares_sentence(previous: Effect, effect: Effect) -> bool:
    """Whether `effect` continues `previous`'s sentence after "and"."""
    if isinstance(previous, Untap) and isinstance(effect, GainControl):
        # "Untap target creature ... and gain control of it"
        return effect.subject == "target" and effect.target == previous.target
    if isinstance(previous, GainLife) and isinstance(effect, LoseLife):
        return True  # "you gain that much life and attacking player loses that much life"
    # "You can't lose the game and your opponents can't win the game."
    return isinstance(previous, CantLose) and isinstance(effect, OpponentsCantWin)


#: effects the Oracle prints as a paragraph of their own, whatever follows (a mechanic
#: module adds its model: Leadership Vacuum's "... to the command zone." then "Draw a
#: card.")
OWN_PARAGRAPH: set[type] = set()


def ends_paragraph(effect: Effect) -> bool:
    """A keyword action printed with its reminder text stands as its own paragraph
    ("Proliferate. (...)" then "Draw a card." on the next line)."""
    if type(effect) in OWN_PARAGRAPH:
        return True
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
