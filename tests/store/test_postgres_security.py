"""PostgreSQL only (issue 14): the services' role cannot rewrite stored events, commands
records or anchors; the position counter reveals a deleted tail of the log; a read-only
store changes nothing."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator

import psycopg
import pytest

from arbiter_store import MigrationRequired, NewEvent, StoreError, Tracking, open_store
from arbiter_store.migrations import upgrade
from arbiter_store.migrations_postgres_security import SERVICES_ROLE

from .conftest import with_schema
from .contract import ev
from .contract_integrity import KEY


@pytest.fixture
def schema_url(pg_schemas: Callable[[], str]) -> str:
    url = pg_schemas()
    upgrade(url)  # as the owner (the test database's superuser here)
    return url


@pytest.fixture
def services_url(pg_url: str, schema_url: str) -> Iterator[str]:
    """The schema's URL for a fresh login role that is a member of the services' role
    (what the deployment gives the services)."""
    login = f"svc_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {login} LOGIN NOSUPERUSER IN ROLE {SERVICES_ROLE}")
    schema = schema_url.rsplit("%3D", 1)[1]
    yield with_schema(pg_url.replace("postgres@", f"{login}@", 1), schema)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f"DROP ROLE {login}")


def test_the_services_role_appends_but_cannot_rewrite_history(services_url: str,
                                                              schema_url: str) -> None:
    with open_store(services_url, anchor_key=KEY, anchor_every=2) as store:
        for n in range(3):
            store.append("g", n, [NewEvent("Moved", 1, {"n": n}, None, {"command_id": f"c{n}"})],
                         command_id=f"c{n}", tracking=Tracking("relay", n + 1))
        store.save_snapshot("g", 3, b"state", "h", keep=1)
        store.save_snapshot("g", 3, b"state", "h", keep=1)  # upsert and prune
        store.anchor("g", final=True)
        assert store.verify(anchor_key=KEY).strict_ok
        assert store.load_snapshot("g") is not None
    with open_store(services_url) as store, open_store(schema_url) as admin:
        assert not store.connected_as_superuser()  # type: ignore[attr-defined]
        assert admin.connected_as_superuser()  # type: ignore[attr-defined]
    with psycopg.connect(services_url, autocommit=True) as conn:
        for statement in (
            "UPDATE events SET payload = '\\x7b7d' WHERE version = 2",
            "DELETE FROM events WHERE version = 3",
            "TRUNCATE events",
            "UPDATE anchors SET head_hash = 'x'",
            "DELETE FROM anchors",
            "UPDATE commands SET command_id = 'other'",
            "DELETE FROM commands",
            "DROP TABLE events",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)
        assert conn.execute("SELECT count(*) FROM events").fetchone() == (3,)


def test_a_role_outside_the_services_role_reads_nothing(pg_url: str, schema_url: str) -> None:
    login = f"other_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {login} LOGIN NOSUPERUSER")
    try:
        url = with_schema(pg_url.replace("postgres@", f"{login}@", 1),
                          schema_url.rsplit("%3D", 1)[1])
        with psycopg.connect(url, autocommit=True) as conn, pytest.raises(
                (psycopg.errors.InsufficientPrivilege, psycopg.errors.UndefinedTable)):
            conn.execute("SELECT * FROM events")  # no USAGE on the schema: not even seen
    finally:
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute(f"DROP ROLE {login}")


def test_the_position_counter_reveals_a_deleted_tail(schema_url: str) -> None:
    with open_store(schema_url) as store:
        store.append("g", 0, [ev(1), ev(2)])
    with psycopg.connect(schema_url, autocommit=True) as conn:
        head = conn.execute("SELECT hash FROM events WHERE version = 1").fetchone()
        conn.execute("DELETE FROM events WHERE version = 2")
        conn.execute("UPDATE streams SET version = 1, head_hash = %s", head)
    with open_store(schema_url) as store:
        found = [str(p) for p in store.verify().problems]
    assert found == ["store (position 2): the log's position counter is at 2 but its last "
                     "event is at position 1: events at the end of the log were deleted"]


def test_a_read_only_store_writes_nothing_and_migrates_nothing(
    schema_url: str, pg_schemas: Callable[[], str]
) -> None:
    with open_store(schema_url) as store:
        store.append("g", 0, [ev(1)])
    with open_store(schema_url, read_only=True) as reader:
        assert [e.version for e in reader.read_stream("g")] == [1]
        assert reader.verify().ok
        with pytest.raises(StoreError, match="read-only"):
            reader.append("g", 1, [ev(2)])
    empty = pg_schemas()
    with pytest.raises(MigrationRequired):
        open_store(empty, read_only=True, auto_migrate=True)
    with psycopg.connect(empty) as conn:
        assert conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = "
                            "current_schema()").fetchone() == (0,)
