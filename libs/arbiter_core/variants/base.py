"""Variants as small hooks (python-chess style): setup, teams, turn order, game end.

`two_player` is the base game. The multiplayer variants (CR 806-811) differ in teams,
shared turns and life, default options, the starting player and attack restrictions;
options (range of influence, attack left/right/multiple, deploy creatures, shared team
turns) compose with any of them. Other variants are rejected with `UnsupportedVariant`
until their issues land.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from arbiter_core.kernel.errors import InvalidCommand
from arbiter_core.kernel.state import GameState


class UnsupportedVariant(InvalidCommand):
    def __init__(self, name: str) -> None:
        super().__init__("variant", f"variant {name!r} is not supported yet")


@dataclass(frozen=True)
class Variant:
    name: str
    starting_life: int = 20  # CR 103.4
    min_players: int = 2
    max_players: int = 100
    team_play: bool = False  # players belong to teams of more than one
    shared_team_turns: bool = False  # 805 (always in 2HG, 810.2)
    shared_life: bool = False  # 810.4
    default_attack: Literal["left", "right", "multiple", "any"] = "multiple"
    deploy_creatures: bool = False  # 804 (always in Emperor, 809.3b; for teams, 804.1)
    attack_adjacent_only: bool = False  # 809.3c, 811.4
    equal_teams: bool = False
    default_range: int | None = None  # 807.2a, 811.2a
    grand_melee: bool = False

    def first_player_skips_draw(self, n_players: int) -> bool:
        """CR 103.8a two-player; 103.8b/810.6 the first 2HG team; 103.8c and 800.7
        nobody else."""
        return n_players == 2 or self.shared_life

    def team_life(self, heads: int) -> int:
        """CR 810.4, 810.11: 30, plus 15 for each head beyond two."""
        return self.starting_life + 15 * max(0, heads - 2) if self.shared_life else \
            self.starting_life

    def poison_limit(self, heads: int) -> int:
        """CR 704.5c: ten; CR 704.6b, 810.11: fifteen for a 2HG team, plus five a head."""
        return 15 + 5 * max(0, heads - 2) if self.shared_life else 10

    def first_player(self, seats: list[str], teams: dict[str, str]) -> str:
        """Who starts. 808.4: the first team's centre seat (left of the midpoint when
        even); 809.4: the first team's emperor; otherwise the first seat (103.1)."""
        if self.name in ("team_vs_team", "emperor"):
            members = team_seats(seats, teams, seats[0])
            # Seats run to each player's left, so "left of the midpoint" is index n//2.
            return members[len(members) // 2]
        return seats[0]

    def emperors(self, seats: list[str], teams: dict[str, str]) -> list[str]:
        """CR 809.2: each team's emperor sits in its middle seat (809.6: for an even
        team, the one left of the midpoint, as 808.4 counts it)."""
        if self.name != "emperor":
            return []
        out = []
        for team in dict.fromkeys(teams[p] for p in seats):
            members = team_seats(seats, teams, next(p for p in seats if teams[p] == team))
            out.append(members[len(members) // 2])
        return out

    def ranges(self, seats: list[str], teams: dict[str, str],
               option: int | None) -> dict[str, int]:
        """CR 801.2a; 809.3a emperors 2 and generals 1, which is 809.6a's rule for teams
        of three; otherwise the chosen range, or the variant's default (807.2a, 811.2a)."""
        if self.name == "emperor":
            return emperor_ranges(seats, teams, self.emperors(seats, teams))
        option = option if option is not None else self.default_range
        if option is None:
            return {}
        return dict.fromkeys(seats, option)


def _distance(seats: list[str], a: str, b: str) -> int:
    """Seats between two players around the table, the shorter way (801.2)."""
    n = len(seats)
    d = abs(seats.index(a) - seats.index(b))
    return min(d, n - d)


def emperor_ranges(seats: list[str], teams: dict[str, str],
                   emperors: list[str]) -> dict[str, int]:
    """CR 809.6a: each general's range is the smallest that puts one general of an
    opposing team within it as the game begins; each emperor's, the smallest that puts
    two there. With teams of three this is 809.3a's 1 and 2."""
    out: dict[str, int] = {}
    for p in seats:
        generals = sorted(_distance(seats, p, q) for q in seats
                          if teams[q] != teams[p] and q not in emperors)
        need = 2 if p in emperors else 1
        out[p] = generals[need - 1] if len(generals) >= need else len(seats) // 2
    return out


def team_seats(seats: list[str], teams: dict[str, str], player: str) -> list[str]:
    """`player`'s team in its seats from right to left (each next seat is to the left
    of the previous one), starting with the rightmost seat from the team's own
    perspective: the seat whose right-hand neighbour isn't a teammate (805.2). A team
    may sit across the end of the seating list."""
    team = teams[player]
    n = len(seats)
    members = [i for i in range(n) if teams[seats[i]] == team]
    starts = [i for i in members if teams[seats[(i - 1) % n]] != team]
    first = starts[0] if starts else members[0]
    return [seats[(first + k) % n] for k in range(n) if teams[seats[(first + k) % n]] == team]


TWO_PLAYER = Variant("two_player", max_players=2)
# 806.1: individuals; 806.2: options chosen before play; 806.2a: a range of influence,
# if used, is the same for each player; 806.2b: one attack option, by default attack
# multiple players (the spec); 806.2c: no deploy creatures (setup rejects it).
FREE_FOR_ALL = Variant("free_for_all")
# 810.1-810.4: two teams of two (or more, 810.11) seated together, shared team turns
# (805) and a shared life total from 30; 810.5: only life and poison are shared.
TWO_HEADED_GIANT = Variant("two_headed_giant", starting_life=30, min_players=4,
                           team_play=True, shared_team_turns=True, shared_life=True,
                           equal_teams=True)  # 810
# 808.1: two or more teams of any size; 808.3, 808.3a: attack multiple players by
# default; 808.3b: no deploy creatures or range of influence unless chosen; 808.5: teams
# don't share resources (nothing in the engine lets a player use another's cards).
TEAM_VS_TEAM = Variant("team_vs_team", min_players=2, team_play=True)
# 809.1-809.3: teams of three (or more, 809.6), emperor in the middle, ranges 809.3a and
# 809.6a, deploy creatures 809.3b, attacks only on neighbours 809.3c; 809.5: a team wins,
# loses or draws with its emperor (sba.py); 809.7: teams don't share resources.
EMPEROR = Variant("emperor", min_players=6, team_play=True, deploy_creatures=True,
                  attack_adjacent_only=True, equal_teams=True)
GRAND_MELEE = Variant("grand_melee", min_players=2, default_attack="left", default_range=1,
                      grand_melee=True)  # 807.2
# 811.1: equal teams; 811.2: options before play: range 2 (811.2a), one attack option
# (811.2b, attack multiple by default), no deploy creatures (811.2c); 811.3: seated apart
# (setup.py); 811.4: attacks only on neighbours; 811.5: teams don't share resources.
ALTERNATING_TEAMS = Variant("alternating_teams", min_players=4, team_play=True,
                            attack_adjacent_only=True, equal_teams=True,
                            default_range=2)  # 811; 811.2a: range 2 by default

_VARIANTS = {v.name: v for v in (TWO_PLAYER, FREE_FOR_ALL, TWO_HEADED_GIANT, TEAM_VS_TEAM,
                                 EMPEROR, ALTERNATING_TEAMS, GRAND_MELEE)}
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


def next_turn_player(s: GameState, holder: str) -> str | None:
    """Who takes the next turn: the next player to the left, or with shared team turns
    the first player of the next team (CR 805.4)."""
    if not s.shared_team_turns:
        return next_in_turn_order(s, holder)
    team = s.players[holder].team
    for p in turn_order_from(s, holder):
        if s.players[p].team != team:
            return team_representative(s, p)
    return None


def team_representative(s: GameState, player: str) -> str:
    """The team's primary player still in the game: the rightmost seat from the team's
    perspective (805.2). With shared team turns the team's turns, priority and choices
    go through this seat; any teammate may act for the team (805.5a)."""
    teams = {p: s.players[p].team for p in s.seats}
    members = [p for p in team_seats(s.seats, teams, player) if not s.players[p].left]
    return members[0] if members else player


def apnap_order(s: GameState, holder: str) -> list[str]:
    """Players still in the game in APNAP order (101.4) from the active player; with
    shared team turns, each player of the active team, then each nonactive team in
    turn order (805.6, 805.7), every team from its primary player."""
    order = turn_order_from(s, holder)
    if not s.shared_team_turns:
        return order
    teams = {p: s.players[p].team for p in s.seats}
    out: list[str] = []
    for p in order:
        if p not in out:
            out += [q for q in team_seats(s.seats, teams, p) if not s.players[q].left]
    return out


def active_players(s: GameState, holder: str) -> list[str]:
    """The active player, or each member of the active team (805.4a)."""
    if s.shared_team_turns:
        teams = {p: s.players[p].team for p in s.seats}
        return [p for p in team_seats(s.seats, teams, holder) if not s.players[p].left]
    return [] if s.players[holder].left else [holder]


def opponents(s: GameState, player: str) -> list[str]:
    """Opponents still in the game (CR 102.2, 102.3): players on other teams."""
    team = s.players[player].team
    return [p for p in s.in_game() if s.players[p].team != team]


def teammates(s: GameState, player: str) -> list[str]:
    """Other players on `player`'s team still in the game (CR 102.3)."""
    team = s.players[player].team
    return [p for p in s.in_game() if s.players[p].team == team and p != player]
