"""Versioned schema migrations for both backends.

Each backend has an ordered list of :class:`Migration` ``(version, name, sql)``; a
database records the versions it has applied, and upgrading applies the missing ones
in order, all in one transaction (DDL is transactional in both engines), so a failed
upgrade leaves the schema as it was.

* PostgreSQL records them in a ``schema_migrations`` table.  The store never
  migrates on its own: :class:`~arbiter_store.postgres.PostgresEventStore` refuses a
  database that is behind (:class:`~arbiter_store.errors.MigrationRequired`) unless it
  is opened with ``auto_migrate=True``.  :func:`upgrade` is what ``arbiter db
  upgrade --db URL`` runs; concurrent upgrades serialise on an advisory lock.
* SQLite (embedded, single-user) migrates itself when a store is opened; the applied
  version is ``PRAGMA user_version``.  Version 2 adds the hash chain and back-fills
  the hashes of events written by version 1.

Never edit a released migration: append a new one.
"""

from __future__ import annotations

import os
import sqlite3
from typing import Final, NamedTuple

from .errors import CorruptStore
from .integrity import GENESIS_HASH, RawEvent, row_hash
from .location import parse_location, redact

__all__ = [
    "POSTGRES_MIGRATIONS",
    "SQLITE_MIGRATIONS",
    "Migration",
    "apply_sqlite_migrations",
    "latest_version",
    "missing_schema_message",
    "upgrade",
]


class Migration(NamedTuple):
    version: int
    name: str
    sql: str


POSTGRES_MIGRATIONS: Final = (
    Migration(1, "event log", """
        CREATE TABLE events (
            position       bigint  PRIMARY KEY CHECK (position >= 1),
            stream_id      text    NOT NULL,
            version        bigint  NOT NULL CHECK (version >= 1),
            type           text    NOT NULL,
            schema_version integer NOT NULL,
            payload        bytea   NOT NULL,
            rule           text,
            metadata       bytea   NOT NULL,
            hash           text    NOT NULL,
            UNIQUE (stream_id, version)
        );
        CREATE TABLE streams (
            stream_id      text   PRIMARY KEY,
            version        bigint NOT NULL CHECK (version >= 0),
            head_hash      text   NOT NULL,
            first_position bigint UNIQUE
        );
        -- The global position counter: one row.  An append locks it (UPDATE) only
        -- to assign its positions, and holds it until it commits.
        CREATE TABLE log_position (
            singleton     boolean PRIMARY KEY DEFAULT true CHECK (singleton),
            last_position bigint  NOT NULL CHECK (last_position >= 0)
        );
        INSERT INTO log_position (singleton, last_position) VALUES (true, 0);
    """),
    Migration(2, "commands, tracking, snapshots, anchors", """
        CREATE TABLE commands (
            stream_id     text   NOT NULL,
            command_id    text   NOT NULL,
            first_version bigint NOT NULL,
            last_version  bigint NOT NULL,
            PRIMARY KEY (stream_id, command_id)
        );
        CREATE TABLE tracking (
            consumer text   PRIMARY KEY,
            position bigint NOT NULL CHECK (position >= 1)
        );
        CREATE TABLE snapshots (
            stream_id  text    NOT NULL,
            version    bigint  NOT NULL CHECK (version >= 1),
            state      bytea   NOT NULL,
            state_hash text    NOT NULL,
            created    text    NOT NULL,
            PRIMARY KEY (stream_id, version)
        );
        CREATE TABLE anchors (
            stream_id text   NOT NULL,
            version   bigint NOT NULL CHECK (version >= 1),
            head_hash text   NOT NULL,
            signature text   NOT NULL,
            created   text   NOT NULL,
            PRIMARY KEY (stream_id, version)
        );
    """),
    Migration(3, "append function", """
        -- One append (see arbiter_store.postgres), hashing each event as
        -- arbiter_store.integrity does.  Errors: AR001 = version conflict,
        -- AR002 = tracking already processed (DETAIL: the stored version / position).
        CREATE FUNCTION arbiter_append(
            p_stream text, p_expected bigint, p_command text, p_consumer text,
            p_tracking bigint, p_types text[], p_schema_versions integer[],
            p_payloads bytea[], p_rules text[], p_metadata bytea[], p_channel text
        ) RETURNS TABLE (
            o_stream_id text, o_version bigint, o_position bigint, o_type text,
            o_schema_version integer, o_payload bytea, o_rule text, o_metadata bytea,
            o_hash text
        ) LANGUAGE plpgsql AS $$
        DECLARE
            v_count  integer := cardinality(p_types);
            v_actual bigint;
            v_head   text;
            v_first  bigint;
            v_last   bigint;
            v_base   bigint;
            v_hashes text[] := '{}';
            -- for the hash chain: see arbiter_store.integrity (Python checks it in verify)
            v_domain bytea := decode('617262697465722d6576656e742d763100', 'hex');
            v_stream bytea := convert_to(p_stream, 'UTF8');
            v_field  bytea;
            v_rule   bytea;
        BEGIN
            -- Phase 1, concurrent with appends to other streams: lock the stream's row
            -- (created at version 0 if new; an error rolls that back).
            INSERT INTO streams (stream_id, version, head_hash)
                VALUES (p_stream, 0, repeat('0', 64)) ON CONFLICT (stream_id) DO NOTHING;
            SELECT s.version, s.head_hash INTO STRICT v_actual, v_head
                FROM streams s WHERE s.stream_id = p_stream FOR UPDATE;
            IF p_command IS NOT NULL THEN
                SELECT c.first_version, c.last_version INTO v_first, v_last
                    FROM commands c WHERE c.stream_id = p_stream AND c.command_id = p_command;
                IF FOUND THEN  -- a repeated command: its earlier events, nothing written
                    RETURN QUERY SELECT e.stream_id, e.version, e.position, e.type,
                            e.schema_version, e.payload, e.rule, e.metadata, e.hash
                        FROM events e WHERE e.stream_id = p_stream
                        AND e.version BETWEEN v_first AND v_last ORDER BY e.version;
                    RETURN;
                END IF;
            END IF;
            IF p_consumer IS NOT NULL THEN
                INSERT INTO tracking AS t (consumer, position) VALUES (p_consumer, p_tracking)
                    ON CONFLICT (consumer) DO UPDATE SET position = EXCLUDED.position
                    WHERE t.position < EXCLUDED.position;
                IF NOT FOUND THEN
                    RAISE EXCEPTION 'consumer % already processed position %',
                        p_consumer, p_tracking USING ERRCODE = 'AR002', DETAIL = (
                        SELECT t.position FROM tracking t WHERE t.consumer = p_consumer)::text;
                END IF;
            END IF;
            IF v_actual <> p_expected THEN
                RAISE EXCEPTION 'stream % is at version %, not %', p_stream, v_actual,
                    p_expected USING ERRCODE = 'AR001', DETAIL = v_actual::text;
            END IF;
            IF p_command IS NOT NULL THEN
                INSERT INTO commands (stream_id, command_id, first_version, last_version)
                    VALUES (p_stream, p_command, p_expected + 1, p_expected + v_count);
            END IF;
            -- Phase 2, the critical section: the counter row stays locked until COMMIT.
            UPDATE log_position SET last_position = last_position + v_count
                RETURNING last_position - v_count INTO STRICT v_base;
            FOR i IN 1 .. v_count LOOP
                -- sha256(prev || domain || frames), frame = tag || int8 length || bytes
                v_field := convert_to(p_types[i], 'UTF8');
                v_rule := CASE WHEN p_rules[i] IS NULL THEN 'n'::bytea || int8send(0)
                    ELSE 's'::bytea || int8send(octet_length(convert_to(p_rules[i], 'UTF8')))
                         || convert_to(p_rules[i], 'UTF8') END;
                v_head := encode(sha256(convert_to(v_head, 'UTF8') || v_domain
                    || 's'::bytea || int8send(octet_length(v_stream)) || v_stream
                    || 'i'::bytea || int8send(length((p_expected + i)::text))
                    || convert_to((p_expected + i)::text, 'UTF8')
                    || 'i'::bytea || int8send(length((v_base + i)::text))
                    || convert_to((v_base + i)::text, 'UTF8')
                    || 's'::bytea || int8send(octet_length(v_field)) || v_field
                    || 'i'::bytea || int8send(length(p_schema_versions[i]::text))
                    || convert_to(p_schema_versions[i]::text, 'UTF8')
                    || 'b'::bytea || int8send(octet_length(p_payloads[i])) || p_payloads[i]
                    || v_rule
                    || 'b'::bytea || int8send(octet_length(p_metadata[i])) || p_metadata[i]
                    ), 'hex');
                v_hashes := v_hashes || v_head;
            END LOOP;
            RETURN QUERY INSERT INTO events AS e (stream_id, version, position, type,
                    schema_version, payload, rule, metadata, hash)
                SELECT p_stream, p_expected + n, v_base + n, p_types[n], p_schema_versions[n],
                       p_payloads[n], p_rules[n], p_metadata[n], v_hashes[n]
                FROM generate_series(1, v_count) AS n
                RETURNING e.stream_id, e.version, e.position, e.type, e.schema_version,
                          e.payload, e.rule, e.metadata, e.hash;
            UPDATE streams s SET version = p_expected + v_count, head_hash = v_head,
                    first_position = COALESCE(s.first_position, v_base + 1)
                WHERE s.stream_id = p_stream;
            PERFORM pg_notify(p_channel, (v_base + v_count)::text);
        END
        $$;
    """),
)

SQLITE_MIGRATIONS: Final = (
    Migration(1, "event log", """
        CREATE TABLE IF NOT EXISTS events (
            position       INTEGER PRIMARY KEY CHECK (position >= 1),
            stream_id      TEXT    NOT NULL,
            version        INTEGER NOT NULL CHECK (version >= 1),
            type           TEXT    NOT NULL,
            schema_version INTEGER NOT NULL,
            payload        BLOB    NOT NULL,
            rule           TEXT,
            metadata       BLOB    NOT NULL,
            UNIQUE (stream_id, version)
        );
        CREATE TABLE IF NOT EXISTS streams (
            stream_id      TEXT    PRIMARY KEY,
            version        INTEGER NOT NULL CHECK (version >= 1),
            first_position INTEGER NOT NULL UNIQUE
        );
    """),
    Migration(2, "hash chain, commands, tracking, snapshots, anchors", f"""
        ALTER TABLE events ADD COLUMN hash TEXT;
        ALTER TABLE streams ADD COLUMN head_hash TEXT NOT NULL DEFAULT '{GENESIS_HASH}';
        CREATE TABLE commands (
            stream_id     TEXT    NOT NULL,
            command_id    TEXT    NOT NULL,
            first_version INTEGER NOT NULL,
            last_version  INTEGER NOT NULL,
            PRIMARY KEY (stream_id, command_id)
        ) WITHOUT ROWID;
        CREATE TABLE tracking (
            consumer TEXT    PRIMARY KEY,
            position INTEGER NOT NULL CHECK (position >= 1)
        );
        CREATE TABLE snapshots (
            stream_id  TEXT    NOT NULL,
            version    INTEGER NOT NULL CHECK (version >= 1),
            state      BLOB    NOT NULL,
            state_hash TEXT    NOT NULL,
            created    TEXT    NOT NULL,
            PRIMARY KEY (stream_id, version)
        );
        CREATE TABLE anchors (
            stream_id TEXT    NOT NULL,
            version   INTEGER NOT NULL CHECK (version >= 1),
            head_hash TEXT    NOT NULL,
            signature TEXT    NOT NULL,
            created   TEXT    NOT NULL,
            PRIMARY KEY (stream_id, version)
        );
    """),
)


def latest_version(backend: str) -> int:
    """The newest migration of ``backend`` (``"sqlite"`` or ``"postgresql"``)."""
    migrations = POSTGRES_MIGRATIONS if backend == "postgresql" else SQLITE_MIGRATIONS
    return migrations[-1].version


def upgrade(url: str | os.PathLike[str]) -> list[int]:
    """Apply the pending migrations to the store at ``url``; return their versions.

    ``[]`` means the store was up to date.  For SQLite this is what opening the store
    does anyway (a missing file is created).  Raises
    :class:`~arbiter_store.errors.CorruptStore` for a schema newer than this code.
    """
    location = parse_location(url)
    if location.backend == "sqlite":
        from .sqlite import SQLiteEventStore

        with SQLiteEventStore(location.target) as store:
            return list(store.applied_migrations)
    from .postgres import upgrade_postgres  # psycopg is imported only when needed

    return upgrade_postgres(location.target)


def apply_sqlite_migrations(conn: sqlite3.Connection, current: int, path: str) -> list[int]:
    """Apply SQLite migrations after ``current`` inside the caller's transaction."""
    latest = latest_version("sqlite")
    if current > latest:
        raise CorruptStore(
            f"{path!r} has store schema version {current}; this code understands up to {latest}"
        )
    applied: list[int] = []
    for migration in SQLITE_MIGRATIONS:
        if migration.version <= current:
            continue
        for statement in _statements(migration.sql):
            conn.execute(statement)
        if migration.version == 2:
            _backfill_sqlite_hashes(conn)
        conn.execute(f"PRAGMA user_version={migration.version}")
        applied.append(migration.version)
    return applied


def _statements(script: str) -> list[str]:
    """Split a migration script on ``;`` (migrations contain no ``;`` in literals)."""
    return [part.strip() for part in script.split(";") if part.strip()]


def _backfill_sqlite_hashes(conn: sqlite3.Connection) -> None:
    """Chain the events written before version 2 (in stream, version order)."""
    rows = conn.execute(
        "SELECT stream_id, version, position, type, schema_version, payload, rule, metadata, "
        "'' FROM events ORDER BY stream_id, version"
    ).fetchall()
    heads: dict[str, str] = {}
    updates: list[tuple[str, int]] = []
    for values in rows:
        row = RawEvent(*values)
        digest = row_hash(heads.get(row.stream_id, GENESIS_HASH), row)
        heads[row.stream_id] = digest
        updates.append((digest, row.position))
    conn.executemany("UPDATE events SET hash = ? WHERE position = ?", updates)
    conn.executemany("UPDATE streams SET head_hash = ? WHERE stream_id = ?",
                     [(digest, stream_id) for stream_id, digest in heads.items()])


def missing_schema_message(url: str, current: int) -> str:
    latest = latest_version("postgresql")
    shown = redact(url)
    state = "no event store schema" if current == 0 else f"store schema version {current}"
    return (
        f"the PostgreSQL database {shown} has {state}, this code needs version {latest}: "
        f"run `arbiter db upgrade --db {shown}` (or open the store with auto_migrate=True)"
    )


