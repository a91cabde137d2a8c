"""Information about a specific player (CR 800.4i): the current information while the
player is in the game; once they have left it, the last known information from just
before they left.

A player who leaves keeps their `Player` record (life, poison, counters of the game) and
their hand size as they left (`hand_left_with`, set when they leave; their cards are
gone, CR 800.4a). Nyxathid's "for each card in the chosen player's hand" reads it here.
"""

from __future__ import annotations

import functools

from arbiter_core.cards import get_card
from arbiter_core.cards.model import PerCardInChosenPlayersHand, StaticAbility
from arbiter_core.kernel.state import GameState, Obj


def hand_size(s: GameState, player: str) -> int:
    """CR 800.4i: the number of cards in the player's hand - now, or, for a player who
    has left the game, as they left it."""
    pl = s.players[player]
    return pl.hand_left_with if pl.left else len(s.zone(player, "hand"))


@functools.cache
def _per_card(name: str) -> tuple[PerCardInChosenPlayersHand, ...]:
    return tuple(eff for ab in get_card(name).abilities if isinstance(ab, StaticAbility)
                 for eff in ab.effects if isinstance(eff, PerCardInChosenPlayersHand))


def chosen_hand_modifier(s: GameState, o: Obj) -> tuple[int, int]:
    """Layer 7c (CR 613.4c): "~ gets -1/-1 for each card in the chosen player's hand"
    (Nyxathid), counted with the chosen player's information (800.4i). Nothing before a
    player is chosen."""
    if o.token is not None or o.face_down or o.chosen_player is None \
            or o.chosen_player not in s.players:
        return 0, 0
    effects = _per_card(o.name)
    if not effects:
        return 0, 0
    n = hand_size(s, o.chosen_player)
    return sum(e.power for e in effects) * n, sum(e.toughness for e in effects) * n
