"""`make bench` (store part): our event store next to the eventsourcing library's
recorders on the same databases, and replay speed next to a raw fetch of the same rows.

Prints ratios measured side by side in one run. Figures depend on the machine's load;
compare the ratios, not the absolute numbers.
"""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from rich.console import Console
from rich.table import Table

from arbiter_core.kernel.events import Event
from arbiter_core.kernel.evolve import apply, empty_state
from arbiter_runtime.codec import from_bodies, from_stored, validate_bodies
from arbiter_runtime.fastcodec import CODEC_NAME as FAST_CODEC
from arbiter_runtime.fastcodec import Body
from arbiter_runtime.play import play_bot_game
from arbiter_runtime.session import GameSession
from arbiter_store import CODEC_NAME, open_store
from arbiter_store.bench import format_rows, run_store_benchmarks
from arbiter_store.migrations import upgrade

PG_URL = "postgresql://postgres@127.0.0.1:5432/test"


def _best(fn: Callable[[], int], repeat: int = 3) -> tuple[float, int]:
    """(seconds, items) of the fastest of `repeat` runs."""
    best, items = float("inf"), 0
    for _ in range(repeat):
        start = time.perf_counter()
        items = fn()
        best = min(best, time.perf_counter() - start)
    return best, items


def _race(fns: dict[str, Callable[[], int]], rounds: int = 7) -> dict[str, float]:
    """The fastest time of each function, run in turn, round after round (side by side,
    so a change in the machine's load affects them all alike)."""
    best = dict.fromkeys(fns, float("inf"))
    for _ in range(rounds):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


REPLAY_TARGET = 0.25  # replay >= 25% of a raw fetch of the same rows (issue 3)


def replay_rows(db: Path, games: list[str]) -> list[tuple[str, float, float, str]]:
    """Raw fetch of the rows vs store reads vs replay (decode) vs rebuild (decode +
    evolve). Replay decodes into a list, holding every event of a game, as the raw fetch
    holds every row."""
    def raw() -> int:
        n = 0
        with sqlite3.connect(db) as conn:
            for g in games:
                n += len(conn.execute("SELECT type, schema_version, payload, rule FROM events "
                                      "WHERE stream_id = ? ORDER BY version", (g,)).fetchall())
        return n

    def bodies() -> int:
        with open_store(str(db)) as store:
            return sum(len(store.read_bodies(g)) for g in games)

    def read() -> int:
        with open_store(str(db)) as store:
            return sum(len(store.read_stream(g)) for g in games)

    def decode_dicts() -> int:
        with open_store(str(db)) as store:
            return sum(len([from_stored(r) for r in store.read_stream(g)]) for g in games)

    def decoder(decode: Callable[[list[Body]], Iterator[Event]]) -> Callable[[], int]:
        def run() -> int:
            with open_store(str(db)) as store:
                return sum(len(list(decode(store.read_bodies(g)))) for g in games)
        return run

    def rebuilder(decode: Callable[[list[Body]], Iterator[Event]]) -> Callable[[], int]:
        def run() -> int:
            n = 0
            with open_store(str(db)) as store:
                for g in games:
                    state = empty_state()
                    for event in decode(store.read_bodies(g)):
                        apply(state, event)
                    n += state.version
            return n
        return run

    n = raw()
    t = _race({"raw": raw, "bodies": bodies, "read": read, "dicts": decode_dicts,
               "pydantic": decoder(validate_bodies), "fast": decoder(from_bodies),
               "rebuild pydantic": rebuilder(validate_bodies),
               "rebuild": rebuilder(from_bodies)})
    replay, rebuild = t["raw"] / t["fast"], t["raw"] / t["rebuild"]

    def target(ratio: float) -> str:
        return f"target >= {REPLAY_TARGET}: {'met' if ratio >= REPLAY_TARGET else 'MISSED'}"

    return [("raw row fetch (sqlite3)", n / t["raw"], 1.0, ""),
            ("store read_bodies (no decoding)", n / t["bodies"], t["raw"] / t["bodies"], ""),
            (f"store read to dicts ({CODEC_NAME})", n / t["read"], t["raw"] / t["read"], ""),
            ("replay via dicts + pydantic", n / t["dicts"], t["raw"] / t["dicts"], ""),
            ("replay: bodies + pydantic-core JSON (validating)", n / t["pydantic"],
             t["raw"] / t["pydantic"], ""),
            ("replay: bodies + msgspec mirrors (trusted)", n / t["fast"], replay,
             target(replay)),
            ("rebuild state: validating replay + evolve", n / t["rebuild pydantic"],
             t["raw"] / t["rebuild pydantic"], ""),
            ("rebuild state: trusted replay + evolve", n / t["rebuild"], rebuild,
             target(rebuild))]


def snapshot_rows(url: str, game: str) -> list[tuple[str, float, float, str]]:
    with open_store(url) as store:
        t_full, _ = _best(lambda: GameSession.load(store, game, use_snapshot=False).state.version)
        t_snap, n = _best(lambda: GameSession.load(store, game).state.version)
    return [("load game: every event", n / t_full, 1.0, f"{t_full * 1000:.1f} ms"),
            ("load game: snapshot + tail", n / t_snap, t_full / t_snap,
             f"{t_snap * 1000:.1f} ms")]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pg", default=PG_URL, help="PostgreSQL URL ('' to skip)")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--replay-only", action="store_true", help="only replay vs raw fetch")
    args = ap.parse_args()
    console = Console()
    pg = None if args.replay_only else args.pg or None
    if pg:
        try:
            upgrade(pg)
        except Exception as e:
            console.print(f"PostgreSQL skipped: {e}")
            pg = None
    if not args.replay_only:
        console.print("event store: ours vs the eventsourcing library's recorder, same database")
        console.print(format_rows(run_store_benchmarks(pg)))
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite"
        games = [f"g{i}" for i in range(args.games)]
        with open_store(str(db)) as store:
            for i, g in enumerate(games):
                play_bot_game(store, g, 4, i + 1)
        t = Table(title=f"replay vs raw fetch of the same rows (SQLite file, {len(games)} "
                        f"games); replay codec: {FAST_CODEC}")
        for col in ("what", "events/s", "vs raw fetch", "note"):
            t.add_column(col)
        for name, rate, ratio, note in replay_rows(db, games) + snapshot_rows(str(db), games[0]):
            t.add_row(name, f"{rate:,.0f}", f"{ratio:.2f}", note)
        console.print(t)


if __name__ == "__main__":
    main()
