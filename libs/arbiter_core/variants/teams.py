"""The team variants: Team vs. Team (CR 808), Two-Headed Giant (810) and Alternating
Teams (811). Emperor, with its own ranges, is `emperor`.

- 808.1: two or more teams of any size; 808.3, 808.3a: attack multiple players by
  default; 808.3b: no deploy creatures or range of influence unless chosen; 808.4: the
  starting team's centre seat goes first; 808.5: teams don't share resources (nothing in
  the engine lets a player use another's cards) but teammates may see each other's hands.
- 810.1-810.4: two teams of two (or more, 810.11) seated together, shared team turns
  (805) and a shared life total from 30 (plus 15 a head beyond two); 810.5: only life and
  poison are shared, and teammates may see each other's hands; 810.6 (103.8b): the
  starting team skips its first draw; 704.6b: fifteen poison counters (plus five a head).
- 811.1: equal teams; 811.2: range 2 by default (811.2a), one attack option (811.2b),
  no deploy creatures (811.2c); 811.3: seated apart; 811.4: attacks only on neighbours.
"""

from __future__ import annotations

from collections import Counter

from arbiter_core.kernel.errors import InvalidCommand
from arbiter_core.kernel.rng import Rng
from arbiter_core.kernel.state import GameState
from arbiter_core.multiplayer.seating import team_seats
from arbiter_core.variants.base import Variant, variant


@variant
class TeamVsTeam(Variant):
    name = "team_vs_team"
    max_players = 100
    team_play = True
    hand_review_rule = "808.5"

    def first_player(self, seats: list[str], teams: dict[str, str]) -> str:
        """808.4: the first team's centre seat (left of the midpoint when even)."""
        members = team_seats(seats, teams, seats[0])
        # Seats run to each player's left, so "left of the midpoint" is index n//2.
        return members[len(members) // 2]


@variant
class TwoHeadedGiant(Variant):
    name = "two_headed_giant"
    starting_life = 30
    min_players = 4
    max_players = 100
    team_play = True
    shared_team_turns = True
    shared_life = True
    equal_teams = True
    hand_review_rule = "810.5"

    def check_team_sizes(self, sizes: Counter[str]) -> None:
        if min(sizes.values()) < 2:
            raise InvalidCommand("players.team", "Two-Headed Giant teams have two or more "
                                                 "players (810.1, 810.11)")

    def first_player_skips_draw(self, n_players: int) -> bool:
        """CR 103.8b, 810.6: the starting team skips its first draw."""
        return True

    def team_life(self, heads: int) -> int:
        """CR 810.4, 810.11: 30, plus 15 for each head beyond two."""
        return self.starting_life + 15 * max(0, heads - 2)

    def poison_limit(self, heads: int) -> int:
        """CR 704.6b, 810.11: fifteen for a team, plus five for each head beyond two."""
        return 15 + 5 * max(0, heads - 2)


@variant
class AlternatingTeams(Variant):
    name = "alternating_teams"
    min_players = 4
    max_players = 100
    team_play = True
    attack_adjacent_only = True
    equal_teams = True
    default_range = 2  # 811.2a
    adjacent_attack_rule = "811.4"

    def check_teams(self, seats: list[str], teams: dict[str, str]) -> None:
        n = len(seats)
        if any(teams[seats[i]] == teams[seats[(i + 1) % n]] for i in range(n)):
            raise InvalidCommand("players", "in Alternating Teams no one sits next to a "
                                            "teammate (811.3)")

    def random_seating(self, rng: Rng, names: list[str], given: dict[str, str | None]
                       ) -> list[str]:
        groups = self._shuffled_teams(rng, names, given)
        return [g[i] for i in range(len(groups[0])) for g in groups]

    def may_review_hand(self, s: GameState, seat: str, owner: str) -> bool:
        seats = list(s.seats)
        i, j = seats.index(seat), seats.index(owner)
        return abs(i - j) in (1, len(seats) - 1)
