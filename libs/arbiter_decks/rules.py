"""Deck construction rules, one check function per rule: they live in the rules core
beside the variant classes (`arbiter_core.variants.deck_rules`, and Commander's in
`deck_commander`), and are re-exported here."""

from __future__ import annotations

from arbiter_core.variants.deck_commander import (
    color_identity,
    commander_card,
    commander_color_identity,
    commander_rules,
    commander_size,
    singleton,
)
from arbiter_core.variants.deck_rules import (
    CONSTRUCTED_SECTIONS,
    MAX_COPIES,
    MAX_SIDEBOARD,
    MIN_CONSTRUCTED,
    SECTION_RULES,
    cards,
    companion,
    constructed,
    constructed_size,
    copy_limit,
    implemented,
    known_cards,
    number,
    only_sections,
    planar_deck,
    scheme_deck,
    sideboard_size,
    single_planar_deck,
    traditional_cards,
    vanguard_card,
)

__all__ = ["CONSTRUCTED_SECTIONS", "MAX_COPIES", "MAX_SIDEBOARD", "MIN_CONSTRUCTED",
           "SECTION_RULES", "cards", "color_identity", "commander_card",
           "commander_color_identity", "commander_rules", "commander_size", "companion",
           "constructed", "constructed_size", "copy_limit", "implemented", "known_cards",
           "number", "only_sections", "planar_deck", "scheme_deck", "sideboard_size",
           "single_planar_deck", "singleton", "traditional_cards", "vanguard_card"]
