"""Drawing a card (CR 121): the top card of the library goes to the hand (121.1); a
player who would draw from an empty library doesn't, and it is noted for the state-based
action that makes them lose (121.4, 704.5b)."""

from __future__ import annotations

from collections.abc import Callable

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.registry import Hooks
from arbiter_core.kernel.state import Marker
from arbiter_core.kernel.txn import Txn

#: what a variant notes about a card just drawn: (txn, player, the card's id in the
#: library, its new id) (903.9b: a commander drawn, `variants/commander_zone.py`)
DRAWN: Hooks[str, Callable[[Txn, str, int, int], None]] = Hooks("a card drawn")
#: replacement effects asked before a draw step's draw (614.1a; 903.9b: the owner of a
#: commander on top of their library): (txn, marker, player) -> True when the player is
#: asked first (the draw step goes on with the answer, `turns.steps.resume_draw_step`)
DRAW_STEP_REPLACEMENTS: Hooks[str, Callable[[Txn, Marker, str], bool]] = Hooks(
    "a draw step's draw replaced")


def draw(t: Txn, player: str, rule: str) -> None:
    """Draw the top card (CR 121.1); from an empty library, note it for 704.5b."""
    library = t.s.zone(player, "library")
    if not library:
        t.emit(ev.DrawFromEmptyLibraryAttempted(player=player, rule="121.4"))
        return
    new_id = t.new_id()
    t.emit(ev.CardDrawn(player=player, obj=library[0], new_id=new_id, rule=rule))
    for hook in DRAWN["all"]:
        hook(t, player, library[0], new_id)
