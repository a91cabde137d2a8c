"""PostgreSQL backend for the event store (psycopg 3, synchronous, pooled).

Layout: :data:`arbiter_store.migrations.POSTGRES_MIGRATIONS`, applied by
``arbiter db upgrade`` (:func:`upgrade_postgres`); the store refuses a database that
is behind (:class:`~arbiter_store.errors.MigrationRequired`) unless opened with
``auto_migrate=True``.  The tables live in the connection's current schema, so
``?options=-csearch_path%3Dname`` in the URL selects a schema (tests use one each).

Gapless global positions, in commit order, without serialising everything
--------------------------------------------------------------------------
A sequence (``bigserial``) would leave gaps (rolled-back appends burn numbers) and
would not give commit order (a transaction that took 7 may commit after one that took
8, so a reader could see 8 before 7 and skip 7 for ever).  Instead one row,
``log_position(last_position)``, is the global counter.  An append is a single
statement in autocommit mode, ``SELECT * FROM arbiter_append(...)`` (a PL/pgSQL
function, migration 3), so it is one transaction and one round trip, in two phases:

1. *Outside the critical section* (appends to other streams run in parallel): the
   payloads were validated and encoded in Python before the call; the function locks
   the stream's row (``SELECT ... FOR UPDATE``, creating the row if the stream is
   new), which serialises writers of the *same* stream only; looks up the
   ``command_id`` (a repeat returns the earlier events); checks and records the
   consumer's ``tracking`` position; compares the stream version with
   ``expected_version``; records the command id.  A failed check raises (SQLSTATE
   ``AR001``/``AR002``, mapped to :class:`~arbiter_store.errors.ConcurrencyConflict`
   / :class:`~arbiter_store.errors.AlreadyProcessed`) and the statement's transaction
   rolls back: nothing is written.
2. *Critical section*: ``UPDATE log_position SET last_position = last_position + n``
   takes the counter row's lock and reserves positions ``last+1 .. last+n``; the batch
   is hashed (the chain covers the position: the same formula as
   :mod:`arbiter_store.integrity`, which ``verify`` recomputes in Python), inserted,
   the stream row updated and ``pg_notify`` queued; then the statement commits.  The
   row lock is released only when the transaction ends.

The next append blocks on the counter row until this one has committed (or rolled
back, undoing its counter update too, so no gap), and PostgreSQL makes a transaction
visible before it releases its locks, so the next append reads the committed value:
positions are gapless and increase in commit order, and once a reader sees position
``n`` it can already see ``1..n-1``.  Only "take the counter, hash, insert, commit" is
serial - no client round trip happens inside it, but the commit's WAL flush does, so
concurrent appends commit one flush at a time.  Locks are always taken in the order
stream row -> tracking row -> counter, so appends cannot deadlock.

Subscriptions LISTEN on a per-schema channel; every append NOTIFYs it in its own
transaction (delivered at commit), and a subscription also re-reads every
``poll_interval`` seconds in case a notification is missed (or the listening
connection breaks).
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Final

import psycopg
import psycopg_pool
from psycopg import sql

from .base import RAW_COLUMNS, StoreBase
from .errors import (
    AlreadyProcessed,
    ConcurrencyConflict,
    CorruptStore,
    InvalidSnapshot,
    MigrationRequired,
    StoreError,
)
from .integrity import EncodedEvent, RawEvent, VerifyInput
from .location import redact
from .migrations import POSTGRES_MIGRATIONS, latest_version, missing_schema_message
from .model import Anchor, Snapshot, Tracking, check_stream_id
from .subscription import Waiter
from .upcasting import Upcasters

__all__ = ["PostgresEventStore", "connect", "schema_version", "upgrade_postgres"]

Conn = psycopg.Connection[tuple[Any, ...]]
_MAX_INT64: Final = 2**63 - 1
_SNAPSHOT_COLUMNS: Final = "stream_id, version, state, state_hash, created"
_ANCHOR_COLUMNS: Final = "stream_id, version, head_hash, signature, created"

#: Record a consumer's position if it is beyond the recorded one (else no row).
_TRACK: Final = (
    "INSERT INTO tracking (consumer, position) VALUES (%s, %s) ON CONFLICT (consumer) "
    "DO UPDATE SET position = EXCLUDED.position WHERE tracking.position < EXCLUDED.position "
    "RETURNING position")
#: The append function of migration 3, and the SQLSTATEs it raises.
_APPEND: Final = (
    "SELECT * FROM arbiter_append(%s::text, %s::bigint, %s::text, %s::text, %s::bigint, "
    "%s::text[], %s::integer[], %s::bytea[], %s::text[], %s::bytea[], %s::text)")
_CONFLICT: Final = "AR001"
_PROCESSED: Final = "AR002"


def connect(url: str) -> Conn:
    """An autocommit connection, or a :class:`StoreError` saying why there is none."""
    try:
        return psycopg.connect(url, autocommit=True)
    except psycopg.Error as exc:
        raise StoreError(f"cannot connect to PostgreSQL at {redact(url)}: {exc}") from exc


def _current_schema(conn: Conn, url: str) -> str:
    row = conn.execute("SELECT current_schema()").fetchone()
    if row is None or row[0] is None:
        raise StoreError(f"no schema on the search_path of {redact(url)} exists: create it, "
                         "or fix the URL's options=-csearch_path=...")
    return str(row[0])


def schema_version(conn: Conn) -> int:
    """The newest migration applied in the connection's current schema (0: none)."""
    row = conn.execute("SELECT to_regclass(quote_ident(current_schema()) || "
                       "'.schema_migrations') IS NOT NULL").fetchone()
    if row is None or not row[0]:
        return 0
    row = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").fetchone()
    return 0 if row is None else int(row[0])


def upgrade_postgres(url: str) -> list[int]:
    """Apply pending migrations at ``url`` (see :func:`arbiter_store.migrations.upgrade`)."""
    with connect(url) as conn:
        try:
            return _upgrade(conn, url)
        except psycopg.Error as exc:
            raise StoreError(f"migrating {redact(url)} failed: {exc}") from exc


def _upgrade(conn: Conn, url: str) -> list[int]:
    schema = _current_schema(conn, url)
    latest = latest_version("postgresql")
    applied: list[int] = []
    with conn.transaction():
        # Serialise concurrent upgrades of this schema (e.g. two services starting).
        conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))",
                     ("arbiter_store.migrations:" + schema,))
        conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY "
                     "KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())")
        current = schema_version(conn)
        if current > latest:
            raise CorruptStore(f"{redact(url)} has store schema version {current}; this code "
                               f"understands up to {latest}")
        for migration in POSTGRES_MIGRATIONS:
            if migration.version > current:
                conn.execute(migration.sql.encode(), prepare=False)
                conn.execute("INSERT INTO schema_migrations (version, name) VALUES (%s, %s)",
                             (migration.version, migration.name))
                applied.append(migration.version)
    return applied


def channel_name(schema: str) -> str:
    """The LISTEN/NOTIFY channel of a schema's store (at most 63 bytes)."""
    name = f"arbiter_events.{schema}"
    if len(name.encode()) > 63:
        name = "arbiter_events." + hashlib.sha256(schema.encode()).hexdigest()[:40]
    return name


class PostgresEventStore(StoreBase):
    """Event store in a PostgreSQL schema; thread-safe (a connection pool)."""

    default_poll_interval = 1.0

    def __init__(
        self,
        url: str,
        *,
        auto_migrate: bool = False,
        upcasters: Upcasters | None = None,
        pool_size: int = 10,
        connect_timeout: float = 30.0,
    ) -> None:
        """Connect to ``url`` (a libpq URL such as ``postgresql://user@host/db``).

        ``auto_migrate=True`` applies pending migrations (tests, embedded use);
        otherwise a database that is behind raises :class:`MigrationRequired`.
        ``pool_size`` bounds the connections used by concurrent threads.
        """
        super().__init__(upcasters)
        self._url = url
        self._shown = redact(url)
        with connect(url) as conn:
            try:
                self._schema = _current_schema(conn, url)
                current = schema_version(conn)
                if current != latest_version("postgresql"):
                    if current < latest_version("postgresql") and not auto_migrate:
                        raise MigrationRequired(missing_schema_message(url, current))
                    _upgrade(conn, url)
            except psycopg.Error as exc:
                raise StoreError(f"cannot open the PostgreSQL store {self._shown}: {exc}") from exc
        self._channel = channel_name(self._schema)
        self._closed = False
        self._pool: psycopg_pool.ConnectionPool[Conn] = psycopg_pool.ConnectionPool(
            url, min_size=1, max_size=pool_size, kwargs={"autocommit": True}, open=False,
            timeout=connect_timeout, name=f"arbiter-store:{self._schema}")
        try:
            self._pool.open(wait=True, timeout=connect_timeout)
        except psycopg_pool.PoolTimeout as exc:
            self._pool.close()
            raise StoreError(f"cannot connect to PostgreSQL at {self._shown}") from exc

    @property
    def schema(self) -> str:
        return self._schema

    def __repr__(self) -> str:
        state = "closed" if self._closed else "open"
        return f"<PostgresEventStore {self._shown} schema={self._schema!r} ({state})>"

    @contextmanager
    def _connection(self) -> Iterator[Conn]:
        if self._closed:
            raise StoreError(f"the event store {self._shown} is closed")
        try:
            with self._pool.connection() as conn:
                yield conn
        except psycopg_pool.PoolClosed as exc:
            raise StoreError(f"the event store {self._shown} is closed") from exc
        except psycopg_pool.PoolTimeout as exc:
            raise StoreError(f"PostgreSQL store {self._shown}: no free connection") from exc
        except psycopg.Error as exc:
            raise StoreError(f"PostgreSQL store {self._shown}: {exc}") from exc

    # -- writing -----------------------------------------------------------------

    def _append_encoded(self, stream_id: str, expected_version: int,
                        events: list[EncodedEvent], command_id: str | None,
                        tracking: Tracking | None) -> list[RawEvent]:
        with self._connection() as conn:
            try:  # one statement in autocommit mode: one round trip, one transaction
                rows = conn.execute(_APPEND, (
                    stream_id, expected_version, command_id,
                    None if tracking is None else tracking.consumer,
                    None if tracking is None else tracking.position,
                    [e.type for e in events], [e.schema_version for e in events],
                    [e.payload for e in events], [e.rule for e in events],
                    [e.metadata for e in events], self._channel)).fetchall()
            except psycopg.Error as exc:
                detail = exc.diag.message_detail or "0"
                if exc.sqlstate == _CONFLICT:
                    raise ConcurrencyConflict(stream_id, expected_version, int(detail)) from None
                if exc.sqlstate == _PROCESSED and tracking is not None:
                    raise AlreadyProcessed(tracking.consumer, int(detail),
                                           tracking.position) from None
                if isinstance(exc, psycopg.errors.UniqueViolation) and (
                        exc.diag.table_name == "events"):
                    # A writer that bypassed the stream lock: the constraint is the backstop.
                    actual = _stream_version(conn, stream_id)
                    raise ConcurrencyConflict(stream_id, expected_version, actual) from exc
                raise
        return sorted((RawEvent(*row) for row in rows), key=lambda row: row.version)

    def _record_tracking(self, tracking: Tracking) -> None:
        with self._connection() as conn, conn.transaction():
            _track(conn, tracking)

    def _save_snapshot_raw(self, snapshot: Snapshot) -> None:
        with self._connection() as conn, conn.transaction():
            row = conn.execute("SELECT version FROM streams WHERE stream_id = %s FOR SHARE",
                               (snapshot.stream_id,)).fetchone()
            version = 0 if row is None else int(row[0])
            if snapshot.version > version:
                raise InvalidSnapshot(
                    f"cannot save a snapshot of {snapshot.stream_id!r} at version "
                    f"{snapshot.version}: the stream is at version {version}")
            conn.execute(
                f"INSERT INTO snapshots ({_SNAPSHOT_COLUMNS}) VALUES (%s, %s, %s, %s, %s) "
                "ON CONFLICT (stream_id, version) DO UPDATE SET state = EXCLUDED.state, "
                "state_hash = EXCLUDED.state_hash, created = EXCLUDED.created",
                (snapshot.stream_id, snapshot.version, snapshot.state, snapshot.state_hash,
                 snapshot.created))

    def _insert_anchor(self, anchor: Anchor) -> None:
        with self._connection() as conn:
            conn.execute(
                f"INSERT INTO anchors ({_ANCHOR_COLUMNS}) VALUES (%s, %s, %s, %s, %s) "
                "ON CONFLICT (stream_id, version) DO UPDATE SET head_hash = EXCLUDED.head_hash, "
                "signature = EXCLUDED.signature, created = EXCLUDED.created",
                (anchor.stream_id, anchor.version, anchor.head_hash, anchor.signature,
                 anchor.created))

    # -- reading -----------------------------------------------------------------

    def _read_stream_raw(self, stream_id: str, from_version: int,
                         to_version: int | None) -> list[RawEvent]:
        upper = _MAX_INT64 if to_version is None else min(to_version, _MAX_INT64)
        with self._connection() as conn:
            return _raw_stream(conn, stream_id, min(from_version, _MAX_INT64), upper)

    def _read_all_raw(self, from_position: int, limit: int | None) -> list[RawEvent]:
        with self._connection() as conn:
            rows = conn.execute(
                f"SELECT {RAW_COLUMNS} FROM events WHERE position >= %s "
                "ORDER BY position LIMIT %s", (min(from_position, _MAX_INT64), limit)).fetchall()
        return [RawEvent(*row) for row in rows]

    def stream_version(self, stream_id: str) -> int:
        check_stream_id(stream_id)
        with self._connection() as conn:
            return _stream_version(conn, stream_id)

    def stream_ids(self) -> list[str]:
        with self._connection() as conn:
            rows = conn.execute("SELECT stream_id FROM streams WHERE version > 0 "
                                "ORDER BY first_position").fetchall()
        return [row[0] for row in rows]

    def _consumer_position_raw(self, consumer: str) -> int:
        with self._connection() as conn:
            row = conn.execute("SELECT position FROM tracking WHERE consumer = %s",
                               (consumer,)).fetchone()
        return 0 if row is None else int(row[0])

    def _load_snapshot_raw(self, stream_id: str, max_version: int | None) -> Snapshot | None:
        upper = _MAX_INT64 if max_version is None else min(max_version, _MAX_INT64)
        with self._connection() as conn:
            row = conn.execute(
                f"SELECT {_SNAPSHOT_COLUMNS} FROM snapshots WHERE stream_id = %s "
                "AND version <= %s ORDER BY version DESC LIMIT 1", (stream_id, upper)).fetchone()
        return None if row is None else Snapshot(*row)

    def _stream_head(self, stream_id: str) -> tuple[int, str]:
        with self._connection() as conn:
            row = conn.execute("SELECT version, hash FROM events WHERE stream_id = %s "
                               "ORDER BY version DESC LIMIT 1", (stream_id,)).fetchone()
        return (0, "") if row is None else (int(row[0]), str(row[1]))

    def _anchors_raw(self, stream_id: str | None) -> list[Anchor]:
        with self._connection() as conn:
            return _anchors(conn, stream_id)

    def _verify_input(self, stream_id: str | None) -> VerifyInput:
        where, params = ("", ()) if stream_id is None else (" WHERE stream_id = %s", (stream_id,))
        with self._connection() as conn, conn.transaction():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            events = [RawEvent(*row) for row in conn.execute(
                f"SELECT {RAW_COLUMNS} FROM events{where} ORDER BY stream_id, version", params)]
            heads = {row[0]: (int(row[1]), str(row[2])) for row in conn.execute(
                f"SELECT stream_id, version, head_hash FROM streams{where}", params)}
            anchors = _anchors(conn, stream_id)
        return VerifyInput(events, heads, anchors, global_scope=stream_id is None)

    # -- subscriptions -------------------------------------------------------------

    def _new_waiter(self) -> Waiter:
        if self._closed:
            raise StoreError(f"the event store {self._shown} is closed")
        return _ListenWaiter(connect(self._url), self._channel, self._wake_listeners)

    def _wake_listeners(self) -> None:
        try:
            with self._connection() as conn:
                conn.execute("SELECT pg_notify(%s, 'wake')", (self._channel,))
        except StoreError:
            pass  # the subscriptions' poll interval bounds the delay

    def _close_backend(self) -> None:
        if not self._closed:
            self._closed = True
            self._pool.close()


class _ListenWaiter:
    """Waits for NOTIFY on a dedicated connection; polls if that connection breaks."""

    def __init__(self, conn: Conn, channel: str, send_wake: Callable[[], None]) -> None:
        self._woken = threading.Event()
        self._send_wake = send_wake
        try:
            conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
        except psycopg.Error as exc:
            conn.close()
            raise StoreError(f"cannot LISTEN for new events: {exc}") from exc
        self._conn: Conn | None = conn

    def arm(self) -> None:
        pass  # notifications that arrive during a read are queued, not lost

    def wait(self, timeout: float) -> None:
        conn = self._conn
        if self._woken.is_set():
            return
        if conn is None:
            self._woken.wait(timeout)
            return
        try:
            for _ in conn.notifies(timeout=timeout, stop_after=1):
                pass
        except psycopg.Error:
            self._conn = None  # fall back to polling
            conn.close()

    def wake(self) -> None:
        self._woken.set()
        self._send_wake()

    def close(self) -> None:
        self._woken.set()
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()


def _stream_version(conn: Conn, stream_id: str) -> int:
    row = conn.execute("SELECT version FROM streams WHERE stream_id = %s",
                       (stream_id,)).fetchone()
    return 0 if row is None else int(row[0])


def _tracked(conn: Conn, consumer: str) -> int:
    row = conn.execute("SELECT position FROM tracking WHERE consumer = %s",
                       (consumer,)).fetchone()
    return 0 if row is None else int(row[0])


def _track(conn: Conn, tracking: Tracking) -> None:
    if conn.execute(_TRACK, (tracking.consumer, tracking.position)).fetchone() is None:
        raise AlreadyProcessed(tracking.consumer, _tracked(conn, tracking.consumer),
                               tracking.position)


def _raw_stream(conn: Conn, stream_id: str, first: int, last: int) -> list[RawEvent]:
    rows = conn.execute(
        f"SELECT {RAW_COLUMNS} FROM events WHERE stream_id = %s "
        "AND version BETWEEN %s AND %s ORDER BY version", (stream_id, first, last)).fetchall()
    return [RawEvent(*row) for row in rows]


def _anchors(conn: Conn, stream_id: str | None) -> list[Anchor]:
    where, params = ("", ()) if stream_id is None else (" WHERE stream_id = %s", (stream_id,))
    rows = conn.execute(f"SELECT {_ANCHOR_COLUMNS} FROM anchors{where} "
                        "ORDER BY stream_id, version", params).fetchall()
    return [Anchor(*row) for row in rows]
