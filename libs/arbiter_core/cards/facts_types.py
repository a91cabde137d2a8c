"""The shape of one card's printed facts, as generated into `facts.py`.

These are the characteristics a card has before any ability is interpreted: name, mana
cost (CR 202), color (CR 105, 202.2), type line (CR 205), power and toughness (CR 208)
and Oracle text. They come from the reference card pool via `tools/gen_card_facts.py`;
the rules core never reads the reference files at run time.
"""

from __future__ import annotations

from dataclasses import dataclass

from arbiter_core.cards.model import Color


@dataclass(frozen=True, slots=True)
class CardFacts:
    """One card's Oracle facts (front face for double-faced cards, CR 712.8a).

    `power`/`toughness` are None for non-creatures and for characteristic-defining
    values printed as "*" (CR 208.2a). `colors` is in WUBRG order.
    """

    name: str
    mana_cost: str
    colors: tuple[Color, ...]
    supertypes: tuple[str, ...]
    types: tuple[str, ...]
    subtypes: tuple[str, ...]
    power: int | None
    toughness: int | None
    oracle_text: str
    keywords: tuple[str, ...]
    loyalty: int | None = None  # a planeswalker's printed loyalty (CR 209.1, 306.5b)
    hand_modifier: int | None = None  # a vanguard's hand modifier (902.5)
    life_modifier: int | None = None  # a vanguard's life modifier (902.4)
