"""Variants as small hooks (python-chess style): setup, turn order, opponents, game end.

`two_player` is the base game; `free_for_all` (CR 806) plays to the left with the attack
multiple players option by default (CR 806.2b, 802). Other variants register here as
their issues land; until then they are rejected with `UnsupportedVariant`.
"""

from __future__ import annotations

from dataclasses import dataclass

from arbiter_core.errors import InvalidCommand
from arbiter_core.state import GameState


class UnsupportedVariant(InvalidCommand):
    def __init__(self, name: str) -> None:
        super().__init__("variant", f"variant {name!r} is not supported yet")


@dataclass(frozen=True)
class Variant:
    name: str
    starting_life: int = 20  # CR 103.4
    min_players: int = 2
    max_players: int = 2
    default_attack: str = "multiple"

    def first_player_skips_draw(self, n_players: int) -> bool:
        """CR 103.8a (two-player) and 103.8c (other multiplayer games: nobody skips)."""
        return n_players == 2

    def multiplayer(self, s: GameState) -> bool:
        return len(s.seats) > 2


TWO_PLAYER = Variant("two_player", max_players=2)
FREE_FOR_ALL = Variant("free_for_all", min_players=2, max_players=100)

_VARIANTS = {v.name: v for v in (TWO_PLAYER, FREE_FOR_ALL)}
KNOWN_VARIANTS = (
    "two_player", "free_for_all", "two_headed_giant", "grand_melee", "team_vs_team",
    "emperor", "alternating_teams", "commander", "planechase", "vanguard", "archenemy",
)


def get_variant(name: str) -> Variant:
    v = _VARIANTS.get(name)
    if v is None:
        if name in KNOWN_VARIANTS:
            raise UnsupportedVariant(name)
        raise InvalidCommand("variant", f"unknown variant {name!r}")
    return v


# ------------------------------------------------------------------ seating helpers


def turn_order_from(s: GameState, player: str) -> list[str]:
    """Players still in the game in turn order starting with `player` (CR 101.4, 800.4a);
    if `player` has left, start from the next seat to their left."""
    seats = s.seats
    i = seats.index(player)
    ordered = seats[i:] + seats[:i]
    return [p for p in ordered if not s.players[p].left]


def next_in_turn_order(s: GameState, player: str) -> str | None:
    """The next player to the left still in the game (CR 101.4, 806.3)."""
    seats = s.seats
    i = seats.index(player)
    for k in range(1, len(seats) + 1):
        p = seats[(i + k) % len(seats)]
        if not s.players[p].left:
            return p
    return None


def opponents(s: GameState, player: str) -> list[str]:
    """Opponents still in the game (CR 102.2, 102.3): players on other teams."""
    team = s.players[player].team
    return [p for p in s.in_game() if s.players[p].team != team]
