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
  the hashes of events written by version 1.  Version 3 chains anchors
  (``prev_version``), lets one mark a stream's end (``final``, part of the anchors'
  key beside the version) and binds snapshots to the chain (``head_hash``,
  ``signature``); rows from before keep NULLs there (copied as they were: history is
  never rewritten), which ``verify`` reports as not covered.

Never edit a released migration: append a new one.
"""

from __future__ import annotations

import os
import sqlite3
from typing import Final

from .errors import CorruptStore
from .integrity import GENESIS_HASH, RawEvent, row_hash
from .location import parse_location, redact
from .migrations_postgres import POSTGRES_MIGRATIONS, Migration

__all__ = [
    "POSTGRES_MIGRATIONS",
    "SQLITE_MIGRATIONS",
    "Migration",
    "apply_sqlite_migrations",
    "latest_version",
    "missing_schema_message",
    "upgrade",
]


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
    Migration(3, "anchor chain and end marks, snapshots bound to the chain", """
        CREATE TABLE anchors_v3 (
            stream_id    TEXT    NOT NULL,
            version      INTEGER NOT NULL CHECK (version >= 1),
            head_hash    TEXT    NOT NULL,
            signature    TEXT    NOT NULL,
            created      TEXT    NOT NULL,
            prev_version INTEGER CHECK (prev_version >= 0),
            final        INTEGER NOT NULL DEFAULT 0 CHECK (final IN (0, 1)),
            PRIMARY KEY (stream_id, version, final)
        );
        INSERT INTO anchors_v3 (stream_id, version, head_hash, signature, created)
            SELECT stream_id, version, head_hash, signature, created FROM anchors;
        DROP TABLE anchors;
        ALTER TABLE anchors_v3 RENAME TO anchors;
        ALTER TABLE snapshots ADD COLUMN head_hash TEXT;
        ALTER TABLE snapshots ADD COLUMN signature TEXT
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


