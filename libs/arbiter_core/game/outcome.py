"""Winning and losing by effects (CR 104.2b, 104.3e), with "can't lose" / "can't win"
(Platinum Angel), "don't lose for 0 life" (Transcendence), teams (810.8a) and limited
range of influence (801.14)."""

from __future__ import annotations

from arbiter_core.cards.model import (
    CantLose,
    HighestLifeWinsIfNoCounters,
    LoseGame,
    NoLossForZeroLife,
    OpponentsCantWin,
    WinGame,
)
from arbiter_core.game.ending import check_game_end, handle_losses
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.edits import set_player
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import GameState, Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import static_holders
from arbiter_core.multiplayer.influence import player_in_range
from arbiter_core.multiplayer.leaving import after_all_left
from arbiter_core.multiplayer.seating import opponents
from arbiter_core.stack.items import Legal, effect, static_effect


def _static(s: GameState, kind: type, controllers: list[str]) -> bool:
    return not static_holders(s, kind).isdisjoint(controllers)


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
        after_all_left(t, drawn)


def win(t: Txn, player: str) -> None:
    """CR 104.2b; 801.14: with limited range of influence the opponents within range lose
    instead; 810.8a: a team wins together."""
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


@applies(ev.PlayerLost, ev.PlayerConceded)
def _lost(s: GameState, e: ev.PlayerLost | ev.PlayerConceded) -> None:
    set_player(s, e.player, lost=True)


@applies(ev.PlayerDrew)
def _drew(s: GameState, e: ev.PlayerDrew) -> None:
    set_player(s, e.player, drew=True)


@applies(ev.GameEnded)
def _game_ended(s: GameState, e: ev.GameEnded) -> None:
    s.game_over = True
    for name, p in s.players.items():
        if name in e.winners:
            set_player(s, name, won=True)
        elif e.draw and not p.left:
            set_player(s, name, drew=True)
        elif not p.lost and not p.drew:
            set_player(s, name, lost=True)


static_effect(CantLose, OpponentsCantWin, NoLossForZeroLife)  # `cant_lose` and the others


@effect(WinGame)
def _win_game(t: Txn, m: Marker, item: StackItem, eff: WinGame, legal: Legal,
              index: int) -> bool:
    win(t, item.controller)
    return False


@effect(LoseGame)
def _lose_game(t: Txn, m: Marker, item: StackItem, eff: LoseGame, legal: Legal,
               index: int) -> bool:
    lose(t, item.controller, "104.3e")
    return False


@effect(HighestLifeWinsIfNoCounters)
def _highest_life_wins(t: Txn, m: Marker, item: StackItem, eff: HighestLifeWinsIfNoCounters,
                       legal: Legal, index: int) -> bool:
    src = t.s.objects.get(item.source or -1)
    if src is not None and src.zone == "battlefield" and not src.counter(eff.counter):
        highest_life_wins(t, item.controller)
    return False


@explains(ev.PlayerLost)
def _explain_player_lost(before: GameState, e: ev.PlayerLost, name: Namer) -> str:
    return f"{e.player} loses the game"


@explains(ev.PlayerConceded)
def _explain_player_conceded(before: GameState, e: ev.PlayerConceded, name: Namer) -> str:
    return f"{e.player} concedes"


@explains(ev.GameEnded)
def _explain_game_ended(before: GameState, e: ev.GameEnded, name: Namer) -> str:
    if e.draw:
        return "the game ends in a draw"
    return f"the game ends: {', '.join(e.winners) or 'nobody'} wins"


@explains(ev.PlayerDrew)
def _explain_player_drew(before: GameState, e: ev.PlayerDrew, name: Namer) -> str:
    return f"the game is a draw for {e.player}"
