"""Conceding (CR 104.3a): a player may concede at any time, and leaves the game at once.
In Two-Headed Giant the conceding player's team leaves and loses with them (810.8b); in
other team variants the variant's team losses apply (809.5b); the game goes on without
them (800.4a) and what waited on them moves on (800.4h, `leaving`)."""

from __future__ import annotations

from arbiter_core.game.ending import check_game_end, team_losses
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import Concede
from arbiter_core.kernel.decide import handles
from arbiter_core.kernel.errors import InvalidCommand, RuleViolation
from arbiter_core.kernel.txn import Txn
from arbiter_core.multiplayer.leaving import after_leave
from arbiter_core.variants.base import variant_of


@handles(Concede)
def concede(t: Txn, cmd: Concede) -> None:
    """CR 104.3a: the player concedes and leaves the game at once."""
    s = t.s
    player = cmd.player
    if player not in s.players:
        raise InvalidCommand("player", f"no player named {player!r}")
    if s.players[player].left or s.players[player].lost:
        raise RuleViolation("104.3a", f"{player} is no longer in the game")
    t.emit(ev.PlayerConceded(player=player, rule="104.3a"))
    leavers = _leavers(t, player)
    check_game_end(t)
    if not t.s.game_over:
        variant_of(t.s).players_left(t, leavers)
        for q in leavers:
            for m in list(t.s.markers.values()):
                if m.number in t.s.markers:
                    after_leave(t, t.s.markers[m.number], q)


def _leavers(t: Txn, player: str) -> list[str]:
    """The players who leave with the one conceding: their Two-Headed Giant team
    (810.8b), or whoever the variant's team losses take (809.5b)."""
    s = t.s
    leavers = [player]
    if s.shared_life:  # CR 810.8b: the conceding player's team leaves and loses
        for q in s.team_of(player):
            if q != player and not t.s.players[q].left:
                t.emit(ev.PlayerLost(player=q, rule="810.8b"))
                leavers.append(q)
    if len(s.seats) > 2:
        for q in leavers:
            t.emit(ev.PlayerLeftGame(player=q, rule="800.4a"))
    if not s.shared_life:
        for q, rule in team_losses(t.s, leavers):
            t.emit(ev.PlayerLost(player=q, rule=rule))
            t.emit(ev.PlayerLeftGame(player=q, rule="800.4a"))
            leavers.append(q)
    return leavers
