"""The bot game of `play.py`, split into steps that a remote driver can mirror.

`play_bot_game` (the embedded default) runs engine work until a player must act, then
lets the first waiting bot with a legal action act. A driver that plays through the
gateway does the same from the state it rebuilds from the event feed: when the engine
owes no work (`engine_idle`), `next_action` gives the action the embedded loop would take,
so the same seed gives the same log (`run_in_process` is the reference).
"""

from __future__ import annotations

from arbiter_core.kernel.commands import PlayerCommand, PlayerSetup, StartGame
from arbiter_core.kernel.shell_loop import owed_marker
from arbiter_core.kernel.state import GameState
from arbiter_runtime.bots import RandomBot
from arbiter_runtime.decks import deck_for_seat
from arbiter_runtime.play import MAX_TURNS, MAX_TURNS_PER_PLAYER, waiting_players
from arbiter_runtime.session import GameSession
from arbiter_store import EventStore


def seat_names(players: int) -> list[str]:
    return [f"P{i + 1}" for i in range(players)]


def start_command(game_id: str, players: int, seed: int, variant: str = "free_for_all",
                  deck_size: int | None = None, start_rules: bool = False) -> StartGame:
    """The StartGame of `play_bot_game`; `deck_size` cuts each deck (short test games).
    `start_rules`: the starting player chosen with the seed (103.1), mulligans (103.5)
    and trigger ordering (603.3b), as `arbiter play` has them; off, the game starts as
    the benchmarks and the services' tests expect (the first seat, hands kept)."""
    def deck(i: int) -> list[str]:
        d = deck_for_seat(i)
        return d if deck_size is None else d[:deck_size]
    return StartGame(game_id=game_id, variant=variant, seed=seed, random_seating=True,
                     random_start=start_rules, mulligans=start_rules,
                     order_triggers=start_rules,
                     players=[PlayerSetup(name=n, deck=deck(i))
                              for i, n in enumerate(seat_names(players))])


def make_bots(start: StartGame) -> dict[str, RandomBot]:
    return {p.name: RandomBot(start.seed * 1000 + i) for i, p in enumerate(start.players)}


def engine_idle(state: GameState) -> bool:
    """The engine owes no work: the game waits for a player (or is over)."""
    return owed_marker(state) is None


def next_action(state: GameState, bots: dict[str, RandomBot]) -> PlayerCommand | None:
    """The action the embedded loop takes next (call only when `engine_idle`)."""
    limit = max(MAX_TURNS, MAX_TURNS_PER_PLAYER * len(state.seats))  # as play_bot_game
    if state.turns_taken > limit:
        raise RuntimeError(f"game {state.game_id} did not end in {limit} turns")
    for player in waiting_players(state):
        action = bots[player].choose(state, player)
        if action is not None:
            return action
    return None


def run_in_process(store: EventStore, start: StartGame) -> GameState:
    """The embedded bot game for any StartGame (the reference for distributed play)."""
    session = GameSession(store, start.game_id)
    session.execute(start)
    bots = make_bots(start)
    while not session.state.game_over:
        session.run_engine()
        if session.state.game_over:
            break
        action = next_action(session.state, bots)
        if action is not None:
            session.execute(action)
    return session.state
