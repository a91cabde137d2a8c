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
statement in autocommit mode, ``SELECT * FROM arbiter_append_group(...)`` (a PL/pgSQL
function, migration 4), so it is one transaction and one round trip.  It carries a
*group* of appends to distinct streams (concurrent appends through one store object
share a transaction and its WAL flush; see :mod:`arbiter_store.combiner`; alone, an
append is a group of one, sent to ``arbiter_append_one`` of migration 5, which does the
same for one request with scalar parameters and cheaper plans), in three steps:

1. *Outside the critical section* (appends to other streams run in parallel): the
   payloads were validated, encoded and their position-independent hash input framed
   in Python (:func:`~arbiter_store.integrity.hash_parts`) before the call; the
   function locks each member's stream row (``SELECT ... FOR UPDATE``, creating the
   row if the stream is new), which serialises writers of the *same* stream only;
2. looks up each member's ``command_id`` (a repeat returns the earlier versions),
   compares the stream version with ``expected_version``, and checks and records the
   consumer's ``tracking`` position; a member that fails a check writes nothing (its
   status says why, and Python raises the typed error) while the others go on;
3. *Critical section*: ``UPDATE log_position SET last_position = last_position + n``
   takes the counter row's lock and reserves positions ``last+1 .. last+n`` for all
   members that passed; each event's hash is finished (only the position's frame is
   new: the same formula as :mod:`arbiter_store.integrity`, which ``verify``
   recomputes in Python), the rows are inserted, the stream rows updated and
   ``pg_notify`` queued; then the statement commits.  The row lock is released only
   when the transaction ends.

The next append blocks on the counter row until this one has committed (or rolled
back, undoing its counter update too, so no gap), and PostgreSQL makes a transaction
visible before it releases its locks, so the next append reads the committed value:
positions are gapless and increase in commit order, and once a reader sees position
``n`` it can already see ``1..n-1``.  Only "take the counter, hash, insert, commit" is
serial - no client round trip happens inside it, but the commit's WAL flush does, so
transactions commit one flush at a time; the grouping is what lets concurrent writers
share flushes.  Locks are always taken in the order stream rows (by id bytes) ->
tracking rows (by consumer bytes) -> counter, so appends cannot deadlock.

Subscriptions LISTEN on a per-schema channel; every append NOTIFYs it in its own
transaction (delivered at commit), and a subscription also re-reads every
``poll_interval`` seconds in case a notification is missed (or the listening
connection breaks).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Final

import psycopg
import psycopg_pool

from .combiner import AppendRequest, failed
from .errors import (
    AlreadyProcessed,
    ConcurrencyConflict,
    CorruptStore,
    InvalidSnapshot,
    MigrationRequired,
    StoreError,
)
from .integrity import hash_parts
from .location import redact
from .migrations import latest_version, missing_schema_message
from .model import Anchor, Snapshot, Tracking
from .pgarrays import bigints, byteas, integers, register, texts
from .postgres_admin import (
    Conn,
    channel_name,
    connect,
    current_schema,
    schema_version,
    upgrade_postgres,
    upgrade_schema,
)
from .postgres_listen import ListenWaiter, register_read_only
from .reads import (
    ANCHOR_COLUMNS,
    SNAPSHOT_COLUMNS,
    Executor,
    Queries,
    SQLReads,
    anchor_from_row,
    stream_rows,
    stream_version,
    tracked,
    verify_rows,
)
from .retention import prune_query, prune_snapshots
from .subscription import Waiter
from .upcasting import Upcasters
from .verification import VerifyInput

__all__ = ["PostgresEventStore", "channel_name", "connect", "schema_version",
           "upgrade_postgres"]

_Q: Final = Queries("%s", "encode(sha256(state), 'hex')",
                    counter="SELECT last_position FROM log_position")
_PRUNE: Final = prune_query("%s")
#: Record a consumer's position if it is beyond the recorded one (else no row).
_TRACK: Final = (
    "INSERT INTO tracking (consumer, position) VALUES (%s, %s) ON CONFLICT (consumer) "
    "DO UPDATE SET position = EXCLUDED.position WHERE tracking.position < EXCLUDED.position "
    "RETURNING position")
#: The append function of migration 4, for a group of several requests.
_APPEND: Final = (
    "SELECT o_status, o_a, o_b FROM arbiter_append_group(%b::text[], %b::bigint[], "
    "%b::text[], %b::text[], %b::bigint[], %b::integer[], %b::integer[], %b::text[], "
    "%b::integer[], %b::bytea[], %b::text[], %b::bytea[], %b::bytea[], %b::bytea[], "
    "%b::bytea[], %b::text)")
#: The append function of migration 5, for a group of one request.
_APPEND_ONE: Final = (
    "SELECT o_status, o_a, o_b FROM arbiter_append_one(%s::text, %s::bigint, %s::text, "
    "%s::text, %s::bigint, %b::text[], %b::integer[], %b::bytea[], %b::text[], "
    "%b::bytea[], %b::bytea[], %b::bytea[], %b::bytea[], %s::text)")


class PostgresEventStore(SQLReads):
    """Event store in a PostgreSQL schema; thread-safe (a connection pool)."""

    default_poll_interval = 1.0
    _q = _Q

    def __init__(
        self,
        url: str,
        *,
        auto_migrate: bool = False,
        upcasters: Upcasters | None = None,
        pool_size: int = 10,
        connect_timeout: float = 30.0,
        read_only: bool = False,
        anchor_key: bytes | str | None = None,
        anchor_every: int | None = None,
    ) -> None:
        """Connect to ``url`` (a libpq URL such as ``postgresql://user@host/db``).

        ``auto_migrate=True`` applies pending migrations (tests, embedded use);
        otherwise a database that is behind raises :class:`MigrationRequired`.
        ``pool_size`` bounds the connections used by concurrent threads.
        ``read_only=True``: every transaction is read-only and nothing is migrated.
        """
        super().__init__(upcasters, anchor_key=anchor_key, anchor_every=anchor_every)
        self._url = url
        self._shown = redact(url)
        with connect(url) as conn:
            try:
                self._schema = current_schema(conn, url)
                current = schema_version(conn)
                if current != latest_version("postgresql"):
                    if current < latest_version("postgresql") and (read_only
                                                                   or not auto_migrate):
                        raise MigrationRequired(missing_schema_message(url, current))
                    upgrade_schema(conn, url)
            except psycopg.Error as exc:
                raise StoreError(f"cannot open the PostgreSQL store {self._shown}: {exc}") from exc
        self._channel = channel_name(self._schema)
        self._closed = False
        self._pool: psycopg_pool.ConnectionPool[Conn] = psycopg_pool.ConnectionPool(
            url, min_size=1, max_size=pool_size, kwargs={"autocommit": True}, open=False,
            configure=register_read_only if read_only else register, timeout=connect_timeout,
            name=f"arbiter-store:{self._schema}")
        try:
            self._pool.open(wait=True, timeout=connect_timeout)
        except psycopg_pool.PoolTimeout as exc:
            self._pool.close()
            raise StoreError(f"cannot connect to PostgreSQL at {self._shown}") from exc

    @property
    def schema(self) -> str:
        return self._schema

    def connected_as_superuser(self) -> bool:
        """Whether this store's connections are a superuser's (who ignores every grant:
        the services must connect as a member of ``arbiter_services``, docs/security.md)."""
        with self._connection() as conn:
            row = conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user",
                               ()).fetchone()
        return bool(row and row[0])

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

    def _append_group(self, group: list[AppendRequest]) -> None:
        group = lock_order(group)
        try:
            with self._connection() as conn:
                try:  # one statement in autocommit mode: one round trip, one transaction
                    rows = (conn.execute(_APPEND_ONE, self._params_one(group[0]))
                            if len(group) == 1 else
                            conn.execute(_APPEND, self._params(group))).fetchall()
                except psycopg.errors.UniqueViolation as exc:
                    if len(group) > 1 or exc.diag.table_name != "events":
                        raise
                    # A writer that bypassed the stream lock: the constraint is the backstop.
                    request = group[0]
                    actual = stream_version(conn, _Q, request.stream_id)
                    request.error = ConcurrencyConflict(request.stream_id,
                                                        request.expected_version, actual)
                    request.error.__cause__ = exc
                    return
        except StoreError as exc:
            cause = exc.__cause__
            if (len(group) > 1 and isinstance(cause, psycopg.Error)
                    and cause.sqlstate is not None and not self._closed):
                for request in group:  # rolled back: each on its own, for its own error
                    self._append_group([request])
                return
            for request in group:
                request.error = exc if len(group) == 1 else failed(exc)
            return
        for request, (status, a, b) in zip(group, rows, strict=True):
            if status == "ok":
                request.base = int(a)
            elif status == "repeat":  # committed and immutable: read after the fact
                try:
                    with self._connection() as conn:
                        request.earlier = stream_rows(conn, _Q, request.stream_id, a, b)
                except StoreError as exc:
                    request.error = exc
            elif status == "conflict":
                request.error = ConcurrencyConflict(request.stream_id,
                                                    request.expected_version, int(a))
            elif status == "processed" and request.tracking is not None:
                request.error = AlreadyProcessed(request.tracking.consumer, int(a),
                                                 request.tracking.position)
            else:
                request.error = CorruptStore(f"arbiter_append_group said {status!r}")

    def _params(self, group: list[AppendRequest]) -> tuple[Any, ...]:
        events = [event for request in group for event in request.events]
        parts = [hash_parts(r.stream_id, r.expected_version, r.events) if r.parts is None
                 else r.parts for r in group]
        return (
            texts([r.stream_id for r in group]), bigints([r.expected_version for r in group]),
            texts([r.command_id for r in group]),
            texts([None if r.tracking is None else r.tracking.consumer for r in group]),
            bigints([None if r.tracking is None else r.tracking.position for r in group]),
            integers([len(r.events) for r in group]),
            integers(_consumer_order(group)),
            texts([e.type for e in events]), integers([e.schema_version for e in events]),
            byteas([e.payload for e in events]), texts([e.rule for e in events]),
            byteas([e.metadata for e in events]),
            byteas([part for p in parts for part in p.pre]),
            byteas([part for p in parts for part in p.mid]),
            byteas([part for p in parts for part in p.end]),
            self._channel)

    def _params_one(self, request: AppendRequest) -> tuple[Any, ...]:
        events, tracking = request.events, request.tracking
        parts = (hash_parts(request.stream_id, request.expected_version, events)
                 if request.parts is None else request.parts)
        return (
            request.stream_id, request.expected_version, request.command_id,
            None if tracking is None else tracking.consumer,
            None if tracking is None else tracking.position,
            texts([e.type for e in events]), integers([e.schema_version for e in events]),
            byteas([e.payload for e in events]), texts([e.rule for e in events]),
            byteas([e.metadata for e in events]), byteas(parts.pre), byteas(parts.mid),
            byteas(parts.end), self._channel)

    def _record_tracking(self, tracking: Tracking) -> None:
        with self._connection() as conn, conn.transaction():
            _track(conn, tracking)

    def _save_snapshot_raw(self, snapshot: Snapshot, keep: int | None) -> Snapshot:
        with self._connection() as conn, conn.transaction():
            row = conn.execute("SELECT version FROM streams WHERE stream_id = %s FOR SHARE",
                               (snapshot.stream_id,)).fetchone()
            version = 0 if row is None else int(row[0])
            head = conn.execute(_Q.hash_at, (snapshot.stream_id, snapshot.version)).fetchone()
            if snapshot.version > version or head is None:
                raise InvalidSnapshot(
                    f"cannot save a snapshot of {snapshot.stream_id!r} at version "
                    f"{snapshot.version}: the stream is at version {version}")
            sealed = self._seal(snapshot, str(head[0]))
            conn.execute(
                f"INSERT INTO snapshots ({SNAPSHOT_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, "
                "%s) ON CONFLICT (stream_id, version) DO UPDATE SET state = EXCLUDED.state, "
                "state_hash = EXCLUDED.state_hash, created = EXCLUDED.created, "
                "head_hash = EXCLUDED.head_hash, signature = EXCLUDED.signature",
                (sealed.stream_id, sealed.version, sealed.state, sealed.state_hash,
                 sealed.created, sealed.head_hash, sealed.signature))
            prune_snapshots(conn, _PRUNE, snapshot.stream_id, keep)
            return sealed

    def _insert_anchor(self, anchor: Anchor) -> Anchor:
        """Inserted unless that anchor exists (no UPDATE: the services' role has none)."""
        with self._connection() as conn:
            conn.execute(
                f"INSERT INTO anchors ({ANCHOR_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s) "
                "ON CONFLICT DO NOTHING",
                (anchor.stream_id, anchor.version, anchor.head_hash, anchor.signature,
                 anchor.created, anchor.prev_version, anchor.final))
            row = conn.execute(f"SELECT {ANCHOR_COLUMNS} FROM anchors WHERE stream_id = %s "
                               "AND version = %s AND final = %s",
                               (anchor.stream_id, anchor.version, anchor.final)).fetchone()
        if row is None:  # pragma: no cover - inserted or already there
            raise StoreError(f"the anchor of {anchor.stream_id!r} at {anchor.version} vanished")
        return anchor_from_row(row)

    # -- reading (the queries are in arbiter_store.reads) ---------------------------

    def _reader(self) -> AbstractContextManager[Executor]:
        return self._connection()

    def _verify_input(self, stream_id: str | None) -> VerifyInput:
        with self._connection() as conn, conn.transaction():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            return verify_rows(conn, _Q, stream_id)

    # -- subscriptions -------------------------------------------------------------

    def _new_waiter(self) -> Waiter:
        if self._closed:
            raise StoreError(f"the event store {self._shown} is closed")
        return ListenWaiter(connect(self._url), self._channel, self._wake_listeners)

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


def lock_order(group: list[AppendRequest]) -> list[AppendRequest]:
    """The members sorted by stream id: the order in which the append function locks
    their stream rows (the same in every client, so groups cannot deadlock)."""
    return sorted(group, key=lambda request: request.stream_id)


def _consumer_order(group: list[AppendRequest]) -> list[int]:
    """Member numbers (1-based) sorted by consumer (the tracking rows' locking order),
    members without tracking last."""
    tracked = sorted((r.tracking.consumer, number) for number, r in enumerate(group, start=1)
                     if r.tracking is not None)
    return [number for _, number in tracked] + [
        number for number, r in enumerate(group, start=1) if r.tracking is None]


def _track(conn: Conn, tracking: Tracking) -> None:
    if conn.execute(_TRACK, (tracking.consumer, tracking.position)).fetchone() is None:
        raise AlreadyProcessed(tracking.consumer, tracked(conn, _Q, tracking.consumer),
                               tracking.position)
