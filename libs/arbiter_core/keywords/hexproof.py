"""Hexproof (CR 702.11): "This permanent can't be the target of spells or abilities your
opponents control." (702.11b). The keyword with its reminder text, and the target
restriction it makes (`stack.targets.TARGET_RESTRICTIONS`). The pool's source of it is
the vanguard Ertai ("Creatures you control have hexproof", `variants.vanguard`).
"""

from __future__ import annotations

from arbiter_core.cards.model.base import register_keyword
from arbiter_core.kernel.state import GameState, Obj
from arbiter_core.layers.characteristics import keywords
from arbiter_core.multiplayer.seating import opponents
from arbiter_core.stack.targets import TARGET_RESTRICTIONS

HEXPROOF = "hexproof"
register_keyword(HEXPROOF, "hexproof", "This permanent can't be the target of spells or "
                                       "abilities your opponents control.",
                 granted_reminder="It can't be the target of spells or abilities your "
                                  "opponents control.")


def _hexproof(s: GameState, controller: str, o: Obj) -> bool:
    """CR 702.11b: an opponent of the permanent's controller can't target it."""
    return o.zone == "battlefield" and HEXPROOF in keywords(s, o) \
        and controller in opponents(s, o.controller)


TARGET_RESTRICTIONS.add("all", _hexproof)
