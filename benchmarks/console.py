"""`make bench` (judge console part): how long the console takes to open the last event
of a 100-player Grand Melee game (~140,000 events), and the other reads a judge makes.

    python -m benchmarks.console [--db FILE --game ID] [--players 100 --seed 1]

Without `--db` it first plays the game with `arbiter play`'s bot loop into a temporary
SQLite store (about 12 minutes here, not timed). Each read is timed from a cold console
(a new `ConsoleReads`: nothing cached) unless said otherwise, through the same code the
API routes run, including the JSON encoding of the answer. The target for opening the
last event is under 2 s on this 2-core machine.

What makes it fast (console/history.py): the state at event N starts from the nearest
state already at hand - the store's snapshot at or below N (written every few thousand
events by `arbiter play` and the services), an in-memory checkpoint (every 1,000 events
that a replay passes), or the last state asked for (stepping costs one event) - and
applies only the events in between, decoded by the fast codec; the timeline reads one
page of events; the index the filters need is built once per game in the background,
with its progress shown.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arbiter_gateway.console.reads import ConsoleReads, Filters, RuleUrl
from arbiter_runtime.play import play_bot_game
from arbiter_store import EventStore, open_store

TARGET_S = 2.0


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def encode(model: Any) -> int:
    return len(model.model_dump_json())


def measure(store: EventStore, game: str) -> list[tuple[str, float, str]]:
    total = store.stream_version(game)
    rows: list[tuple[str, float, str]] = []
    cold = ConsoleReads(store)
    s, size = timed(lambda: encode(cold.board(game, None, None, True)))
    rows.append(("open the last event (judge view), cold", s, f"{size / 1e3:.0f} kB of JSON"))
    s, _ = timed(lambda: encode(cold.board(game, total - 1, None, True)))
    rows.append(("step back one event", s, ""))
    s, _ = timed(lambda: encode(cold.timeline(game, Filters(), total - 100, 100, True)))
    rows.append(("the timeline's last page (100 events, in words)", s, ""))
    s, why = timed(lambda: cold.why(game, total, RuleUrl(None)))
    rows.append(("Why? of the last event", s, f"{len(why.chain)} causes"))
    middle = total // 2 + 7
    s, _ = timed(lambda: encode(ConsoleReads(store).board(game, middle, None, True)))
    rows.append((f"open event {middle}, cold", s, "from the snapshot below it"))
    s, _ = timed(lambda: encode(ConsoleReads(store).board(game, total, "P1", False)))
    rows.append(("open the last event as seat P1, cold", s, ""))
    s, _ = timed(lambda: _index(cold, game))
    rows.append(("build the filter index (once per game, in the background)", s,
                 f"{total} events"))
    s, page = timed(lambda: cold.timeline(game, Filters(rule="704.5g"), 0, 100, True))
    rows.append(("filter by rule 704.5g (index built): a page of 100 in words", s,
                 f"{page.matching} events, each line replayed from its checkpoint"))
    return rows


def _index(reads: ConsoleReads, game: str) -> int:
    while True:
        index, indexed, total = reads.histories.index(game)
        if indexed >= total and not index.building:
            return indexed
        time.sleep(0.05)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", help="a store holding the game (default: play one)")
    ap.add_argument("--game", help="the game id (default: the store's only game)")
    ap.add_argument("--players", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db
        if db is None:
            db = str(Path(tmp) / "melee.sqlite")
            game = f"grand_melee-{args.players}p-seed{args.seed}"
            print(f"playing a {args.players}-player Grand Melee game (not timed) ...",
                  flush=True)
            with open_store(db) as w:
                t0 = time.perf_counter()
                played = play_bot_game(w, game, args.players, args.seed, "grand_melee")
                print(f"  {played.events} events in {time.perf_counter() - t0:.0f} s",
                      flush=True)
        with open_store(db, read_only=True) as store:
            game = args.game or store.stream_ids()[0]
            print(f"judge console on {game}: {store.stream_version(game)} events, "
                  f"{len(store.snapshots(game))} snapshots")
            for what, s, note in measure(store, game):
                print(f"  {what:<58} {s:7.3f} s  {note}")
            last = measure_last(store, game)
            verdict = "within" if last < TARGET_S else "OVER"
            print(f"open the last event: {last:.3f} s ({verdict} the {TARGET_S:.0f} s target)")


def measure_last(store: EventStore, game: str, repeat: int = 3) -> float:
    """The best of `repeat` cold opens of the last event."""
    return min(timed(lambda: encode(ConsoleReads(store).board(game, None, None, True)))[0]
               for _ in range(repeat))


if __name__ == "__main__":
    main()
