"""The first turn begins (CR 103.6-103.8): once the opening hands are kept, the
opening-hand actions (103.6, registered by the cards that have them in
`OPENING_HAND_ACTIONS`), then the starting player takes the first turn (103.8) with its
draw step skipped where 103.8a-b say (the variant's `first_player_skips_draw`).

Also the order in which players act before the first turn: the starting player, then
each other player in turn order (103.5, 103.6); with shared team turns each player of the
starting team, then each player of each other team in turn order (103.5d, 103.6c). The
starting team may take its turns in another order: the mulligan declarations let a
teammate answer first (805.3a, `mulligan`), and the opening-hand actions ask the team
who acts next (805.3b, `opening_hand`).
"""

from __future__ import annotations

from collections.abc import Callable

from arbiter_core.kernel.registry import Hooks
from arbiter_core.kernel.state import Step
from arbiter_core.kernel.txn import Txn
from arbiter_core.multiplayer.seating import turn_order_from
from arbiter_core.variants.base import variant_of

#: (txn, the starting player, players in the order of 103.6) -> True while a player is
#: asked (the answer calls `begin_first_turn` again): cards' opening-hand actions
OpeningHandAction = Callable[[Txn, str, list[str]], bool]
OPENING_HAND_ACTIONS: Hooks[str, OpeningHandAction] = Hooks("opening-hand action")


def starting_order(t: Txn, first: str) -> list[str]:
    """Players still in the game in the order of 103.5 and 103.6: the starting player,
    then turn order; by teams with shared team turns (103.5d, 103.6c)."""
    s = t.s
    order = turn_order_from(s, first)
    if not s.shared_team_turns:
        return order
    teams = list(dict.fromkeys(s.players[p].team for p in order))
    return [p for team in teams for p in order if s.players[p].team == team]


def begin_first_turn(t: Txn, first: str) -> None:
    """103.6: the opening-hand actions; 103.8: the starting player's first turn (the
    next player in turn order if the starting player left during the procedure,
    800.4a)."""
    if t.s.game_over:
        return
    order = starting_order(t, first)
    if not order:
        return
    first = order[0] if t.s.players[first].left else first
    if any(action(t, first, order) for action in OPENING_HAND_ACTIONS["all"]):
        return  # a player decides; the answer begins the first turn
    s = t.s
    v = variant_of(s)
    v.place_markers(t, list(s.seats), first, 1, Step.UNTAP.value, {},
                    v.first_player_skips_draw(len(s.seats)), "103.8")
