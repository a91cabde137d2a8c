"""Grand Melee (CR 807): ten or more players (any number here, 807.1), limited range of
influence 1 and attack left by default (807.2a), several turn markers - one for each
full four players, handed out four seats apart from the starting player (807.4a-b) - and
one stack per marker (807.5). The marker rules themselves are `multiplayer.grand_melee`;
this class is where the turn structure hooks into them.
"""

from __future__ import annotations

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.errors import InvalidCommand
from arbiter_core.kernel.state import Marker
from arbiter_core.kernel.txn import Txn
from arbiter_core.multiplayer import grand_melee as markers
from arbiter_core.multiplayer.seating import active_players
from arbiter_core.variants.base import Variant, variant


@variant
class GrandMelee(Variant):
    name = "grand_melee"
    max_players = 100
    default_attack = "left"  # 807.2a
    default_range = 1  # 807.2a
    grand_melee = True

    def place_markers(self, t: Txn, seats: list[str], first: str, turn: int, step: str,
                      given: dict[int, str], skip_draw: bool, rule: str) -> None:
        """CR 807.4b: every marker's holder starts a turn at once (a position may give
        the markers' holders)."""
        placed = dict(given) or dict(enumerate(markers.first_holders(seats, first), 1))
        for number, holder in sorted(placed.items()):
            if holder not in seats:
                raise InvalidCommand("turn_markers", f"no player named {holder!r}")
            t.emit(ev.MarkerPlaced(marker=number, holder=holder, turn=turn, step=step,
                                   rule="807.4b"))

    def untapping(self, t: Txn, m: Marker) -> None:
        """Grand Melee turns begin in `markers.start_turn`: "until your next turn"
        effects of the players now taking a turn end as the untap step begins
        (701.35a)."""
        actives = active_players(t.s, m.holder)
        for f in list(t.s.effects):
            if f.until == "your_next_turn" and f.controller in actives:
                t.emit(ev.EffectEnded(effect=f.id, rule="701.35a"))

    def turn_ended(self, t: Txn, m: Marker) -> bool:
        """CR 807.4c-d: the marker passes to the left, and waits while another marker is
        within three seats to its new holder's left."""
        markers.end_turn(t, m)
        return True

    def players_left(self, t: Txn, players: list[str]) -> None:
        """CR 807.4c, 807.4e-g: markers held by leavers move on; markers beyond one for
        each full four players are designated for removal."""
        markers.on_leave(t, players)
