"""SQLite backend for the event store (stdlib :mod:`sqlite3`), the embedded default.

Layout: see :data:`arbiter_store.migrations.SQLITE_MIGRATIONS`; the applied version is
``PRAGMA user_version`` and the file is tagged with ``PRAGMA application_id``.  A store
migrates its file when it is opened (version 1 files, from before the hash chain,
get their hashes back-filled).

Concurrency: every write runs in ``BEGIN IMMEDIATE``, which takes SQLite's single
write lock before reading the stream version and the last position.  Writers on
other connections or in other processes therefore queue (up to ``busy_timeout``
seconds), each sees the previous writer's commit, and positions are assigned
explicitly as ``max(position) + 1 ...`` - gapless and in commit order.  Store objects
of one process on one file first queue on a shared Python lock (SQLite's busy handler
sleeps between retries).  Encoding happens before the lock; the hash chain is computed
in one pass where the rows are inserted (:func:`~arbiter_store.integrity.chain_rows`).
The ``UNIQUE(stream_id, version)`` constraint is a backstop for the version check.  The
database runs in WAL mode, so readers never block the writer or each other.

Appends from several threads through one store object are grouped
(:mod:`arbiter_store.combiner`): one ``BEGIN IMMEDIATE`` transaction, one fsync, each
append in its own ``SAVEPOINT`` so that one that fails (a conflict, a repeated command,
an already-processed tracking position) is undone alone.  Events are inserted with
multi-row ``INSERT`` statements.

One store object holds one connection, guarded by a lock, so it may be shared by
the threads of a process.  ``":memory:"`` gives a private, non-persistent store.
Subscriptions are woken at once by appends through any store object of the same
process on the same file, and poll (``default_poll_interval``) for other processes.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Final, Literal, TypeVar

from .base import RAW_COLUMNS, EventRow
from .combiner import AppendRequest, failed
from .errors import (
    AlreadyProcessed,
    ConcurrencyConflict,
    InvalidSnapshot,
    StoreError,
)
from .integrity import GENESIS_HASH, chain_rows
from .migrations import apply_sqlite_migrations, latest_version
from .model import Anchor, Snapshot, Tracking
from .readonly import APPLICATION_ID, check_foreign, open_read_only
from .reads import (
    ANCHOR_COLUMNS,
    SNAPSHOT_COLUMNS,
    Executor,
    Queries,
    SQLReads,
    anchor_from_row,
    stream_rows,
    stream_version,
    verify_rows,
)
from .retention import prune_query, prune_snapshots
from .sqlite_files import (
    REGISTRY_LOCK,
    add_functions,
    anchor_values,
    enable_wal,
    file_write_lock,
    local_waiters,
    snapshot_values,
    translate,
)
from .subscription import EventWaiter, Waiter
from .upcasting import Upcasters
from .verification import VerifyInput

__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "SQLiteEventStore"]

#: Layout version this code writes, stored in ``PRAGMA user_version``.
SCHEMA_VERSION: Final = latest_version("sqlite")

_T = TypeVar("_T")
#: A group member's outcome: (base position, earlier rows of a repeat, error).
Outcome = tuple[int | None, list[EventRow] | None, Exception | None]


#: Multi-row INSERTs of these sizes (one statement per chunk is much cheaper than a
#: statement per row; few sizes keep the statement cache small; 64 * 9 < 999 variables).
#: The rows are bound as :func:`~arbiter_store.integrity.chain_rows` makes them with
#: ``blob=bytearray, no_rule=0``: the sqlite3 module binds ``bytes`` and ``None`` only
#: after looking for an adapter (a dict lookup and a failed attribute lookup that
#: formats an exception, about 1 us per value: three per row), ``bytearray`` and ints
#: directly; ``NULLIF(?, 0)`` stores NULL for the integer 0, and a rule (always text)
#: as itself ('0' too: a text value never equals an integer without affinity).
_CHUNKS: Final = (64, 16, 4, 1)
_INSERTS: Final = {size: f"INSERT INTO events ({RAW_COLUMNS}) VALUES "
                         + ", ".join(["(?, ?, ?, ?, ?, ?, NULLIF(?, 0), ?, ?)"] * size)
                   for size in _CHUNKS}
_Q: Final = Queries("?", "arbiter_sha256(state)")
_PRUNE: Final = prune_query("?")
#: The stream's (version, head hash), NULLs for a new stream, and the last position.
_HEAD: Final = ("SELECT s.version, s.head_hash, (SELECT COALESCE(MAX(position), 0) FROM events) "
                "FROM (SELECT ? AS id) AS k LEFT JOIN streams AS s ON s.stream_id = k.id")


class SQLiteEventStore(SQLReads):
    """Event store in one SQLite file (or in memory)."""

    default_poll_interval = 0.1
    _frames_hash_input = False  # the chain is hashed in one pass where rows are inserted
    _q = _Q

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        busy_timeout: float = 30.0,
        synchronous: Literal["NORMAL", "FULL"] = "FULL",
        upcasters: Upcasters | None = None,
        read_only: bool = False,
        anchor_key: bytes | str | None = None,
        anchor_every: int | None = None,
    ) -> None:
        """Open (creating or migrating if needed) the store at ``path``.

        ``busy_timeout`` bounds how long a write waits for another writer's lock.
        ``synchronous="FULL"`` (default) fsyncs every commit; ``"NORMAL"`` is faster
        and still never corrupts the file, but may lose the last commits on power loss.
        ``upcasters`` are applied to every event read.  ``read_only=True`` opens an
        existing Arbiter store without changing the file (:mod:`.readonly`): anything
        else is refused with :class:`~arbiter_store.errors.NotAStore`.  ``anchor_key``
        and ``anchor_every``: see :class:`~arbiter_store.base.StoreBase`.
        """
        super().__init__(upcasters, anchor_key=anchor_key, anchor_every=anchor_every)
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError(f"synchronous must be 'NORMAL' or 'FULL', got {synchronous!r}")
        self._path = os.fspath(path)
        self._busy_timeout = busy_timeout
        self._lock = threading.RLock()
        self._read_only = read_only
        self._waiters = local_waiters(self._path)
        self._write_lock = file_write_lock(self._path)
        if read_only:
            conn, applied = open_read_only(self._path, busy_timeout)
            add_functions(conn)
            self.applied_migrations: tuple[int, ...] = applied
            self._conn: sqlite3.Connection | None = conn
            return
        try:
            conn = sqlite3.connect(
                self._path, timeout=busy_timeout, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open SQLite store {self._path!r}: {exc}") from exc
        try:
            add_functions(conn)
            #: The migrations this store applied when it opened the file.
            self.applied_migrations = self._initialise(conn, synchronous)
        except BaseException:
            conn.close()
            raise
        self._conn = conn

    @property
    def path(self) -> str:
        return self._path

    def __repr__(self) -> str:
        state = "closed" if self._conn is None else "open"
        return f"<SQLiteEventStore {self._path!r} ({state})>"

    def _initialise(self, conn: sqlite3.Connection, synchronous: str) -> tuple[int, ...]:
        try:
            check_foreign(conn, self._path)  # before anything writes (WAL changes the header)
            enable_wal(conn, self._busy_timeout)
            conn.execute(f"PRAGMA synchronous={synchronous}")
            conn.execute("BEGIN IMMEDIATE")
            try:
                check_foreign(conn, self._path)
                layout = conn.execute("PRAGMA user_version").fetchone()[0]
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
            raise translate(exc, self._path) from exc

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            conn = self._conn
            if conn is None:
                raise StoreError(f"the event store {self._path!r} is closed")
            try:
                yield conn
            except sqlite3.Error as exc:
                raise translate(exc, self._path) from exc

    def _in_write(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """``work(conn)`` in a ``BEGIN IMMEDIATE`` transaction: committed on success, else
        rolled back (every write, without generator context managers: a few microseconds
        less per append). Store objects of this process on the same file first queue on
        one Python lock, rather than in SQLite's busy handler (which sleeps and retries)."""
        with self._lock:
            conn = self._conn
            if conn is None:
                raise StoreError(f"the event store {self._path!r} is closed")
            if self._read_only:
                raise StoreError(f"the event store {self._path!r} was opened read-only")
            if not self._write_lock.acquire(timeout=self._busy_timeout):
                raise StoreError(f"SQLite store {self._path!r}: timed out after "
                                 f"{self._busy_timeout} s waiting for another writer")
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    result = work(conn)
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:
                raise translate(exc, self._path) from exc
            finally:
                self._write_lock.release()
        return result

    # -- writing -----------------------------------------------------------------

    def _append_group(self, group: list[AppendRequest]) -> None:
        alone = len(group) == 1

        def insert(conn: sqlite3.Connection) -> list[Outcome]:
            if alone:  # an error rolls the whole transaction back
                return [(*self._insert(conn, group[0]), None)]
            outcomes: list[Outcome] = []
            for request in group:
                conn.execute("SAVEPOINT member")  # an error undoes this member only
                try:
                    outcomes.append((*self._insert(conn, request), None))
                except Exception as exc:
                    conn.execute("ROLLBACK TO member")
                    outcomes.append((None, None, self._member_error(conn, request, exc)))
                conn.execute("RELEASE member")
            return outcomes

        try:
            outcomes = self._in_write(insert)
        except (ConcurrencyConflict, AlreadyProcessed) as exc:  # alone
            group[0].error = exc
            return
        except StoreError as exc:  # a translated sqlite3.Error, or the store is closed
            for request in group:
                request.error = (self._member_error(None, request, exc.__cause__ or exc)
                                 if alone else failed(exc))
            return
        for request, (base, earlier, error) in zip(group, outcomes, strict=True):
            request.base, request.earlier, request.error = base, earlier, error

    def _member_error(self, conn: sqlite3.Connection | None, request: AppendRequest,
                      exc: BaseException) -> Exception:
        """The error one append raises for ``exc`` (a conflict for the unique-constraint
        backstop, which is unreachable while every writer uses BEGIN IMMEDIATE)."""
        if isinstance(exc, sqlite3.IntegrityError) and "events." in str(exc):
            if conn is None:
                actual = self.stream_version(request.stream_id)
            else:
                actual = stream_version(conn, _Q, request.stream_id)
            error: Exception = ConcurrencyConflict(request.stream_id, request.expected_version,
                                                   actual)
            error.__cause__ = exc
            return error
        if isinstance(exc, sqlite3.Error):
            return translate(exc, self._path)
        return exc if isinstance(exc, Exception) else failed(exc)

    def _insert(self, conn: sqlite3.Connection, request: AppendRequest
                ) -> tuple[int | None, list[EventRow] | None]:
        """(base position, None) after writing; (None, earlier rows) for a repeat."""
        stream_id, expected_version = request.stream_id, request.expected_version
        head = conn.execute(_HEAD, (stream_id,)).fetchone()  # always one row
        actual, prev_hash = (0, GENESIS_HASH) if head[0] is None else (int(head[0]), head[1])
        if request.command_id is not None:
            earlier = conn.execute(
                "SELECT first_version, last_version FROM commands "
                "WHERE stream_id = ? AND command_id = ?",
                (stream_id, request.command_id)).fetchone()
            if earlier is not None:
                return None, stream_rows(conn, _Q, stream_id, earlier[0], earlier[1])
        if request.tracking is not None:
            _track(conn, request.tracking)
        if actual != expected_version:
            raise ConcurrencyConflict(stream_id, expected_version, actual)
        base = head[2]
        values, last_hash = chain_rows(prev_hash, stream_id, expected_version, base,
                                       request.events, blob=bytearray, no_rule=0)
        _insert_rows(conn, values)
        version = expected_version + len(request.events)
        if head[0] is None:
            conn.execute("INSERT INTO streams (stream_id, version, first_position, head_hash) "
                         "VALUES (?, ?, ?, ?)", (stream_id, version, base + 1, last_hash))
        else:
            conn.execute("UPDATE streams SET version = ?, head_hash = ? WHERE stream_id = ?",
                         (version, last_hash, stream_id))
        if request.command_id is not None:
            conn.execute("INSERT INTO commands (stream_id, command_id, first_version, "
                         "last_version) VALUES (?, ?, ?, ?)",
                         (stream_id, request.command_id, expected_version + 1, version))
        return base, None

    def _appended(self) -> None:
        if not self._waiters:  # (a subscription made later reads the append anyway)
            return
        with REGISTRY_LOCK:
            waiters = list(self._waiters)
        for waiter in waiters:
            waiter.wake()

    def _record_tracking(self, tracking: Tracking) -> None:
        self._in_write(lambda conn: _track(conn, tracking))

    def _save_snapshot_raw(self, snapshot: Snapshot, keep: int | None) -> Snapshot:
        def save(conn: sqlite3.Connection) -> Snapshot:
            version = stream_version(conn, _Q, snapshot.stream_id)
            row = conn.execute(_Q.hash_at, (snapshot.stream_id, snapshot.version)).fetchone()
            if snapshot.version > version or row is None:
                raise InvalidSnapshot(
                    f"cannot save a snapshot of {snapshot.stream_id!r} at version "
                    f"{snapshot.version}: the stream is at version {version}")
            sealed = self._seal(snapshot, str(row[0]))
            conn.execute(f"INSERT OR REPLACE INTO snapshots ({SNAPSHOT_COLUMNS}) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?)", tuple(snapshot_values(sealed)))
            prune_snapshots(conn, _PRUNE, snapshot.stream_id, keep)
            return sealed
        return self._in_write(save)

    def _insert_anchor(self, anchor: Anchor) -> Anchor:
        def insert(conn: sqlite3.Connection) -> Anchor:
            conn.execute(f"INSERT INTO anchors ({ANCHOR_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?) "
                         "ON CONFLICT DO NOTHING", tuple(anchor_values(anchor)))
            row = conn.execute(f"SELECT {ANCHOR_COLUMNS} FROM anchors WHERE stream_id = ? "
                               "AND version = ? AND final = ?",
                               (anchor.stream_id, anchor.version, int(anchor.final))).fetchone()
            return anchor_from_row(row)
        return self._in_write(insert)

    # -- reading (the queries are in arbiter_store.reads) ---------------------------

    def _reader(self) -> AbstractContextManager[Executor]:
        return self._connection()

    def _verify_input(self, stream_id: str | None) -> VerifyInput:
        with self._connection() as conn:
            conn.execute("BEGIN")  # one read snapshot for all three tables
            try:
                return verify_rows(conn, self._q, stream_id)
            finally:
                conn.execute("ROLLBACK")

    def _new_waiter(self) -> Waiter:
        with self._connection():
            waiter = EventWaiter()
            with REGISTRY_LOCK:
                self._waiters.add(waiter)
        return waiter

    def _close_backend(self) -> None:
        with self._lock:
            conn, self._conn = self._conn, None
            if conn is not None:
                conn.close()


def _insert_rows(conn: sqlite3.Connection, values: list[Any]) -> None:
    """Insert event rows (9 values each, flat) with a few multi-row statements."""
    done, count = 0, len(values) // 9
    for size in _CHUNKS:
        while count - done >= size:
            conn.execute(_INSERTS[size], values[done * 9:(done + size) * 9])
            done += size


def _track(conn: sqlite3.Connection, tracking: Tracking) -> None:
    row = conn.execute("SELECT position FROM tracking WHERE consumer = ?",
                       (tracking.consumer,)).fetchone()
    if row is not None and row[0] >= tracking.position:
        raise AlreadyProcessed(tracking.consumer, int(row[0]), tracking.position)
    conn.execute("INSERT INTO tracking (consumer, position) VALUES (?, ?) ON CONFLICT (consumer) "
                 "DO UPDATE SET position = excluded.position",
                 (tracking.consumer, tracking.position))
