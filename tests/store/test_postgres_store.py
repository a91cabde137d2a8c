"""The contract suite against a real PostgreSQL, plus what only PostgreSQL has
(migrations, the refusal of un-upgraded schemas, per-stream locking, processes)."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

import arbiter_store
from arbiter_store import (
    ConcurrencyConflict,
    CorruptStore,
    EventStore,
    MigrationRequired,
    StoreError,
    Tracking,
    open_store,
)
from arbiter_store.migrations import latest_version, upgrade
from arbiter_store.pgarrays import register
from arbiter_store.postgres import (
    _APPEND,
    _APPEND_ONE,
    PostgresEventStore,
    _consumer_order,
    channel_name,
    lock_order,
)

from .contract import Opener, RawSQL, UrlFactory, ev, positions
from .contract_groups import request
from .contract_subscription import collect
from .contract_suite import StoreContract

ALL_MIGRATIONS = list(range(1, latest_version("postgresql") + 1))


class TestPostgresStore(StoreContract):
    hypothesis_examples = 15  # a fresh schema per example costs ~0.2 s

    @pytest.fixture
    def new_store_url(self, pg_schemas: Callable[[], str]) -> UrlFactory:
        def make() -> str:
            url = pg_schemas()
            assert upgrade(url) == ALL_MIGRATIONS
            return url

        return make

    @pytest.fixture
    def raw(self, store_url: str) -> Iterator[RawSQL]:
        with psycopg.connect(store_url, autocommit=True) as conn:

            def run(statement: str, *params: Any) -> list[tuple[Any, ...]]:
                cursor = conn.execute(statement.replace("?", "%s"), params)
                return cursor.fetchall() if cursor.description else []

            yield run

    def test_opens_the_postgres_backend(self, store: EventStore, store_url: str) -> None:
        assert isinstance(store, PostgresEventStore)
        assert store.schema.startswith("test_") and store.schema in repr(store)
        for scheme in ("postgres", "postgresql+psycopg"):
            with open_store(store_url.replace("postgresql", scheme, 1)) as other:
                assert isinstance(other, PostgresEventStore)

    def test_unique_constraint_is_a_backstop(self, store: EventStore, raw: RawSQL) -> None:
        store.append("s", 0, [ev(1)])
        # a rogue writer that skips the stream lock and the streams table
        raw("INSERT INTO events VALUES (1000, 's', 2, 'T', 1, '\\x7b7d', NULL, '\\x7b7d', 'x')")
        with pytest.raises(ConcurrencyConflict):
            store.append("s", 1, [ev(2), ev(3)])
        # the failed append's positions were rolled back with it: still gapless
        assert positions(store.append("t", 0, [ev(4)])) == [2]

    def test_streams_lock_separately(self, store: EventStore, store_url: str) -> None:
        """An open transaction holding stream a's lock does not delay appends to b."""
        store.append("a", 0, [ev(1)])
        with psycopg.connect(store_url) as blocker:
            blocker.execute("SELECT * FROM streams WHERE stream_id = 'a' FOR UPDATE")
            done = threading.Event()

            def append_b() -> None:
                store.append("b", 0, [ev(2)])
                done.set()

            thread = threading.Thread(target=append_b)
            thread.start()
            finished = done.wait(60)  # would hang (until rollback) with a global lock
            blocker.rollback()
            thread.join()
        assert finished and positions(store.read_all()) == [1, 2]

    def test_separate_processes_get_gapless_positions(self, store_url: str) -> None:
        libs = str(Path(arbiter_store.__file__).resolve().parents[1])
        script = (
            "import sys; sys.path.insert(0, sys.argv[1]);"
            "from arbiter_store import NewEvent, open_store\n"
            "with open_store(sys.argv[2]) as s:\n"
            "    for i in range(0, 40, 2): s.append(sys.argv[3], i, [NewEvent('T', 1, {}), "
            "NewEvent('T', 1, {'i': i})])\n"
        )
        procs = [subprocess.Popen([sys.executable, "-c", script, libs, store_url, f"p{n}"])
                 for n in range(4)]
        assert [p.wait(timeout=120) for p in procs] == [0] * 4
        with open_store(store_url) as store:
            assert positions(store.read_all()) == list(range(1, 161))
            assert all(store.stream_version(f"p{n}") == 40 for n in range(4))
            assert store.verify().ok

    def test_a_broken_listener_falls_back_to_polling(
        self, store: EventStore, open_other: Opener, raw: RawSQL
    ) -> None:
        assert isinstance(store, PostgresEventStore)
        subscription = store.subscribe(poll_interval=0.05, timeout=60)
        writer = open_other()
        writer.append("s", 0, [ev(1)])
        assert next(subscription).position == 1
        listen = f'LISTEN "{channel_name(store.schema)}"'
        killed = raw("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = ?",
                     listen)
        assert killed == [(True,)]
        writer.append("s", 1, [ev(2), ev(3)])
        assert positions(collect(subscription, 2)) == [2, 3]

    def test_a_rejected_first_append_leaves_no_stream_row(
        self, store: EventStore, open_other: Opener, raw: RawSQL
    ) -> None:
        """A new stream's row is made (at version 0) to lock it; an append rejected at the
        wrong version deletes it again, while another append may be waiting to create
        the same stream."""
        other = open_other()
        for i in range(40):
            stream, outcome = f"n{i}", dict[str, object]()

            def wrong(stream: str = stream, outcome: dict[str, object] = outcome) -> None:
                with pytest.raises(ConcurrencyConflict):
                    store.append(stream, 3, [ev(1)])
                outcome["wrong"] = True

            def right(stream: str = stream, outcome: dict[str, object] = outcome) -> None:
                outcome["right"] = other.append(stream, 0, [ev(2)])[0].version

            threads = [threading.Thread(target=wrong), threading.Thread(target=right)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert outcome == {"wrong": True, "right": 1}
        assert raw("SELECT count(*) FROM streams WHERE version = 0") == [(0,)]
        assert store.verify().ok and len(store.stream_ids()) == 40

    def test_groups_lock_in_one_global_order(self) -> None:
        group = [request("b", 0, ev(), tracking=Tracking("z", 1)), request("é", 0, ev()),
                 request("a", 0, ev(), tracking=Tracking("y", 1)), request("B", 0, ev())]
        ordered = lock_order(group)
        assert [r.stream_id for r in ordered] == ["B", "a", "b", "é"]  # code points = bytes
        assert _consumer_order(ordered) == [2, 3, 1, 4]  # consumers y, z; then the others

    def test_the_single_request_function_matches_the_group_function(
        self, pg_schemas: Callable[[], str]
    ) -> None:
        """arbiter_append_one (migration 5) returns and writes what arbiter_append_group
        does for a group of one: every status, the same rows and hashes."""
        scenario = [
            (request("s", 0, ev(1), ev(2), command_id="c1"), ("ok", 0, None)),
            (request("s", 2, ev(3), command_id="c1"), ("repeat", 1, 2)),
            (request("s", 0, ev(4)), ("conflict", 2, None)),
            (request("t", 5, ev(5)), ("conflict", 0, None)),
            (request("t", 0, ev(6), tracking=Tracking("k", 3)), ("ok", 2, None)),
            (request("u", 0, ev(7), tracking=Tracking("k", 3)), ("processed", 3, None)),
            (request("t", 0, ev(8), tracking=Tracking("k", 2)), ("processed", 3, None)),
            (request("s", 2, ev(9), command_id="c2"), ("ok", 3, None)),
        ]
        dumps = []
        for one in (True, False):
            url = pg_schemas()
            with open_store(url, auto_migrate=True) as store:
                assert isinstance(store, PostgresEventStore)
                with psycopg.connect(url, autocommit=True) as conn:
                    register(conn)
                    for member, expected in scenario:
                        rows = (conn.execute(_APPEND_ONE, store._params_one(member)) if one
                                else conn.execute(_APPEND, store._params([member]))).fetchall()
                        assert rows == [expected]
                    dumps.append([conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
                                  for table in ("events", "streams", "commands", "tracking")])
                assert store.verify().ok
        assert dumps[0] == dumps[1] and len(dumps[0][0]) == 4 and len(dumps[0][1]) == 2

    def test_channel_names_fit_postgres_identifiers(self) -> None:
        assert channel_name("public") == "arbiter_events.public"
        assert len(channel_name("x" * 63).encode()) <= 63


class TestMigrations:
    def test_an_unupgraded_schema_is_refused(self, pg_schemas: Callable[[], str]) -> None:
        url = pg_schemas()
        with pytest.raises(MigrationRequired, match=r"run `arbiter db upgrade --db postgresql"):
            open_store(url)
        with pytest.raises(MigrationRequired, match="no event store schema"):
            PostgresEventStore(url)

    def test_upgrade_applies_each_migration_once(self, pg_schemas: Callable[[], str]) -> None:
        url = pg_schemas()
        assert upgrade(url) == ALL_MIGRATIONS == [1, 2, 3, 4, 5, 6, 7] and upgrade(url) == []
        with psycopg.connect(url) as conn:
            rows = conn.execute("SELECT version, name FROM schema_migrations "
                                "ORDER BY version").fetchall()
        assert [version for version, _ in rows] == ALL_MIGRATIONS

    def test_a_partly_upgraded_schema_is_refused_then_upgraded(
        self, pg_schemas: Callable[[], str]
    ) -> None:
        url = pg_schemas()
        upgrade(url)
        with psycopg.connect(url, autocommit=True) as conn:  # back to version 1
            conn.execute("DELETE FROM schema_migrations WHERE version >= 2")
            conn.execute("DROP TABLE commands, tracking, snapshots, anchors")
            conn.execute("DROP FUNCTION arbiter_append, arbiter_append_group, "
                         "arbiter_append_one")
        with pytest.raises(MigrationRequired, match="has store schema version 1"):
            open_store(url)
        assert upgrade(url) == [2, 3, 4, 5, 6, 7]
        with open_store(url) as store:
            store.append("s", 0, [ev()], command_id="c")

    def test_auto_migrate(self, pg_schemas: Callable[[], str]) -> None:
        url = pg_schemas()
        with open_store(url, auto_migrate=True) as store:
            assert positions(store.append("s", 0, [ev()])) == [1]
        assert upgrade(url) == []

    def test_concurrent_upgrades_apply_once(self, pg_schemas: Callable[[], str]) -> None:
        url = pg_schemas()
        results: list[list[int]] = []
        threads = [threading.Thread(target=lambda: results.append(upgrade(url)))
                   for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(results) == [[], [], [], ALL_MIGRATIONS]

    def test_a_newer_schema_is_refused(self, pg_schemas: Callable[[], str]) -> None:
        url = pg_schemas()
        upgrade(url)
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("INSERT INTO schema_migrations (version, name) VALUES (99, 'future')")
        with pytest.raises(CorruptStore, match="version 99"):
            open_store(url)
        with pytest.raises(CorruptStore, match="version 99"):
            upgrade(url)

    def test_connection_problems_are_store_errors(self, pg_url: str) -> None:
        with pytest.raises(StoreError, match="cannot connect"):
            open_store("postgresql://postgres@127.0.0.1:1/none?connect_timeout=2")
        with pytest.raises(StoreError, match="no schema on the search_path"):
            open_store(f"{pg_url}?options=-csearch_path%3Dno_such_schema_here")
