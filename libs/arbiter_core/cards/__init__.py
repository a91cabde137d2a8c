"""Card definitions: declarative abilities over generated Oracle facts.

`get_card` and `card_names` are the lookup API for the rules core; both are pure (the
pool is literal Python data, CR 108.1: a card's definition comes from its Oracle text).
"""

from __future__ import annotations

from arbiter_core.cards.model import CardDefinition
from arbiter_core.cards.pool import POOL

__all__ = ["POOL", "CardDefinition", "UnknownCard", "card_names", "get_card"]


class UnknownCard(KeyError):
    """No card of that name is defined in the pool."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name

    def __str__(self) -> str:
        return f"unknown card: {self.name!r}"


def get_card(name: str) -> CardDefinition:
    """The definition of the card with exactly this English name."""
    try:
        return POOL[name]
    except KeyError:
        raise UnknownCard(name) from None


def card_names() -> tuple[str, ...]:
    """The names of all defined cards, sorted."""
    return tuple(sorted(POOL))
