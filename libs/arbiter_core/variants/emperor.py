"""Emperor (CR 809): teams of three (or more, 809.6) with the emperor in the middle
(809.2), who goes first on the starting team (809.4); limited range of influence, 2 for
emperors and 1 for generals (809.3a; 809.6a for larger teams); deploy creatures (809.3b);
attacks only on neighbours (809.3c); a team wins, loses or draws with its emperor (809.5,
`game.ending`); teammates may see each other's hands but share no resources (809.7).
"""

from __future__ import annotations

from collections import Counter

from arbiter_core.kernel.errors import InvalidCommand
from arbiter_core.multiplayer.seating import team_seats
from arbiter_core.variants.base import Variant, variant


@variant
class Emperor(Variant):
    name = "emperor"
    min_players = 6
    max_players = 100
    team_play = True
    deploy_creatures = True
    attack_adjacent_only = True
    equal_teams = True
    adjacent_attack_rule = "809.3c"
    hand_review_rule = "809.7"

    def bot_team_size(self, players: int) -> int | None:
        return 3  # 809.1

    def check_team_sizes(self, sizes: Counter[str]) -> None:
        if min(sizes.values()) < 3:
            raise InvalidCommand("players.team", "Emperor teams have three players (809.1)")

    def first_player(self, seats: list[str], teams: dict[str, str]) -> str:
        """809.4: the starting team's emperor (its centre seat, as 808.4 counts it)."""
        members = team_seats(seats, teams, seats[0])
        return members[len(members) // 2]

    def emperors(self, seats: list[str], teams: dict[str, str]) -> list[str]:
        """CR 809.2: each team's emperor sits in its middle seat (809.6: for an even
        team, the one left of the midpoint, as 808.4 counts it)."""
        out = []
        for team in dict.fromkeys(teams[p] for p in seats):
            members = team_seats(seats, teams, next(p for p in seats if teams[p] == team))
            out.append(members[len(members) // 2])
        return out

    def ranges(self, seats: list[str], teams: dict[str, str],
               option: int | None) -> dict[str, int]:
        """CR 809.6a: each general's range is the smallest that puts one general of an
        opposing team within it as the game begins; each emperor's, the smallest that
        puts two there. With teams of three this is 809.3a's 1 and 2."""
        emperors = self.emperors(seats, teams)
        out: dict[str, int] = {}
        for p in seats:
            generals = sorted(_distance(seats, p, q) for q in seats
                              if teams[q] != teams[p] and q not in emperors)
            need = 2 if p in emperors else 1
            out[p] = generals[need - 1] if len(generals) >= need else len(seats) // 2
        return out


def _distance(seats: list[str], a: str, b: str) -> int:
    """Seats between two players around the table, the shorter way (801.2)."""
    n = len(seats)
    d = abs(seats.index(a) - seats.index(b))
    return min(d, n - d)
