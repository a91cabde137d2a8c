"""How a game ends (CR 104, 800.4a): players who lose leave a multiplayer game, which
goes on without them, with their team where the variant says so (810.8a, 809.5b); the
game ends when one team is left, or none (a draw). Losing by an effect is `outcome`, by
state-based actions `sba.check`, by conceding `concede`.
"""

from __future__ import annotations

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.state import GameState
from arbiter_core.kernel.txn import Txn
from arbiter_core.multiplayer.leaving import after_all_left
from arbiter_core.variants.base import variant_of


def team_losses(s: GameState, players: list[str]) -> list[tuple[str, str]]:
    """Teammates who lose with them: in Two-Headed Giant players lose only as a team
    (810.8a); in Emperor a team loses when its emperor does (809.5b)."""
    out: list[tuple[str, str]] = []
    for p in players:
        if s.shared_life:
            rule = "810.8a"
        elif p in s.emperors:
            rule = "809.5b"
        else:
            continue
        out += [(q, rule) for q in s.team_of(p) if q not in players
                and not s.players[q].lost and (q, rule) not in out]
    return out


def handle_losses(t: Txn, players: list[str]) -> None:
    """A player who loses leaves a multiplayer game (more than two players, 800.1), which
    goes on without them (CR 800.4, 800.4a), with their team where the variant says so;
    the game ends when one team is left (104.2a, 104.2c) or none (a draw, 104.4a,
    104.4d)."""
    s = t.s
    for q, rule in team_losses(s, players):
        t.emit(ev.PlayerLost(player=q, rule=rule))
        players = [*players, q]
    if not any(not pl.lost and not pl.left for pl in t.s.players.values()):
        # CR 104.4a, 104.4d: every player (team) remaining lost at once - a draw for
        # all of them (809.5c: for a team whose emperor draws); nobody leaves first.
        check_game_end(t)
        return
    if len(s.seats) > 2:
        for p in players:
            if not t.s.players[p].left:
                t.emit(ev.PlayerLeftGame(player=p, rule="800.4a"))
    check_game_end(t)
    if not t.s.game_over:
        variant_of(t.s).players_left(t, players)
    if not t.s.game_over:
        after_all_left(t, [p for p in players if t.s.players[p].left])


def check_game_end(t: Txn) -> None:
    """The game ends when one team is left (104.2a, 104.2c) or none (a draw, 104.4a,
    104.4d)."""
    s = t.s
    standing = [p for p in s.seats if not s.players[p].lost and not s.players[p].left]
    teams = {s.players[p].team for p in standing}
    if len(teams) == 1:
        team = teams.pop()
        # CR 104.2c: each player on the winning team wins, even one who left earlier.
        winners = [p for p in s.seats if s.players[p].team == team]
        multi_team = len({pl.team for pl in s.players.values()}) < len(s.seats)
        # 809.5a (104.2d): in Emperor the team wins with its emperor.
        rule = "809.5a" if s.emperors else ("104.2c" if multi_team else "104.2a")
        t.emit(ev.GameEnded(winners=winners, rule=rule))
    elif not teams:
        multi_team = len({pl.team for pl in s.players.values()}) < len(s.seats)
        rule = "809.5c" if s.emperors else ("104.4d" if multi_team else "104.4a")
        t.emit(ev.GameEnded(winners=[], draw=True, rule=rule))
