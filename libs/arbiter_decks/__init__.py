"""Deck lists: the players' text form (`../shared/spec/decks.md`), read by `parser`,
resolved against the Oracle name index and the engine's pool by `catalog`, and checked
against a variant's construction rules (`rules`, `check`).

`model`, `parser` and `rules` are pure (standard library only); `catalog` reads the
index shipped in this package, and `check` finds a variant's rules through the rules
core's registry. This package imports only the pure modules; `model` and `rules` are
written to move into the rules core beside the variant classes (docs/decks.md).
"""

from __future__ import annotations

from arbiter_decks.model import (
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
from arbiter_decks.parser import DeckListError, parse_deck_list, read_deck_list

__all__ = ["CardInfo", "CheckResult", "DeckCheck", "DeckEntry", "DeckList",
           "DeckListError", "DeckRule", "Kind", "Resolved", "Section", "Violation",
           "parse_deck_list", "read_deck_list"]
