"""Side-by-side store benchmarks: our store against the ``eventsourcing`` library.

:func:`run_store_benchmarks` measures, on each backend (a temporary SQLite file, and
a temporary schema of the PostgreSQL database ``pg_url`` if given), in one run, for
our store and for both of eventsourcing's recorders, with ``ratio = ours / theirs``
(above 1: we are faster):

* appends/s of single events to one stream, and events/s of 100-event batches;
* appends/s with 8 writer threads on 8 streams (one store object / one recorder
  with a pool of 8 connections, shared by the threads), after which our log is
  checked to be gapless;
* events/s reading one stream of all the batches (against the AggregateRecorder).

Which comparison is like-for-like: eventsourcing's ``*ApplicationRecorder`` keeps a
global order (notification ids, under a table lock on PostgreSQL), as ours keeps
gapless global positions in commit order; its ``*AggregateRecorder`` keeps only
per-aggregate versions (no global order, so concurrent writers never wait for each
other), which is less work than ours.  Ours also validates, hashes (the tamper-evident
chain), records stream heads, NOTIFYs on PostgreSQL and returns the ``StoredEvent``
objects it wrote (their payloads decoded on first access, which the append benchmarks
do not make: eventsourcing's recorders return nothing to decode; both sides decode every
payload in the read benchmark).

Fairness: both sides append the same events and encode the payload (msgspec JSON) in
the timed loops; they use the same disk (SQLite files in one temporary directory) or
the same database and schema (PostgreSQL), and the same durability: SQLite in WAL mode
with ``synchronous=FULL`` (eventsourcing's default too), PostgreSQL's defaults
(``synchronous_commit=on``) for both.  Each benchmark runs its sides in alternating
rounds, so that drifting machine load affects them alike.  eventsourcing is a dev
dependency (``pip install -e '.[dev]'``).  ``python -m arbiter_store.bench [PG_URL]``
prints a table.  Numbers depend on the disk's fsync latency and on the machine's load.
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec

from .model import EventStore, NewEvent

__all__ = ["run_store_benchmarks"]

_PAYLOAD: dict[str, Any] = {"card": "Lightning Bolt", "targets": ["player-2"], "zone": "stack",
                            "mana": {"R": 1}, "seed": 1234567, "note": "x" * 80}
_encode = msgspec.json.Encoder(order="sorted").encode
_decode = msgspec.json.Decoder(dict[str, Any]).decode

Row = dict[str, Any]


class _Theirs:
    """eventsourcing's recorder behind the few calls the benchmarks need."""

    def __init__(self, recorder: Any, datastore: Any) -> None:
        self.recorder, self.datastore = recorder, datastore
        recorder.create_table()

    def append(self, stream: str, version: int, count: int) -> None:
        from eventsourcing.persistence import StoredEvent

        self.recorder.insert_events([
            StoredEvent(originator_id=stream, originator_version=version + i,
                        topic="bench:Happened", state=_encode(_PAYLOAD))
            for i in range(1, count + 1)])

    def read(self, stream: str) -> int:
        return len([_decode(event.state) for event in self.recorder.select_events(stream)])

    def close(self) -> None:
        self.datastore.close()


def _sqlite_theirs(directory: Path, name: str, application: bool = False) -> _Theirs:
    from eventsourcing.sqlite import (
        SQLiteAggregateRecorder,
        SQLiteApplicationRecorder,
        SQLiteDatastore,
    )

    datastore = SQLiteDatastore(str(directory / f"{name}.sqlite"), originator_id_type="text",
                                pool_size=8, lock_timeout=30)
    kind = SQLiteApplicationRecorder if application else SQLiteAggregateRecorder
    return _Theirs(kind(datastore), datastore)


def _postgres_theirs(pg_url: str, schema: str, application: bool = False) -> _Theirs:
    from eventsourcing.postgres import (
        PostgresAggregateRecorder,
        PostgresApplicationRecorder,
        PostgresDatastore,
    )
    from psycopg.conninfo import conninfo_to_dict

    params = conninfo_to_dict(pg_url)
    datastore = PostgresDatastore(
        str(params.get("dbname", "postgres")), str(params.get("host", "127.0.0.1")),
        str(params.get("port", 5432)), str(params.get("user", "postgres")),
        str(params.get("password", "")), schema=schema, originator_id_type="text",
        pool_size=8)
    kind = PostgresApplicationRecorder if application else PostgresAggregateRecorder
    table = "app_events" if application else "agg_events"
    return _Theirs(kind(datastore, events_table_name=table), datastore)


def _timed(work: Callable[[int], None], round_: int) -> float:
    start = time.perf_counter()
    work(round_)
    return time.perf_counter() - start


def _threads(count: int, work: Callable[[int], None]) -> float:
    barrier = threading.Barrier(count + 1)
    errors: list[BaseException] = []

    def run(index: int) -> None:
        barrier.wait()
        try:
            work(index)
        except BaseException as exc:  # re-raised below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    start = time.perf_counter()
    barrier.wait()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return time.perf_counter() - start


def _row(backend: str, benchmark: str, unit: str, n: int, ours: float,
         theirs: float | None, vs: str, **extra: Any) -> Row:
    """``ours``/``theirs``: seconds for ``n`` units."""
    row: Row = {"backend": backend, "benchmark": benchmark, "unit": unit, "n": n,
                "ours_per_s": round(n / ours, 1),
                "theirs_per_s": None if theirs is None else round(n / theirs, 1),
                "ratio": None if theirs is None else round(theirs / ours, 2),
                "theirs": vs}
    row.update(extra)
    return row


def _duel(rounds: int, *sides: Callable[[int], None]) -> list[float]:
    """Run the sides' rounds alternately (so drifting machine load hits all of them
    alike); the total seconds of each side."""
    totals = [0.0] * len(sides)
    for round_ in range(rounds):
        for index, side in enumerate(sides):
            totals[index] += _timed(side, round_)
    return totals


def _compare(backend: str, ours: Callable[[], EventStore],
             theirs: Callable[[bool], _Theirs], scale: float) -> list[Row]:
    rounds, writers = 3, 8
    singles, batches, per_thread = (max(1, int(n * scale / rounds)) for n in (300, 45, 45))
    event = NewEvent("Happened", 1, _PAYLOAD)
    rows: list[Row] = []
    store, agg, app = ours(), theirs(False), theirs(True)
    recorders = {"AggregateRecorder": agg, "ApplicationRecorder": app}

    def report(benchmark: str, unit: str, n: int, seconds: list[float], **extra: Any) -> None:
        for (name, _), theirs_seconds in zip(recorders.items(), seconds[1:], strict=True):
            rows.append(_row(backend, benchmark, unit, n, seconds[0], theirs_seconds, name,
                             **extra))

    def appender(stream: str, size: int, count: int,
                 target: EventStore | _Theirs) -> Callable[[int], None]:
        """Round r appends ``count`` batches of ``size`` events to ``stream``."""
        def work(round_: int) -> None:
            for i in range(round_ * count, (round_ + 1) * count):
                if isinstance(target, EventStore):
                    target.append(stream, i * size, [event] * size)
                else:
                    target.append(stream, i * size, size)
        return work

    def threaded(target: EventStore | _Theirs) -> Callable[[int], None]:
        """Round r: ``writers`` threads each append ``per_thread`` events to their stream."""
        def work(round_: int) -> None:
            _threads(writers, lambda index: appender(f"writer-{index}", 1, per_thread,
                                                     target)(round_))
        return work

    try:
        sides: list[EventStore | _Theirs] = [store, agg, app]
        report("append 1 event", "appends/s", singles * rounds,
               _duel(rounds, *(appender("single", 1, singles, side) for side in sides)))
        report("append 100-event batch", "events/s", batches * rounds * 100,
               _duel(rounds, *(appender("batch", 100, batches, side) for side in sides)))
        seconds = _duel(rounds, *(threaded(side) for side in sides))
        positions = [e.position for e in store.iter_all()]
        report(f"append 1 event, {writers} threads", "appends/s",
               writers * per_thread * rounds, seconds,
               gapless=positions == list(range(1, len(positions) + 1)))
        length, reads = batches * rounds * 100, 5  # reads per round: steadier timings
        counts: list[int] = []
        seconds = _duel(rounds, lambda _: counts.extend(
                            len(store.read_stream("batch")) for _ in range(reads)),
                        lambda _: counts.extend(agg.read("batch") for _ in range(reads)))
        if counts != [length] * 2 * rounds * reads:
            raise AssertionError(f"read back {counts} events, expected {length} each")
        rows.append(_row(backend, "read one stream", "events/s", length * rounds * reads,
                         seconds[0], seconds[1], "AggregateRecorder"))
    finally:
        store.close()
        agg.close()
        app.close()
    return rows


@contextmanager
def _temporary_schema(pg_url: str) -> Iterator[str]:
    import psycopg

    schema = f"arbiter_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"'.encode())
    try:
        yield schema
    finally:
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE'.encode())


def run_store_benchmarks(pg_url: str | None = None, *, scale: float = 1.0) -> list[Row]:
    """Run every benchmark (PostgreSQL too if ``pg_url``); one dict per measurement.

    Keys: ``backend``, ``benchmark``, ``unit``, ``n``, ``ours_per_s``,
    ``theirs_per_s``, ``ratio`` (ours / theirs), ``theirs`` (which recorder), and
    ``gapless`` on the threaded rows.  ``scale`` multiplies the work (tests use less).
    """
    from .postgres import PostgresEventStore
    from .sqlite import SQLiteEventStore

    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="arbiter-bench-") as tmp:
        directory = Path(tmp)
        rows += _compare("sqlite", lambda: SQLiteEventStore(directory / "ours.sqlite"),
                         lambda app: _sqlite_theirs(directory, "app" if app else "agg", app),
                         scale)
    if pg_url:
        with _temporary_schema(pg_url) as schema:
            separator = "&" if "?" in pg_url else "?"
            ours_url = f"{pg_url}{separator}options=-csearch_path%3D{schema}"
            rows += _compare("postgresql",
                             lambda: PostgresEventStore(ours_url, auto_migrate=True),
                             lambda app: _postgres_theirs(pg_url, schema, app), scale)
    return rows


#: How each recorder compares with our store (printed under the table).
LEGEND = {
    "ApplicationRecorder": "like-for-like: keeps a global order, as ours does",
    "AggregateRecorder": "per-aggregate order only (no global order: less work)",
}


def format_rows(rows: list[Row]) -> str:
    header = f"{'backend':<11} {'benchmark':<26} {'ours/s':>10} {'theirs/s':>10} {'ratio':>6}  vs"
    lines = [header, "-" * len(header)]
    for row in rows:
        theirs = "-" if row["theirs_per_s"] is None else f"{row['theirs_per_s']:.0f}"
        ratio = "-" if row["ratio"] is None else f"{row['ratio']:.2f}"
        mark = "*" if row["theirs"] == "ApplicationRecorder" else ""
        extra = "" if "gapless" not in row else f" (gapless: {row['gapless']})"
        lines.append(f"{row['backend']:<11} {row['benchmark']:<26} {row['ours_per_s']:>10.0f} "
                     f"{theirs:>10} {ratio:>6}  {row['theirs']}{mark} [{row['unit']}]{extra}")
    lines.append("")
    lines.append("ratio = ours / theirs (eventsourcing), same database, same durability.")
    lines += [f"{name}{'*' if name == 'ApplicationRecorder' else ''}: {text}"
              for name, text in LEGEND.items()]
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - manual use
    print(format_rows(run_store_benchmarks(sys.argv[1] if len(sys.argv) > 1 else None)))
