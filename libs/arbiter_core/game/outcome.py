"""Winning and losing by effects (CR 104.2b, 104.3e), with "can't lose" / "can't win"
(Platinum Angel), "don't lose for 0 life" (Transcendence), teams (810.8a) and limited
range of influence (801.14)."""

from __future__ import annotations

import functools

from arbiter_core.cards import card_names, get_card
from arbiter_core.cards.model import CantLose, NoLossForZeroLife, OpponentsCantWin, StaticAbility
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.state import GameState
from arbiter_core.kernel.txn import Txn
from arbiter_core.multiplayer.influence import player_in_range
from arbiter_core.variants.base import opponents


@functools.cache
def _cards_with(kind: type) -> frozenset[str]:
    """Names of the cards with a static ability that has this effect."""
    return frozenset(name for name in card_names() if any(
        isinstance(ab, StaticAbility) and any(isinstance(e, kind) for e in ab.effects)
        for ab in get_card(name).abilities))


def holders(s: GameState, kind: type) -> frozenset[str]:
    """Players controlling a permanent with this static effect."""
    names = _cards_with(kind)
    return frozenset(o.controller for o in map(s.objects.__getitem__, s.battlefield)
                     if o.token is None and o.name in names)


def _static(s: GameState, kind: type, controllers: list[str]) -> bool:
    return not holders(s, kind).isdisjoint(controllers)


def _side(s: GameState, player: str) -> list[str]:
    """CR 810.8a: in Two-Headed Giant "can't lose/win" covers the whole team."""
    return s.team_of(player) if s.shared_life else [player]


def cant_lose(s: GameState, player: str) -> bool:
    return _static(s, CantLose, _side(s, player))


def cant_win(s: GameState, player: str) -> bool:
    opps = [p for q in _side(s, player) for p in opponents(s, q)]
    return _static(s, OpponentsCantWin, opps)


def no_loss_for_zero_life(s: GameState, player: str) -> bool:
    return _static(s, NoLossForZeroLife, _side(s, player))


def lose(t: Txn, player: str, rule: str) -> None:
    """The player loses unless an effect says they can't (104.3e)."""
    from arbiter_core.sba.check import handle_losses

    s = t.s
    if s.game_over or s.players[player].left or cant_lose(s, player):
        return
    t.emit(ev.PlayerLost(player=player, rule=rule))
    handle_losses(t, [player])


def highest_life_wins(t: Txn, controller: str) -> None:
    """"The player with the highest life total wins the game. If two or more players are
    tied for highest life total, the game is a draw." Only life totals within the
    controller's range of influence are seen (801.11)."""
    s = t.s
    seen = [p for p in s.in_game() if player_in_range(s, controller, p)]
    if not seen or s.game_over:
        return
    best = max(s.players[p].life for p in seen)
    top = [p for p in seen if s.players[p].life == best]
    if len(top) == 1:
        win(t, top[0])
    else:
        draw(t, controller)


def draw(t: Txn, controller: str) -> None:
    """An effect says the game is a draw (104.4c). With limited range of influence it is
    a draw for the effect's controller and every player within their range, who leave
    the game; it goes on for the others (801.15, 104.4e)."""
    from arbiter_core.multiplayer import leaving
    from arbiter_core.sba.check import check_game_end

    s = t.s
    if not s.influence:
        t.emit(ev.GameEnded(winners=[], draw=True, rule="104.4c"))
        return
    drawn = [p for p in s.in_game() if player_in_range(s, controller, p)]
    for p in drawn:
        t.emit(ev.PlayerDrew(player=p, rule="801.15"))
    for p in drawn:
        t.emit(ev.PlayerLeftGame(player=p, rule="801.15"))
    check_game_end(t)
    if not t.s.game_over:
        leaving.after_all_left(t, drawn)


def win(t: Txn, player: str) -> None:
    """CR 104.2b; 801.14: with limited range of influence the opponents within range lose
    instead; 810.8a: a team wins together."""
    from arbiter_core.sba.check import handle_losses

    s = t.s
    if s.game_over or s.players[player].left:
        return
    if s.influence:
        losers = [p for p in opponents(s, player)
                  if player_in_range(s, player, p) and not cant_lose(s, p)]
        for p in losers:
            t.emit(ev.PlayerLost(player=p, rule="801.14"))
        if losers:
            handle_losses(t, losers)
        return
    if cant_win(s, player):
        return
    team = s.players[player].team
    winners = [p for p in s.seats if s.players[p].team == team]
    t.emit(ev.GameEnded(winners=winners, rule="810.8a" if len(winners) > 1 else "104.2b"))
