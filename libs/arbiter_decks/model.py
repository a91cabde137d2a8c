"""The records of a deck list and of its check: they live in the rules core beside the
variant classes that name their deck rules (`arbiter_core.variants.deck_model`), and
are re-exported here for the deck package and its callers."""

from __future__ import annotations

from arbiter_core.variants.deck_model import (
    CardInfo,
    CheckResult,
    DeckCheck,
    DeckEntry,
    DeckList,
    DeckRule,
    Kind,
    Resolved,
    Section,
    Violation,
)

__all__ = ["CardInfo", "CheckResult", "DeckCheck", "DeckEntry", "DeckList", "DeckRule",
           "Kind", "Resolved", "Section", "Violation"]
