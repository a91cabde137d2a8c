"""Fear (CR 702.36): "This creature can't be blocked except by artifact creatures and/or
black creatures." (702.36b), an evasion ability (509.1b) checked as blockers are
declared (`combat.declare.EVASION`); several instances are redundant (702.36c).

Its card is Wort, Boggart Auntie, a commander of the reference pool: fear, and "At the
beginning of your upkeep, you may return target Goblin card from your graveyard to your
hand." (an optional trigger, 603.5, whose target is chosen as it is put on the stack,
603.3d; the Goblin card is one its controller owns, 400.3).
"""

from __future__ import annotations

from arbiter_core.cards.build import card, kw, target
from arbiter_core.cards.model import ReturnToHand, TriggeredAbility
from arbiter_core.cards.model.base import register_keyword
from arbiter_core.cards.pool import add_card
from arbiter_core.combat.declare import EVASION
from arbiter_core.kernel.state import GameState, Obj
from arbiter_core.layers.characteristics import colors, is_type, keywords

FEAR = "fear"
register_keyword(FEAR, "fear", "This creature can't be blocked except by artifact creatures "
                               "and/or black creatures.")


def _fear(s: GameState, attacker: Obj, blocker: Obj) -> str | None:
    """702.36b: only an artifact creature or a black creature may block it."""
    if FEAR not in keywords(s, attacker):
        return None
    if is_type(blocker, "Artifact") or "B" in colors(blocker):
        return None
    return "702.36b"


EVASION.add("all", _fear)

WORT_BOGGART_AUNTIE = add_card(card(
    "Wort, Boggart Auntie", kw(FEAR, reminder=True),
    TriggeredAbility(event="your_upkeep", optional=True,
                     targets=target("goblin_card_in_your_graveyard"),
                     effects=(ReturnToHand(what=0),))))
