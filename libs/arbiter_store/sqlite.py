"""SQLite backend for the event store (stdlib :mod:`sqlite3`), the embedded default.

Layout: see :data:`arbiter_store.migrations.SQLITE_MIGRATIONS`; the applied version is
``PRAGMA user_version`` and the file is tagged with ``PRAGMA application_id``.  A store
migrates its file when it is opened (version 1 files, from before the hash chain,
get their hashes back-filled).

Concurrency: every write runs in ``BEGIN IMMEDIATE``, which takes SQLite's single
write lock before reading the stream version and the last position.  Writers on
other connections or in other processes therefore queue (up to ``busy_timeout``
seconds), each sees the previous writer's commit, and positions are assigned
explicitly as ``max(position) + 1 ...`` - gapless and in commit order.  Encoding
happens before the lock.  The ``UNIQUE(stream_id, version)`` constraint is a
backstop for the version check.  The database runs in WAL mode, so readers never
block the writer or each other.

One store object holds one connection, guarded by a lock, so it may be shared by
the threads of a process.  ``":memory:"`` gives a private, non-persistent store.
Subscriptions are woken at once by appends through any store object of the same
process on the same file, and poll (``default_poll_interval``) for other processes.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Final, Literal

from .base import RAW_COLUMNS, StoreBase
from .errors import AlreadyProcessed, ConcurrencyConflict, CorruptStore, InvalidSnapshot, StoreError
from .integrity import GENESIS_HASH, EncodedEvent, RawEvent, VerifyInput, chain
from .migrations import apply_sqlite_migrations, latest_version
from .model import Anchor, Snapshot, Tracking, check_stream_id
from .subscription import EventWaiter, Waiter
from .upcasting import Upcasters

__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "SQLiteEventStore"]

#: ``PRAGMA application_id`` of an Arbiter event store ("ARBS").
APPLICATION_ID: Final = 0x41524253
#: Layout version this code writes, stored in ``PRAGMA user_version``.
SCHEMA_VERSION: Final = latest_version("sqlite")

_SQLITE_BUSY: Final = 5
_SQLITE_LOCKED: Final = 6
_SQLITE_CORRUPT: Final = 11
_SQLITE_NOTADB: Final = 26
_MAX_INT64: Final = 2**63 - 1

_INSERT_EVENT: Final = f"INSERT INTO events ({RAW_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
_SNAPSHOT_COLUMNS: Final = "stream_id, version, state, state_hash, created"
_ANCHOR_COLUMNS: Final = "stream_id, version, head_hash, signature, created"


class SQLiteEventStore(StoreBase):
    """Event store in one SQLite file (or in memory)."""

    default_poll_interval = 0.1

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        busy_timeout: float = 30.0,
        synchronous: Literal["NORMAL", "FULL"] = "FULL",
        upcasters: Upcasters | None = None,
    ) -> None:
        """Open (creating or migrating if needed) the store at ``path``.

        ``busy_timeout`` bounds how long a write waits for another writer's lock.
        ``synchronous="FULL"`` (default) fsyncs every commit; ``"NORMAL"`` is faster
        and still never corrupts the file, but may lose the last commits on power loss.
        ``upcasters`` are applied to every event read.
        """
        super().__init__(upcasters)
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError(f"synchronous must be 'NORMAL' or 'FULL', got {synchronous!r}")
        self._path = os.fspath(path)
        self._busy_timeout = busy_timeout
        self._lock = threading.RLock()
        self._waiters = _local_waiters(self._path)
        try:
            conn = sqlite3.connect(
                self._path, timeout=busy_timeout, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open SQLite store {self._path!r}: {exc}") from exc
        try:
            #: The migrations this store applied when it opened the file.
            self.applied_migrations: tuple[int, ...] = self._initialise(conn, synchronous)
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

    def _initialise(self, conn: sqlite3.Connection, synchronous: str) -> tuple[int, ...]:
        try:
            _enable_wal(conn, self._busy_timeout)
            conn.execute(f"PRAGMA synchronous={synchronous}")
            conn.execute("BEGIN IMMEDIATE")
            try:
                app_id = conn.execute("PRAGMA application_id").fetchone()[0]
                layout = conn.execute("PRAGMA user_version").fetchone()[0]
                if app_id not in (0, APPLICATION_ID) or (layout and app_id != APPLICATION_ID):
                    raise CorruptStore(f"{self._path!r} is not an Arbiter event store")
                applied = apply_sqlite_migrations(conn, layout, self._path)
                if layout == 0:
                    conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
                conn.execute("COMMIT")
                return tuple(applied)
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

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """A ``BEGIN IMMEDIATE`` transaction: committed on success, else rolled back."""
        with self._connection() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

    # -- writing -----------------------------------------------------------------

    def _append_encoded(self, stream_id: str, expected_version: int,
                        events: list[EncodedEvent], command_id: str | None,
                        tracking: Tracking | None) -> list[RawEvent]:
        try:
            with self._write() as conn:
                return self._insert(conn, stream_id, expected_version, events, command_id,
                                    tracking)
        except StoreError as exc:
            cause = exc.__cause__
            if not isinstance(cause, sqlite3.IntegrityError) or "events." not in str(cause):
                raise
            # Unreachable while every writer uses BEGIN IMMEDIATE; kept as the
            # backstop for the expected-version check.
            actual = self.stream_version(stream_id)
            raise ConcurrencyConflict(stream_id, expected_version, actual) from cause

    def _insert(self, conn: sqlite3.Connection, stream_id: str, expected_version: int,
                events: list[EncodedEvent], command_id: str | None,
                tracking: Tracking | None) -> list[RawEvent]:
        head = conn.execute(
            "SELECT version, head_hash FROM streams WHERE stream_id = ?", (stream_id,)
        ).fetchone()
        actual, prev_hash = (0, GENESIS_HASH) if head is None else (int(head[0]), head[1])
        if command_id is not None:
            earlier = conn.execute(
                "SELECT first_version, last_version FROM commands "
                "WHERE stream_id = ? AND command_id = ?", (stream_id, command_id)).fetchone()
            if earlier is not None:
                return _raw_stream(conn, stream_id, earlier[0], earlier[1])
        if tracking is not None:
            _track(conn, tracking)
        if actual != expected_version:
            raise ConcurrencyConflict(stream_id, expected_version, actual)
        last_position = conn.execute("SELECT COALESCE(MAX(position), 0) FROM events").fetchone()[0]
        rows = chain(stream_id, expected_version, last_position, prev_hash, events)
        conn.executemany(_INSERT_EVENT, rows)
        version, head_hash = rows[-1].version, rows[-1].hash
        if head is None:
            conn.execute("INSERT INTO streams (stream_id, version, first_position, head_hash) "
                         "VALUES (?, ?, ?, ?)", (stream_id, version, rows[0].position, head_hash))
        else:
            conn.execute("UPDATE streams SET version = ?, head_hash = ? WHERE stream_id = ?",
                         (version, head_hash, stream_id))
        if command_id is not None:
            conn.execute("INSERT INTO commands (stream_id, command_id, first_version, "
                         "last_version) VALUES (?, ?, ?, ?)",
                         (stream_id, command_id, rows[0].version, version))
        return rows

    def _appended(self) -> None:
        with _WAITERS_LOCK:
            waiters = list(self._waiters)
        for waiter in waiters:
            waiter.wake()

    def _record_tracking(self, tracking: Tracking) -> None:
        with self._write() as conn:
            _track(conn, tracking)

    def _save_snapshot_raw(self, snapshot: Snapshot) -> None:
        with self._write() as conn:
            version = _current_version(conn, snapshot.stream_id)
            if snapshot.version > version:
                raise InvalidSnapshot(
                    f"cannot save a snapshot of {snapshot.stream_id!r} at version "
                    f"{snapshot.version}: the stream is at version {version}")
            conn.execute(f"INSERT OR REPLACE INTO snapshots ({_SNAPSHOT_COLUMNS}) "
                         "VALUES (?, ?, ?, ?, ?)", tuple(_snapshot_values(snapshot)))

    def _insert_anchor(self, anchor: Anchor) -> None:
        with self._write() as conn:
            conn.execute(f"INSERT OR REPLACE INTO anchors ({_ANCHOR_COLUMNS}) "
                         "VALUES (?, ?, ?, ?, ?)", tuple(_anchor_values(anchor)))

    # -- reading -----------------------------------------------------------------

    def _read_stream_raw(self, stream_id: str, from_version: int,
                         to_version: int | None) -> list[RawEvent]:
        upper = _MAX_INT64 if to_version is None else min(to_version, _MAX_INT64)
        with self._connection() as conn:
            return _raw_stream(conn, stream_id, min(from_version, _MAX_INT64), upper)

    def _read_all_raw(self, from_position: int, limit: int | None) -> list[RawEvent]:
        with self._connection() as conn:
            rows = conn.execute(
                f"SELECT {RAW_COLUMNS} FROM events WHERE position >= ? ORDER BY position LIMIT ?",
                (min(from_position, _MAX_INT64), -1 if limit is None else limit),
            ).fetchall()
        return [RawEvent(*row) for row in rows]

    def stream_version(self, stream_id: str) -> int:
        check_stream_id(stream_id)
        with self._connection() as conn:
            return _current_version(conn, stream_id)

    def stream_ids(self) -> list[str]:
        with self._connection() as conn:
            rows = conn.execute("SELECT stream_id FROM streams ORDER BY first_position").fetchall()
        return [row[0] for row in rows]

    def _consumer_position_raw(self, consumer: str) -> int:
        with self._connection() as conn:
            row = conn.execute("SELECT position FROM tracking WHERE consumer = ?",
                               (consumer,)).fetchone()
        return 0 if row is None else int(row[0])

    def _load_snapshot_raw(self, stream_id: str, max_version: int | None) -> Snapshot | None:
        upper = _MAX_INT64 if max_version is None else min(max_version, _MAX_INT64)
        with self._connection() as conn:
            row = conn.execute(
                f"SELECT {_SNAPSHOT_COLUMNS} FROM snapshots WHERE stream_id = ? "
                "AND version <= ? ORDER BY version DESC LIMIT 1", (stream_id, upper)).fetchone()
        return None if row is None else Snapshot(*row)

    def _stream_head(self, stream_id: str) -> tuple[int, str]:
        with self._connection() as conn:
            row = conn.execute("SELECT version, hash FROM events WHERE stream_id = ? "
                               "ORDER BY version DESC LIMIT 1", (stream_id,)).fetchone()
        return (0, "") if row is None else (int(row[0]), str(row[1]))

    def _anchors_raw(self, stream_id: str | None) -> list[Anchor]:
        with self._connection() as conn:
            return _anchors(conn, stream_id)

    def _verify_input(self, stream_id: str | None) -> VerifyInput:
        where, params = ("", ()) if stream_id is None else (" WHERE stream_id = ?", (stream_id,))
        with self._connection() as conn:
            conn.execute("BEGIN")  # one read snapshot for all three tables
            try:
                events = [RawEvent(*row) for row in conn.execute(
                    f"SELECT {RAW_COLUMNS} FROM events{where} ORDER BY stream_id, version",
                    params)]
                heads = {row[0]: (int(row[1]), str(row[2])) for row in conn.execute(
                    f"SELECT stream_id, version, head_hash FROM streams{where}", params)}
                anchors = _anchors(conn, stream_id)
            finally:
                conn.execute("ROLLBACK")
        return VerifyInput(events, heads, anchors, global_scope=stream_id is None)

    def _new_waiter(self) -> Waiter:
        with self._connection():
            waiter = EventWaiter()
            with _WAITERS_LOCK:
                self._waiters.add(waiter)
        return waiter

    def _close_backend(self) -> None:
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


_WAITERS_LOCK: Final = threading.Lock()
_WAITERS_BY_FILE: dict[str, weakref.WeakSet[EventWaiter]] = {}


def _local_waiters(path: str) -> weakref.WeakSet[EventWaiter]:
    """The waiters to wake after an append: shared by every store object of this
    process on the same file (other processes are heard by polling)."""
    if path in ("", ":memory:") or path.startswith("file:"):
        return weakref.WeakSet()
    with _WAITERS_LOCK:
        return _WAITERS_BY_FILE.setdefault(os.path.realpath(path), weakref.WeakSet())


def _current_version(conn: sqlite3.Connection, stream_id: str) -> int:
    row = conn.execute("SELECT version FROM streams WHERE stream_id = ?", (stream_id,)).fetchone()
    return 0 if row is None else int(row[0])


def _raw_stream(conn: sqlite3.Connection, stream_id: str, first: int, last: int
                ) -> list[RawEvent]:
    rows = conn.execute(
        f"SELECT {RAW_COLUMNS} FROM events WHERE stream_id = ? "
        "AND version BETWEEN ? AND ? ORDER BY version", (stream_id, first, last)).fetchall()
    return [RawEvent(*row) for row in rows]


def _track(conn: sqlite3.Connection, tracking: Tracking) -> None:
    row = conn.execute("SELECT position FROM tracking WHERE consumer = ?",
                       (tracking.consumer,)).fetchone()
    if row is not None and row[0] >= tracking.position:
        raise AlreadyProcessed(tracking.consumer, int(row[0]), tracking.position)
    conn.execute("INSERT INTO tracking (consumer, position) VALUES (?, ?) ON CONFLICT (consumer) "
                 "DO UPDATE SET position = excluded.position",
                 (tracking.consumer, tracking.position))


def _anchors(conn: sqlite3.Connection, stream_id: str | None) -> list[Anchor]:
    where, params = ("", ()) if stream_id is None else (" WHERE stream_id = ?", (stream_id,))
    rows = conn.execute(f"SELECT {_ANCHOR_COLUMNS} FROM anchors{where} "
                        "ORDER BY stream_id, version", params).fetchall()
    return [Anchor(*row) for row in rows]


def _snapshot_values(snapshot: Snapshot) -> list[Any]:
    return [snapshot.stream_id, snapshot.version, snapshot.state, snapshot.state_hash,
            snapshot.created]


def _anchor_values(anchor: Anchor) -> list[Any]:
    return [anchor.stream_id, anchor.version, anchor.head_hash, anchor.signature, anchor.created]


def _translate(exc: sqlite3.Error, path: str) -> StoreError:
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    if code in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
        return CorruptStore(f"SQLite store {path!r} is unreadable: {exc}")
    return StoreError(f"SQLite store {path!r}: {exc}")
