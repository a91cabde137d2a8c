"""SQLite backend for the event store (stdlib :mod:`sqlite3`).

Layout (schema version 1, recorded in ``PRAGMA user_version``; the file is tagged
with ``PRAGMA application_id``)::

    events(position INTEGER PRIMARY KEY, stream_id, version, type, schema_version,
           payload BLOB, rule, metadata BLOB, UNIQUE(stream_id, version))
    streams(stream_id PRIMARY KEY, version, first_position UNIQUE)

Concurrency: every append runs in ``BEGIN IMMEDIATE``, which takes SQLite's single
write lock before reading the stream version and the last position.  Writers on
other connections or in other processes therefore queue (up to ``busy_timeout``
seconds), each sees the previous writer's commit, and positions are assigned
explicitly as ``max(position) + 1 ...`` - gapless and in commit order.  The
``UNIQUE(stream_id, version)`` constraint is a backstop for the version check.
The database runs in WAL mode, so readers never block the writer or each other.

One store object holds one connection, guarded by a lock, so it may be shared by
the threads of a process.  ``":memory:"`` gives a private, non-persistent store.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Final, Literal

from .codec import decode_object, encode_object
from .errors import ConcurrencyConflict, CorruptStore, StoreError
from .model import (
    EventStore,
    NewEvent,
    StoredEvent,
    check_append_args,
    check_read_all_args,
    check_read_stream_args,
    check_stream_id,
)

__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "SQLiteEventStore"]

#: ``PRAGMA application_id`` of an Arbiter event store ("ARBS").
APPLICATION_ID: Final = 0x41524253
#: Layout version, stored in ``PRAGMA user_version``.
SCHEMA_VERSION: Final = 1

_SQLITE_BUSY: Final = 5
_SQLITE_LOCKED: Final = 6
_SQLITE_CORRUPT: Final = 11
_SQLITE_NOTADB: Final = 26
_MAX_INT64: Final = 2**63 - 1

_SCHEMA: Final = (
    """CREATE TABLE IF NOT EXISTS events (
        position       INTEGER PRIMARY KEY CHECK (position >= 1),
        stream_id      TEXT    NOT NULL,
        version        INTEGER NOT NULL CHECK (version >= 1),
        type           TEXT    NOT NULL,
        schema_version INTEGER NOT NULL,
        payload        BLOB    NOT NULL,
        rule           TEXT,
        metadata       BLOB    NOT NULL,
        UNIQUE (stream_id, version)
    )""",
    """CREATE TABLE IF NOT EXISTS streams (
        stream_id      TEXT    PRIMARY KEY,
        version        INTEGER NOT NULL CHECK (version >= 1),
        first_position INTEGER NOT NULL UNIQUE
    )""",
)

_COLUMNS: Final = "stream_id, version, position, type, schema_version, payload, rule, metadata"

_Row = tuple[str, int, int, str, int, bytes, str | None, bytes]


class SQLiteEventStore(EventStore):
    """Event store in one SQLite file (or in memory)."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        busy_timeout: float = 30.0,
        synchronous: Literal["NORMAL", "FULL"] = "FULL",
    ) -> None:
        """Open (creating if needed) the store at ``path``.

        ``busy_timeout`` bounds how long an append waits for another writer's lock.
        ``synchronous="FULL"`` (default) fsyncs every commit; ``"NORMAL"`` is faster
        and still never corrupts the file, but may lose the last commits on power loss.
        """
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError(f"synchronous must be 'NORMAL' or 'FULL', got {synchronous!r}")
        self._path = os.fspath(path)
        self._busy_timeout = busy_timeout
        self._lock = threading.RLock()
        try:
            conn = sqlite3.connect(
                self._path, timeout=busy_timeout, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open SQLite store {self._path!r}: {exc}") from exc
        try:
            self._initialise(conn, synchronous)
        except BaseException:
            conn.close()
            raise
        self._conn: sqlite3.Connection | None = conn

    @property
    def path(self) -> str:
        return self._path

    def __repr__(self) -> str:
        state = "closed" if self._conn is None else "open"
        return f"<SQLiteEventStore {self._path!r} ({state})>"

    def _initialise(self, conn: sqlite3.Connection, synchronous: str) -> None:
        try:
            _enable_wal(conn, self._busy_timeout)
            conn.execute(f"PRAGMA synchronous={synchronous}")
            conn.execute("BEGIN IMMEDIATE")
            try:
                app_id = conn.execute("PRAGMA application_id").fetchone()[0]
                layout = conn.execute("PRAGMA user_version").fetchone()[0]
                if app_id not in (0, APPLICATION_ID) or (layout and app_id != APPLICATION_ID):
                    raise CorruptStore(f"{self._path!r} is not an Arbiter event store")
                if layout > SCHEMA_VERSION:
                    raise CorruptStore(
                        f"{self._path!r} has store schema version {layout}; "
                        f"this code understands up to {SCHEMA_VERSION}"
                    )
                for statement in _SCHEMA:
                    conn.execute(statement)
                if layout == 0:
                    conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
                    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise _translate(exc, self._path) from exc

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            conn = self._conn
            if conn is None:
                raise StoreError(f"the event store {self._path!r} is closed")
            try:
                yield conn
            except sqlite3.Error as exc:
                raise _translate(exc, self._path) from exc

    # -- writing -----------------------------------------------------------------

    def append(
        self, stream_id: str, expected_version: int, events: Sequence[NewEvent]
    ) -> list[StoredEvent]:
        check_append_args(stream_id, expected_version)
        if not events:
            return []
        # Encode before taking the write lock: an unencodable event writes nothing
        # and never blocks other writers.
        encoded = [
            (
                event,
                encode_object(event.payload, what=f"payload of {event.type!r}"),
                encode_object(event.metadata, what=f"metadata of {event.type!r}"),
            )
            for event in events
        ]
        with self._connection() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                rows = self._insert(conn, stream_id, expected_version, encoded)
                conn.execute("COMMIT")
            except sqlite3.IntegrityError as exc:
                # Unreachable while every writer uses BEGIN IMMEDIATE; kept as the
                # backstop for the expected-version check.
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                actual = _current_version(conn, stream_id)
                raise ConcurrencyConflict(stream_id, expected_version, actual) from exc
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        return [_to_event(row) for row in rows]

    @staticmethod
    def _insert(
        conn: sqlite3.Connection,
        stream_id: str,
        expected_version: int,
        encoded: list[tuple[NewEvent, bytes, bytes]],
    ) -> list[_Row]:
        actual = _current_version(conn, stream_id)
        if actual != expected_version:
            raise ConcurrencyConflict(stream_id, expected_version, actual)
        last_position: int = conn.execute(
            "SELECT COALESCE(MAX(position), 0) FROM events"
        ).fetchone()[0]
        rows: list[_Row] = [
            (
                stream_id,
                expected_version + offset,
                last_position + offset,
                event.type,
                event.schema_version,
                payload,
                event.rule,
                metadata,
            )
            for offset, (event, payload, metadata) in enumerate(encoded, start=1)
        ]
        conn.executemany(f"INSERT INTO events ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
        new_version = expected_version + len(rows)
        if expected_version == 0:
            conn.execute(
                "INSERT INTO streams (stream_id, version, first_position) VALUES (?, ?, ?)",
                (stream_id, new_version, last_position + 1),
            )
        else:
            conn.execute(
                "UPDATE streams SET version = ? WHERE stream_id = ?", (new_version, stream_id)
            )
        return rows

    # -- reading -----------------------------------------------------------------

    def read_stream(
        self, stream_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[StoredEvent]:
        check_read_stream_args(stream_id, from_version, to_version)
        upper = _MAX_INT64 if to_version is None else min(to_version, _MAX_INT64)
        with self._connection() as conn:
            rows = conn.execute(
                f"SELECT {_COLUMNS} FROM events WHERE stream_id = ? "
                "AND version BETWEEN ? AND ? ORDER BY version",
                (stream_id, min(from_version, _MAX_INT64), upper),
            ).fetchall()
        return [_to_event(row) for row in rows]

    def read_all(self, from_position: int = 1, limit: int | None = None) -> list[StoredEvent]:
        check_read_all_args(from_position, limit)
        with self._connection() as conn:
            rows = conn.execute(
                f"SELECT {_COLUMNS} FROM events WHERE position >= ? ORDER BY position LIMIT ?",
                (from_position, -1 if limit is None else limit),
            ).fetchall()
        return [_to_event(row) for row in rows]

    def stream_version(self, stream_id: str) -> int:
        check_stream_id(stream_id)
        with self._connection() as conn:
            return _current_version(conn, stream_id)

    def stream_ids(self) -> list[str]:
        with self._connection() as conn:
            rows = conn.execute("SELECT stream_id FROM streams ORDER BY first_position").fetchall()
        return [row[0] for row in rows]

    def close(self) -> None:
        with self._lock:
            conn, self._conn = self._conn, None
            if conn is not None:
                conn.close()


def _enable_wal(conn: sqlite3.Connection, timeout: float) -> None:
    """Switch to WAL, retrying while another connection holds a lock.

    Changing the journal mode needs an exclusive lock, and SQLite reports a busy
    database immediately (without the busy handler) when several processes open a
    fresh file at once, so the retry is done here, bounded by ``timeout``.
    """
    deadline = time.monotonic() + timeout
    delay = 0.001
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL").fetchone()
            return
        except sqlite3.OperationalError as exc:
            code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
            if code not in (_SQLITE_BUSY, _SQLITE_LOCKED) or time.monotonic() >= deadline:
                raise
        time.sleep(delay)
        delay = min(delay * 2, 0.05)


def _current_version(conn: sqlite3.Connection, stream_id: str) -> int:
    row = conn.execute("SELECT version FROM streams WHERE stream_id = ?", (stream_id,)).fetchone()
    return 0 if row is None else int(row[0])


def _to_event(row: Any) -> StoredEvent:
    stream_id, version, position, type_, schema_version, payload, rule, metadata = row
    where = f"event {stream_id!r}@{version} (position {position})"
    return StoredEvent(
        stream_id=stream_id,
        version=version,
        position=position,
        type=type_,
        schema_version=schema_version,
        payload=decode_object(payload, what=f"payload of {where}"),
        rule=rule,
        metadata=decode_object(metadata, what=f"metadata of {where}"),
    )


def _translate(exc: sqlite3.Error, path: str) -> StoreError:
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    if code in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
        return CorruptStore(f"SQLite store {path!r} is unreadable: {exc}")
    return StoreError(f"SQLite store {path!r}: {exc}")
