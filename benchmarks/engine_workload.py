"""The engine benchmark's workload: seeded bot games on the pure core (or any shell),
runnable on another source tree.

    PYTHONPATH=<tree>/libs python benchmarks/engine_workload.py --games 4 --players 4

prints one JSON line: the games' events, engine and player commands, wall and CPU
seconds spent playing (imports and set-up excluded), each game's event count and where
`arbiter_core` was imported from. `python -m benchmarks.engine --against REV` runs this
file with REV's `libs` and with this tree's, alternately.

It must run unchanged on every tree since 23bc8a9 (before the issue 11 redesign), so it
imports only what all of them have (`commands`, `decide`, `evolve`, `hashing` and
`state`, under `arbiter_core.kernel` or, before it, `arbiter_core`; `arbiter_runtime.bots`,
`.decks`, `.play`) and finds the marker owing engine work itself, as
`tools/same_events.py` does (exempt from tests/structure/test_one_owed_marker.py for
that reason; everything else asks `arbiter_core.kernel.shell_loop.owed_marker`).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import arbiter_core
from arbiter_runtime.bots import RandomBot
from arbiter_runtime.decks import deck_for_seat
from arbiter_runtime.play import MAX_TURNS, waiting_players

if TYPE_CHECKING:
    from arbiter_core.kernel.commands import Command
    from arbiter_core.kernel.commands import StartGame as StartGameType
    from arbiter_core.kernel.state import GameState


def _core(name: str) -> Any:
    """`arbiter_core.kernel.<name>` (the core since issue 11's redesign), else the flat
    `arbiter_core.<name>` of the trees before it (23bc8a9), whichever tree `arbiter_core`
    was imported from."""
    redesigned = (Path(str(arbiter_core.__file__)).parent / "kernel").is_dir()
    return importlib.import_module(f"arbiter_core.{'kernel.' if redesigned else ''}{name}")


PlayerSetup = _core("commands").PlayerSetup
RunEngineWork = _core("commands").RunEngineWork
StartGame = _core("commands").StartGame
decide = _core("decide").decide
apply = _core("evolve").apply
empty_state = _core("evolve").empty_state
state_hash = _core("hashing").state_hash
Work = _core("state").Work


@dataclass(frozen=True)
class GameRun:
    player_commands: int
    engine_commands: int
    events: int
    seconds: float
    state_hash: str
    cpu_seconds: float = 0.0


class GameDropped(Exception):
    """The game was abandoned (its board exploded, or it did not end)."""


def start_command(game_id: str, players: int, seed: int) -> StartGameType:
    """The StartGame of `play_bot_game` (random seating, the preconstructed decks)."""
    names = [f"P{i + 1}" for i in range(players)]
    start: StartGameType = StartGame(
        game_id=game_id, variant="free_for_all" if players > 2 else "two_player", seed=seed,
        random_seating=True,
        players=[PlayerSetup(name=n, deck=deck_for_seat(i)) for i, n in enumerate(names)])
    return start


def drive(start: StartGameType, execute: Callable[[Command], int],
          state: Callable[[], GameState], max_permanents: int) -> tuple[int, int, int]:
    """The bot-game loop of `play_bot_game`: the engine's work until a player must act,
    then the first waiting bot with a legal action acts. `execute` runs a command and
    returns how many events it made. Returns (player commands, engine commands,
    events)."""
    events = execute(start)
    bots = {p.name: RandomBot(start.seed * 1000 + i) for i, p in enumerate(start.players)}
    player_commands = engine_commands = 0
    while not state().game_over:
        s = state()
        marker = next((m.number for m in s.markers.values() if isinstance(m.pending, Work)),
                      None)
        if marker is not None:
            events += execute(RunEngineWork(marker=marker))
            engine_commands += 1
            continue
        if s.turns_taken > MAX_TURNS:
            raise GameDropped(f"did not end in {MAX_TURNS} turns")
        if len(s.battlefield) > max_permanents:
            raise GameDropped(f"{len(s.battlefield)} permanents on turn {s.turns_taken}")
        for player in waiting_players(s):
            action = bots[player].choose(s, player)
            if action is not None:
                events += execute(action)
                player_commands += 1
                break
        else:
            raise RuntimeError(f"game {start.game_id}: no player can act")
    return player_commands, engine_commands, events


def run_pure(start: StartGameType, max_permanents: int) -> GameRun:
    """The game on the core alone: `decide`, then `apply` each event."""
    s = empty_state()

    def execute(command: Command) -> int:
        made = decide(s, command)
        for e in made:
            apply(s, e)
        return len(made)

    began, cpu = time.perf_counter(), time.process_time()
    players, engine, events = drive(start, execute, lambda: s, max_permanents)
    seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
    return GameRun(players, engine, events, seconds, state_hash(s), cpu)


def pure_games(games: int, players: int, seed: int, max_permanents: int) -> dict[str, Any]:
    """`games` complete pure-core games from `seed` on (dropped seeds skipped)."""
    out: dict[str, Any] = {"events": 0, "seconds": 0.0, "cpu_seconds": 0.0,
                           "engine_commands": 0,
                           "player_commands": 0, "games": {}, "dropped": [],
                           "arbiter_core": str(arbiter_core.__file__)}
    while len(out["games"]) < games:
        if len(out["dropped"]) > 2 * games:
            raise SystemExit("too many games dropped; try a higher --max-permanents")
        try:
            run = run_pure(start_command(f"bench-{players}p-{seed}", players, seed),
                           max_permanents)
        except GameDropped:
            out["dropped"].append(seed)
        else:
            out["games"][str(seed)] = run.events
            out["events"] += run.events
            out["seconds"] += run.seconds
            out["cpu_seconds"] += run.cpu_seconds
            out["engine_commands"] += run.engine_commands
            out["player_commands"] += run.player_commands
        seed += 1
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-permanents", type=int, default=200)
    args = parser.parse_args(argv)
    result = pure_games(args.games, args.players, args.seed, args.max_permanents)
    sys.stdout.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
