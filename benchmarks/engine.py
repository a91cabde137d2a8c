"""Engine throughput: seeded 4-player bot games, with an event store and with the pure core.

    python -m benchmarks.engine [--games 20] [--players 4] [--seed 1]
    python -m benchmarks.engine --grand-melee 100 [--seed 3]   # one large game to its end
    python -m benchmarks.engine --against REV [--rounds 5] [--games 4]  # this tree / REV

Each game is played twice, side by side in one run:

* **store**: the embedded shell, `GameSession` over an in-memory SQLite event store
  (decide, append with the expected version, apply), as `play_bot_game` does;
* **pure**: the same game with the core alone, `decide` then `apply`, no store.

Both loops are the same as `arbiter_runtime.play.play_bot_game`: the engine's work is
done until a player must act, then the first waiting bot with a legal action acts. The
two runs must end in the same state (their hashes are compared). The figures are:
engine actions per second (player commands + engine work commands), events per second
and games per minute, for both, and the ratio store/pure.

`--against REV` compares two source trees instead (`benchmarks/against.py`): REV's
`libs` (exported with `git archive`) and this tree's, each in its own subprocess running
the pure-core workload (`benchmarks/engine_workload.py`), alternately for `--rounds`
rounds; it prints each round and the median ratio of pure-core events per CPU second,
this tree / REV (and the wall-clock ratio beside it).

A seed whose board explodes (Krenko, Mob Boss doubles its Goblins every turn and the
random bots rarely attack with everything) would run for hours; a game whose
battlefield passes `--max-permanents` is dropped, reported, and the next seed is played
instead, so the run still measures `--games` complete games.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

from arbiter_core.kernel.commands import StartGame
from arbiter_core.kernel.hashing import state_hash
from arbiter_runtime.play import play_bot_game
from arbiter_runtime.session import GameSession
from arbiter_store import open_store
from benchmarks import against
from benchmarks.engine_workload import GameDropped, GameRun, drive, run_pure, start_command


@dataclass
class Tally:
    """What one configuration did, summed over its games."""

    games: int = 0
    player_commands: int = 0
    engine_commands: int = 0
    events: int = 0
    seconds: float = 0.0

    @property
    def actions(self) -> int:
        return self.player_commands + self.engine_commands

    def per_second(self, n: int) -> float:
        return n / self.seconds if self.seconds > 0 else 0.0

    @property
    def games_per_minute(self) -> float:
        return 60.0 * self.per_second(self.games)


def run_with_store(start: StartGame, max_permanents: int) -> GameRun:
    with open_store(":memory:") as store:
        session = GameSession(store, start.game_id)
        began = time.perf_counter()
        players, engine, events = drive(start, lambda c: len(session.execute(c)),
                                        lambda: session.state, max_permanents)
        seconds = time.perf_counter() - began
    return GameRun(players, engine, events, seconds, state_hash(session.state))


def add(tally: Tally, run: GameRun) -> None:
    tally.games += 1
    tally.player_commands += run.player_commands
    tally.engine_commands += run.engine_commands
    tally.events += run.events
    tally.seconds += run.seconds


def report(store: Tally, pure: Tally, players: int, console: Console) -> None:
    table = Table(title=f"Arbiter engine: {store.games} seeded {players}-player bot games",
                  caption="actions = player commands + engine work commands; the last row "
                          "is store/pure (time under 'seconds', throughput elsewhere)")
    table.add_column("configuration")
    for name in ("games", "player cmds", "engine cmds", "events", "seconds",
                 "actions/s", "events/s", "games/min"):
        table.add_column(name, justify="right")
    for label, t in (("in-memory store", store), ("pure core (no store)", pure)):
        table.add_row(label, str(t.games), f"{t.player_commands:,}", f"{t.engine_commands:,}",
                      f"{t.events:,}", f"{t.seconds:.2f}",
                      f"{t.per_second(t.actions):,.0f}", f"{t.per_second(t.events):,.0f}",
                      f"{t.games_per_minute:,.1f}")

    def ratio(a: float, b: float) -> str:
        return f"{a / b:.2f}x" if b else "-"

    table.add_row("store / pure", "", "", "", "", ratio(store.seconds, pure.seconds),
                  ratio(store.per_second(store.actions), pure.per_second(pure.actions)),
                  ratio(store.per_second(store.events), pure.per_second(pure.events)),
                  ratio(store.games_per_minute, pure.games_per_minute), style="bold")
    console.print(table)


def grand_melee(players: int, seed: int, console: Console) -> int:
    """One Grand Melee bot game played to its end in one process, as `arbiter play
    --variant grand_melee` plays it (`play_bot_game`, an in-memory SQLite store): the
    time to finish, the events and turns, and the CPU time per event."""
    with open_store(":memory:") as store:
        cpu, wall = time.process_time(), time.perf_counter()
        summary = play_bot_game(store, f"bench-gm-{players}p-{seed}", players, seed,
                                variant="grand_melee")
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    table = Table(title=f"Arbiter engine: one {players}-player Grand Melee game, seed {seed}",
                  caption="in one process with an in-memory store; CPU time is this "
                          "process's, wall time includes waiting for a shared CPU")
    for name in ("events", "turns", "winners", "wall s", "CPU s", "CPU us/event"):
        table.add_column(name, justify="right")
    table.add_row(f"{summary.events:,}", f"{summary.turns:,}",
                  ", ".join(summary.winners) or ("draw" if summary.draw else "-"),
                  f"{wall:.1f}", f"{cpu:.1f}", f"{cpu / summary.events * 1e6:,.0f}")
    console.print(table)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.engine", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20, help="games to play (default 20)")
    parser.add_argument("--players", type=int, default=4, help="players per game (default 4)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument("--max-permanents", type=int, default=200,
                        help="drop a game whose battlefield grows past this (default 200)")
    parser.add_argument("--grand-melee", type=int, metavar="PLAYERS",
                        help="instead: time one Grand Melee game of PLAYERS (10-100) to its "
                             "end, seed --seed (100 players: a few minutes)")
    parser.add_argument("--against", metavar="REV",
                        help="instead: this tree's pure-core events/s over REV's, run "
                             "alternately in subprocesses (default 4 games a run)")
    parser.add_argument("--rounds", type=int, default=5,
                        help="with --against: rounds of (this tree, REV) (default 5)")
    parser.add_argument("--min-ratio", type=float,
                        help="with --against: exit 1 if the median ratio is below this")
    args = parser.parse_args(argv)
    if args.against is not None:
        games = args.games if "--games" in (argv if argv is not None else sys.argv) else 4
        if args.rounds < 1 or games < 1:
            parser.error("need --rounds >= 1 and --games >= 1")
        return against.main(args.against, args.rounds, games, args.players, args.seed,
                            args.max_permanents, args.min_ratio, Console(width=120))
    if args.grand_melee is not None:
        if not 10 <= args.grand_melee <= 100:
            parser.error("--grand-melee takes 10 to 100 players")
        console = Console() if Console().is_terminal else Console(width=120)
        return grand_melee(args.grand_melee, args.seed, console)
    if args.games < 1 or not 2 <= args.players <= 8 or args.max_permanents < 1:
        parser.error("need --games >= 1, 2 <= --players <= 8 and --max-permanents >= 1")
    console = Console()
    if not console.is_terminal:  # piped or in CI: don't squeeze the table into 80 columns
        console = Console(width=120)
    store, pure = Tally(), Tally()
    dropped: list[int] = []
    seed = args.seed
    while store.games < args.games:
        if len(dropped) > 2 * args.games:
            console.print("[red]too many games dropped; try a higher --max-permanents[/red]")
            return 1
        start = start_command(f"bench-{args.players}p-{seed}", args.players, seed)
        try:
            with_store = run_with_store(start, args.max_permanents)
        except GameDropped as exc:
            console.print(f"seed {seed}: dropped ({exc})", style="yellow", highlight=False)
            dropped.append(seed)
            seed += 1
            continue
        try:
            core_only = run_pure(start, args.max_permanents)
        except GameDropped as exc:  # the same game: it can only happen if they diverge
            console.print(f"[red]seed {seed}: the pure run was dropped ({exc})[/red]")
            return 1
        if with_store.state_hash != core_only.state_hash:
            console.print(f"[red]seed {seed}: the store and pure runs ended in different "
                          "states[/red]")
            return 1
        add(store, with_store)
        add(pure, core_only)
        console.print(f"seed {seed}: {with_store.events:,} events, "
                      f"store {with_store.seconds:.2f}s, pure {core_only.seconds:.2f}s",
                      style="dim", highlight=False)
        seed += 1
    report(store, pure, args.players, console)
    if dropped:
        console.print(f"dropped seeds (board past {args.max_permanents} permanents or no "
                      f"end): {dropped}", highlight=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
