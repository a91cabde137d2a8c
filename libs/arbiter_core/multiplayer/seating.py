"""Seating and turn order (CR 101.4, 102, 800.4a, 805): who plays after whom, who is an
opponent or a teammate, the active players with shared team turns (805.4a), APNAP order
(101.4, 805.6) and a team's primary player (805.2). Every rule asks these; the variants
decide the seating itself (`variants`)."""

from __future__ import annotations

from arbiter_core.kernel.state import GameState


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
