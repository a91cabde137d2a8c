"""The contract suite against SQLite, plus what only SQLite has (files, processes,
self-migration of version 1 files)."""

from __future__ import annotations

import contextlib
import itertools
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import arbiter_store
from arbiter_store import (
    ConcurrencyConflict,
    CorruptStore,
    EventStore,
    SQLiteEventStore,
    StoreError,
    open_store,
)
from arbiter_store.migrations import SQLITE_MIGRATIONS, upgrade

from .contract import RawSQL, UrlFactory, ev, positions
from .contract_suite import StoreContract


class TestSQLiteStore(StoreContract):
    @pytest.fixture
    def new_store_url(self, tmp_path: Path) -> UrlFactory:
        counter = itertools.count()
        return lambda: str(tmp_path / f"store-{next(counter)}.sqlite")

    @pytest.fixture
    def raw(self, store_url: str) -> Iterator[RawSQL]:
        with contextlib.closing(sqlite3.connect(store_url, isolation_level=None)) as conn:

            def run(statement: str, *params: Any) -> list[tuple[Any, ...]]:
                return conn.execute(statement, params).fetchall()

            yield run

    def test_file_is_in_wal_mode_with_the_documented_schema(self, store_url: str) -> None:
        open_store(store_url).close()
        with contextlib.closing(sqlite3.connect(store_url)) as raw:
            assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            columns = [row[1] for row in raw.execute("PRAGMA table_info(events)")]
        assert columns == ["position", "stream_id", "version", "type", "schema_version",
                           "payload", "rule", "metadata", "hash"]

    def test_unique_constraint_is_a_backstop(self, store: EventStore, store_url: str) -> None:
        store.append("s", 0, [ev(1)])
        # a rogue writer that skips the version check and the streams table
        with contextlib.closing(sqlite3.connect(store_url)) as raw, raw:
            raw.execute("INSERT INTO events (stream_id, version, type, schema_version, "
                        "payload, metadata) VALUES ('s', 2, 'T', 1, x'7b7d', x'7b7d')")
        with pytest.raises(ConcurrencyConflict):
            store.append("s", 1, [ev(2), ev(3)])
        assert positions(store.read_all()) == [1, 2]

    def test_writers_of_one_process_queue_on_one_lock(self, store_url: str) -> None:
        """Store objects of a process on one file wait for each other on a Python lock
        (bounded by busy_timeout), not in SQLite's sleeping busy handler."""
        with SQLiteEventStore(store_url, busy_timeout=0.2) as a, \
                SQLiteEventStore(store_url, busy_timeout=0.2) as b:
            assert a._write_lock is b._write_lock
            with SQLiteEventStore(":memory:") as private:
                assert private._write_lock is not a._write_lock
            a._write_lock.acquire()  # another writer of this process is writing
            try:
                with pytest.raises(StoreError, match="waiting for another writer"):
                    b.append("s", 0, [ev()])
            finally:
                a._write_lock.release()
            assert positions(b.append("s", 0, [ev()])) == [1]

    def test_separate_processes_get_gapless_positions(self, store_url: str) -> None:
        libs = str(Path(arbiter_store.__file__).resolve().parents[1])
        script = (
            "import sys; sys.path.insert(0, sys.argv[1]);"
            "from arbiter_store import NewEvent, open_store\n"
            "with open_store(sys.argv[2]) as s:\n"
            "    for i in range(40): s.append(sys.argv[3], i, [NewEvent('T', 1, {'i': i})])\n"
        )
        # The file does not exist yet: the processes also race to create the schema.
        procs = [subprocess.Popen([sys.executable, "-c", script, libs, store_url, f"p{n}"])
                 for n in range(4)]
        assert [p.wait(timeout=60) for p in procs] == [0] * 4
        with open_store(store_url) as store:
            events = store.read_all()
            assert positions(events) == list(range(1, 161))
            assert sorted(store.stream_ids()) == ["p0", "p1", "p2", "p3"]
            assert all(store.stream_version(f"p{n}") == 40 for n in range(4))

    @pytest.mark.parametrize("form", ["path", "pathlib", "url-absolute", "url-relative"])
    def test_locations(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: str) -> None:
        monkeypatch.chdir(tmp_path)
        locations: dict[str, str | Path] = {
            "path": str(tmp_path / "a.db"), "pathlib": tmp_path / "a.db",
            "url-absolute": f"sqlite:///{tmp_path / 'a.db'}", "url-relative": "sqlite:///a.db"}
        with open_store(locations[form]) as store:
            assert isinstance(store, SQLiteEventStore)
            store.append("s", 0, [ev()])
        with open_store(tmp_path / "a.db") as store:
            assert store.stream_version("s") == 1

    @pytest.mark.parametrize("url", [":memory:", "sqlite://", "sqlite:///:memory:"])
    def test_memory_stores_are_private(self, url: str) -> None:
        with open_store(url) as one, open_store(url) as two:
            one.append("s", 0, [ev()])
            assert two.read_all() == [] and positions(one.read_all()) == [1]

    @pytest.mark.parametrize("damage", ["junk", "application_id = 7", "user_version = 99"])
    def test_unreadable_foreign_or_newer_file_is_refused(self, store_url: str, damage: str) -> None:
        if damage == "junk":
            Path(store_url).write_bytes(b"this is not sqlite" * 100)
        else:
            open_store(store_url).close()
            with contextlib.closing(sqlite3.connect(store_url)) as raw:
                raw.execute(f"PRAGMA {damage}")
        with pytest.raises(CorruptStore):
            open_store(store_url)

    def test_undecodable_payload_is_corrupt(self, store: EventStore, store_url: str) -> None:
        store.append("s", 0, [ev()])
        with contextlib.closing(sqlite3.connect(store_url)) as raw, raw:
            raw.execute("UPDATE events SET payload = x'7b' WHERE position = 1")
        with pytest.raises(CorruptStore, match="position 1"):
            store.read_all()

    def test_missing_directory_is_a_store_error(self, tmp_path: Path) -> None:
        with pytest.raises(StoreError, match="cannot open"):
            open_store(str(tmp_path / "missing" / "x.sqlite"))

    def test_a_version_1_file_is_migrated_and_its_hashes_backfilled(self, store_url: str) -> None:
        with contextlib.closing(sqlite3.connect(store_url, isolation_level=None)) as raw:
            raw.executescript(SQLITE_MIGRATIONS[0].sql)  # a file written by the old code
            raw.execute(f"PRAGMA application_id = {0x41524253}")
            raw.execute("PRAGMA user_version = 1")
            raw.executemany(
                "INSERT INTO events (position, stream_id, version, type, schema_version, "
                "payload, rule, metadata) VALUES (?, ?, ?, 'T', 1, ?, NULL, x'7b7d')",
                [(1, "a", 1, b'{"n":1}'), (2, "b", 1, b'{"n":2}'), (3, "a", 2, b'{"n":3}')])
            raw.executemany("INSERT INTO streams VALUES (?, ?, ?)", [("a", 2, 1), ("b", 1, 2)])
        assert upgrade(store_url) == [2, 3] and upgrade(store_url) == []
        with open_store(store_url) as store:
            assert store.verify().ok and store.verify().events == 3
            assert [e.payload["n"] for e in store.read_stream("a")] == [1, 3]
            assert positions(store.append("a", 2, [ev(4)])) == [4]
            assert store.verify().ok

    def test_upgrade_creates_a_missing_file(self, store_url: str) -> None:
        assert upgrade(store_url) == [1, 2, 3]
        with open_store(store_url) as store:
            assert isinstance(store, SQLiteEventStore) and store.applied_migrations == ()


def test_unknown_schemes_are_not_supported() -> None:
    with pytest.raises(arbiter_store.UnsupportedBackend, match="unknown"):
        open_store("mysql://h/db")


def test_opening_sqlite_does_not_import_psycopg() -> None:
    script = ("import sys; import arbiter_store as s; s.open_store(':memory:').close(); "
              "assert 'psycopg' not in sys.modules, 'psycopg imported'")
    subprocess.run([sys.executable, "-c", script], check=True)

