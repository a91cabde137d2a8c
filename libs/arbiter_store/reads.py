"""The read primitives both SQL backends share: the same queries, written once, with
the backend's placeholder (``?`` for sqlite3, ``%s`` for psycopg)."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, ClassVar, Final, Protocol

from .base import EVENT_COLUMNS, RAW_COLUMNS, EventRow, StoreBase
from .integrity import RawEvent
from .model import Anchor, Snapshot, check_stream_id
from .records import CommandRow, SnapshotRecord
from .verification import VerifyInput

__all__ = ["MAX_INT64", "Queries", "SQLReads"]

MAX_INT64: Final = 2**63 - 1
SNAPSHOT_COLUMNS: Final = "stream_id, version, state, state_hash, created, head_hash, signature"
ANCHOR_COLUMNS: Final = ("stream_id, version, head_hash, signature, created, prev_version, "
                         "final")


class Cursor(Protocol):
    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Executor(Protocol):
    """What sqlite3 and psycopg connections have in common."""

    def execute(self, query: str, params: Sequence[Any], /) -> Cursor: ...


class Queries:
    """Every read query, with ``p`` as the placeholder."""

    def __init__(self, p: str, digest: str, counter: str | None = None) -> None:
        """``digest``: SQL for the hex SHA-256 of ``state``; ``counter``: a query of the
        last assigned position, where the backend keeps one."""
        self.p = p
        self.counter = counter
        self.snapshot_records = (f"SELECT stream_id, version, head_hash, state_hash, "
                                 f"{digest}, signature FROM snapshots")
        self.candidates = (
            "SELECT s.stream_id, s.version, s.state, s.state_hash, s.created, s.head_hash, "
            "s.signature, e.hash FROM snapshots AS s LEFT JOIN events AS e ON "
            "e.stream_id = s.stream_id AND e.version = s.version "
            f"WHERE s.stream_id = {p} AND s.version <= {p} ORDER BY s.version DESC LIMIT {p}")
        self.snapshots = (f"SELECT {SNAPSHOT_COLUMNS} FROM snapshots WHERE stream_id = {p} "
                          "ORDER BY version")
        self.hash_at = f"SELECT hash FROM events WHERE stream_id = {p} AND version = {p}"
        self.stream = (f"SELECT {EVENT_COLUMNS} FROM events WHERE stream_id = {p} "
                       f"AND version BETWEEN {p} AND {p} ORDER BY version")
        self.all = (f"SELECT {EVENT_COLUMNS} FROM events WHERE position >= {p} "
                    f"ORDER BY position LIMIT {p}")
        self.version = f"SELECT version FROM streams WHERE stream_id = {p}"
        self.tracked = f"SELECT position FROM tracking WHERE consumer = {p}"
        self.head = (f"SELECT version, hash FROM events WHERE stream_id = {p} "
                     "ORDER BY version DESC LIMIT 1")
        self.bodies = (f"SELECT type, schema_version, payload, rule FROM events WHERE "
                       f"stream_id = {p} AND version BETWEEN {p} AND {p} ORDER BY version")
        self.where_stream = f" WHERE stream_id = {p}"


def stream_rows(conn: Executor, q: Queries, stream_id: str, first: int,
                last: int) -> list[EventRow]:
    return conn.execute(q.stream, (stream_id, first, last)).fetchall()


def stream_version(conn: Executor, q: Queries, stream_id: str) -> int:
    row = conn.execute(q.version, (stream_id,)).fetchone()
    return 0 if row is None else int(row[0])


def tracked(conn: Executor, q: Queries, consumer: str) -> int:
    row = conn.execute(q.tracked, (consumer,)).fetchone()
    return 0 if row is None else int(row[0])


def anchors(conn: Executor, q: Queries, stream_id: str | None) -> list[Anchor]:
    where, params = ("", ()) if stream_id is None else (q.where_stream, (stream_id,))
    rows = conn.execute(f"SELECT {ANCHOR_COLUMNS} FROM anchors{where} "
                        "ORDER BY stream_id, version, final", params).fetchall()
    return [anchor_from_row(row) for row in rows]


def anchor_from_row(row: Sequence[Any]) -> Anchor:
    prev = None if row[5] is None else int(row[5])
    return Anchor(row[0], int(row[1]), row[2], row[3], row[4], prev, bool(row[6]))


def snapshot_from_row(row: Sequence[Any]) -> Snapshot:
    return Snapshot(row[0], int(row[1]), bytes(row[2]), row[3], row[4], row[5], row[6])


def verify_rows(conn: Executor, q: Queries, stream_id: str | None) -> VerifyInput:
    """What ``verify`` needs (the caller makes it one consistent snapshot)."""
    where, params = ("", ()) if stream_id is None else (q.where_stream, (stream_id,))
    events = [RawEvent(*row) for row in conn.execute(
        f"SELECT {RAW_COLUMNS} FROM events{where} ORDER BY stream_id, version",
        params).fetchall()]
    heads = {row[0]: (int(row[1]), str(row[2])) for row in conn.execute(
        f"SELECT stream_id, version, head_hash FROM streams{where}", params).fetchall()}
    snapshots = [SnapshotRecord(*row) for row in conn.execute(
        q.snapshot_records + where, params).fetchall()]
    commands = [CommandRow(*row) for row in conn.execute(
        f"SELECT stream_id, command_id, first_version, last_version FROM commands{where}",
        params).fetchall()]
    counter = None
    if q.counter is not None and stream_id is None:
        row = conn.execute(q.counter, ()).fetchone()
        counter = None if row is None else int(row[0])
    return VerifyInput(events, heads, anchors(conn, q, stream_id),
                       global_scope=stream_id is None, snapshots=snapshots,
                       commands=commands, counter=counter)


class SQLReads(StoreBase):
    """:class:`StoreBase`'s read primitives over :meth:`_reader` connections."""

    _q: ClassVar[Queries]

    @abstractmethod
    def _reader(self) -> AbstractContextManager[Executor]:
        """A connection for reads (errors translated to StoreError)."""

    def _read_stream_rows(self, stream_id: str, from_version: int,
                          to_version: int | None) -> list[EventRow]:
        upper = MAX_INT64 if to_version is None else min(to_version, MAX_INT64)
        with self._reader() as conn:
            return stream_rows(conn, self._q, stream_id, min(from_version, MAX_INT64), upper)

    def read_bodies(self, stream_id: str, from_version: int = 1,
                    to_version: int | None = None) -> list[tuple[str, int, bytes, str | None]]:
        # Replay's read: only the four columns it needs, as the driver returns them.
        check_stream_id(stream_id)
        upper = MAX_INT64 if to_version is None else min(to_version, MAX_INT64)
        with self._reader() as conn:
            return conn.execute(self._q.bodies,
                                (stream_id, min(from_version, MAX_INT64), upper)).fetchall()

    def _read_all_rows(self, from_position: int, limit: int | None) -> list[EventRow]:
        with self._reader() as conn:
            return conn.execute(self._q.all, (min(from_position, MAX_INT64),
                                              MAX_INT64 if limit is None else limit)).fetchall()

    def stream_version(self, stream_id: str) -> int:
        check_stream_id(stream_id)
        with self._reader() as conn:
            return stream_version(conn, self._q, stream_id)

    def stream_ids(self) -> list[str]:
        with self._reader() as conn:  # version 0: a new stream's row during its append
            rows = conn.execute("SELECT stream_id FROM streams WHERE version > 0 "
                                "ORDER BY first_position", ()).fetchall()
        return [row[0] for row in rows]

    def _consumer_position_raw(self, consumer: str) -> int:
        with self._reader() as conn:
            return tracked(conn, self._q, consumer)

    def _snapshot_candidates(self, stream_id: str, max_version: int | None, limit: int
                             ) -> list[tuple[Snapshot, str | None]]:
        upper = MAX_INT64 if max_version is None else min(max_version, MAX_INT64)
        with self._reader() as conn:
            rows = conn.execute(self._q.candidates, (stream_id, upper, limit)).fetchall()
        return [(snapshot_from_row(row), row[7]) for row in rows]

    def _snapshots_raw(self, stream_id: str) -> list[Snapshot]:
        with self._reader() as conn:
            rows = conn.execute(self._q.snapshots, (stream_id,)).fetchall()
        return [snapshot_from_row(row) for row in rows]

    def _event_hash_at(self, stream_id: str, version: int) -> str | None:
        with self._reader() as conn:
            row = conn.execute(self._q.hash_at, (stream_id, version)).fetchone()
        return None if row is None else str(row[0])

    def _stream_head(self, stream_id: str) -> tuple[int, str]:
        with self._reader() as conn:
            row = conn.execute(self._q.head, (stream_id,)).fetchone()
        return (0, "") if row is None else (int(row[0]), str(row[1]))

    def _anchors_raw(self, stream_id: str | None) -> list[Anchor]:
        with self._reader() as conn:
            return anchors(conn, self._q, stream_id)
