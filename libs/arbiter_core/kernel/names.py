"""The names the state uses for the steps of a turn (CR 500.1, 501-514) and the zones
(CR 400.1). `state` re-exports them."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal


class Step(StrEnum):
    """Steps of a turn in order (CR 500.1, 501-514)."""

    UNTAP = "untap"
    UPKEEP = "upkeep"
    DRAW = "draw"
    PRECOMBAT_MAIN = "precombat_main"
    BEGINNING_OF_COMBAT = "beginning_of_combat"
    DECLARE_ATTACKERS = "declare_attackers"
    DECLARE_BLOCKERS = "declare_blockers"
    FIRST_STRIKE_DAMAGE = "first_strike_damage"
    COMBAT_DAMAGE = "combat_damage"
    END_OF_COMBAT = "end_of_combat"
    POSTCOMBAT_MAIN = "postcombat_main"
    END = "end"
    CLEANUP = "cleanup"


COMBAT_STEPS = frozenset(
    {
        Step.BEGINNING_OF_COMBAT,
        Step.DECLARE_ATTACKERS,
        Step.DECLARE_BLOCKERS,
        Step.FIRST_STRIKE_DAMAGE,
        Step.COMBAT_DAMAGE,
        Step.END_OF_COMBAT,
    }
)
MAIN_STEPS = frozenset({Step.PRECOMBAT_MAIN, Step.POSTCOMBAT_MAIN})

Zone = Literal["library", "hand", "battlefield", "graveyard", "exile", "stack", "command",
               "planar_deck", "scheme_deck"]
#: the parts of the command zone that are a player's supplementary deck: a planar deck
#: (901.4) and a scheme deck (904.4); their cards are in the command zone, face down
SUPPLEMENTARY_DECKS: tuple[Zone, ...] = ("planar_deck", "scheme_deck")
PLAYER_ZONES: tuple[Zone, ...] = ("library", "hand", "graveyard", "exile", "command")
