"""PostgreSQL administration: connections, the schema version, migrations, and the
LISTEN/NOTIFY channel name (see :mod:`arbiter_store.postgres`)."""

from __future__ import annotations

import hashlib
from typing import Any

import psycopg

from .errors import CorruptStore, StoreError
from .location import redact
from .migrations_postgres import POSTGRES_MIGRATIONS

__all__ = ["Conn", "channel_name", "connect", "current_schema", "schema_version",
           "upgrade_postgres"]

Conn = psycopg.Connection[tuple[Any, ...]]


def connect(url: str) -> Conn:
    """An autocommit connection, or a :class:`StoreError` saying why there is none."""
    try:
        return psycopg.connect(url, autocommit=True)
    except psycopg.Error as exc:
        raise StoreError(f"cannot connect to PostgreSQL at {redact(url)}: {exc}") from exc


def current_schema(conn: Conn, url: str) -> str:
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
            return upgrade_schema(conn, url)
        except psycopg.Error as exc:
            raise StoreError(f"migrating {redact(url)} failed: {exc}") from exc


def upgrade_schema(conn: Conn, url: str) -> list[int]:
    schema = current_schema(conn, url)
    latest = POSTGRES_MIGRATIONS[-1].version
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
