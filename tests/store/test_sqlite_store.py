"""Contract tests for :class:`arbiter_store.EventStore`, run against SQLite.

``EventStoreContract`` is backend-neutral (eventsourcing's ``AggregateRecorderTestCase``
pattern): a backend subclasses it with a ``new_store_url`` fixture (a factory of URLs of
fresh stores, each openable several times); PostgreSQL will add ``TestPostgresStore``.
"""

from __future__ import annotations

import contextlib
import itertools
import pickle
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arbiter_store
from arbiter_store import (
    ConcurrencyConflict,
    CorruptStore,
    EventStore,
    NewEvent,
    SQLiteEventStore,
    StoredEvent,
    StoreError,
    UnsupportedBackend,
    open_store,
)

UrlFactory = Callable[[], str]  # each call: the URL of a fresh, empty store
Opener = Callable[[], EventStore]  # opens another store object on the same storage


def ev(n: int = 0, type_: str = "Happened", **payload: Any) -> NewEvent:
    return NewEvent(type_, 1, {"n": n, **payload})


def positions(events: list[StoredEvent]) -> list[int]:
    return [e.position for e in events]


_scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=8) | st.floats(
    allow_nan=False, allow_infinity=False)
_json = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=8)
_new_events = st.builds(
    NewEvent,
    type=st.sampled_from(["Drew", "Cast", "Resolved"]),
    schema_version=st.integers(1, 3),
    payload=st.dictionaries(st.text(max_size=6), _json, max_size=4),
    rule=st.none() | st.text(min_size=1, max_size=8),
    metadata=st.dictionaries(st.text(max_size=4), _scalars, max_size=2),
)
# (stream, batch, skew): skew 0 appends with the right expected version.
_ops = st.lists(
    st.tuples(st.sampled_from(["s-a", "s-b", "s-c"]), st.lists(_new_events, max_size=4),
              st.integers(-1, 1)),
    max_size=12,
)


class EventStoreContract:
    """Behaviour every backend must have.  Subclasses provide ``new_store_url``."""

    @pytest.fixture
    def store_url(self, new_store_url: UrlFactory) -> str:
        return new_store_url()

    @pytest.fixture
    def store(self, store_url: str) -> Iterator[EventStore]:
        with open_store(store_url) as store:
            yield store

    @pytest.fixture
    def open_other(self, store_url: str) -> Iterator[Opener]:
        """Open further store objects on the same storage (closed at teardown)."""
        with contextlib.ExitStack() as stack:
            yield lambda: stack.enter_context(open_store(store_url))

    def test_new_store_is_empty(self, store: EventStore) -> None:
        assert store.read_all() == [] == store.read_stream("nope")
        assert store.stream_ids() == [] and store.stream_version("nope") == 0

    def test_append_and_read_round_trip(self, store: EventStore) -> None:
        batch = [NewEvent("GameStarted", 2, {"players": ["a", "b"], "seed": 1}, "103.1",
                          {"actor": "host"}),
                 NewEvent("CardDrawn", 1, {"card": "Æther Vial", "big": 2**70, "x": 0.5})]
        stored = store.append("game-1", 0, batch)
        assert stored == store.read_stream("game-1") == store.read_all()
        first, second = stored
        assert (first.stream_id, first.version, first.position) == ("game-1", 1, 1)
        assert (first.type, first.schema_version, first.rule) == ("GameStarted", 2, "103.1")
        assert first.payload == {"players": ["a", "b"], "seed": 1}
        assert first.metadata == {"actor": "host"}
        assert (second.version, second.position, second.rule, second.metadata) == (2, 2, None, {})
        assert second.payload == {"card": "Æther Vial", "big": 2**70, "x": 0.5}
        (third,) = store.append("s", 0, [NewEvent("T", 1, {"pair": (1, 2), "b": {"z": 1}})])
        assert third.payload == {"b": {"z": 1}, "pair": [1, 2]}  # decoded JSON, also on append
        assert store.read_all()[-1] == third

    def test_unencodable_payload_raises_and_writes_nothing(self, store: EventStore) -> None:
        with pytest.raises(TypeError, match="not JSON-encodable"):
            store.append("s", 0, [ev(1), NewEvent("Bad", 1, {"obj": object()})])
        assert store.read_all() == [] and store.stream_ids() == []

    def test_versions_contiguous_and_positions_gapless(self, store: EventStore) -> None:
        store.append("b", 0, [ev(1), ev(2)])
        store.append("a", 0, [ev(3)])
        store.append("b", 2, [ev(4), ev(5), ev(6)])
        store.append("c", 0, [ev(7)])
        store.append("b", 5, [ev(8)])
        events = store.read_all()
        assert positions(events) == [e.payload["n"] for e in events] == list(range(1, 9))
        assert [e.version for e in store.read_stream("b")] == [1, 2, 3, 4, 5, 6]
        assert [(e.stream_id, e.version) for e in events][:5] == [
            ("b", 1), ("b", 2), ("a", 1), ("b", 3), ("b", 4)]
        assert store.stream_version("b") == 6 and store.stream_version("a") == 1
        assert store.stream_ids() == ["b", "a", "c"]  # order of first append

    def test_conflict_raises_and_writes_nothing(self, store: EventStore) -> None:
        store.append("s", 0, [ev(1), ev(2)])
        with pytest.raises(ConcurrencyConflict) as info:
            store.append("s", 1, [ev(3), ev(4), ev(5)])
        assert (info.value.stream_id, info.value.expected, info.value.actual) == ("s", 1, 2)
        assert "'s'" in str(info.value) and "expected version 1" in str(info.value)
        with pytest.raises(ConcurrencyConflict) as info:
            store.append("new", 3, [ev(6)])
        assert info.value.actual == 0
        assert positions(store.read_all()) == [1, 2]
        assert store.stream_ids() == ["s"]
        assert store.stream_version("s") == 2 and store.stream_version("new") == 0
        # retrying with the right expected version works
        assert [(e.version, e.position) for e in store.append("s", 2, [ev(3)])] == [(3, 3)]

    def test_empty_batch_is_a_no_op(self, store: EventStore) -> None:
        assert store.append("s", 0, []) == [] == store.append("s", 7, [])
        assert store.stream_ids() == []

    def test_read_stream_ranges(self, store: EventStore) -> None:
        store.append("s", 0, [ev(n) for n in range(1, 6)])
        store.append("other", 0, [ev(99)])

        def versions(**kwargs: Any) -> list[int]:
            return [e.version for e in store.read_stream("s", **kwargs)]

        assert versions(from_version=3) == [3, 4, 5]
        assert versions(from_version=2, to_version=4) == [2, 3, 4]
        assert versions(to_version=1) == [1]
        assert versions(from_version=4, to_version=99) == [4, 5]
        assert versions(from_version=6) == [] and versions(from_version=3, to_version=2) == []
        with pytest.raises(ValueError):
            store.read_stream("s", from_version=0)

    def test_read_all_from_position_with_limit(self, store: EventStore) -> None:
        for i in range(5):
            store.append(f"s{i}", 0, [ev(2 * i), ev(2 * i + 1)])
        assert positions(store.read_all(4)) == [4, 5, 6, 7, 8, 9, 10]
        assert positions(store.read_all(4, limit=3)) == [4, 5, 6]
        assert positions(store.read_all(limit=2)) == [1, 2]
        assert store.read_all(limit=0) == [] and store.read_all(11) == []
        assert list(store.iter_all(2, batch_size=3)) == store.read_all(2)
        with pytest.raises(ValueError):
            store.read_all(0)

    def test_invalid_arguments(self, store: EventStore) -> None:
        calls: list[Callable[[], object]] = [
            lambda: store.append("", 0, [ev()]), lambda: store.append("s", -1, [ev()]),
            lambda: NewEvent("", 1, {}), lambda: NewEvent("T", 0, {})]
        for call in calls:
            with pytest.raises(ValueError):
                call()

    def test_closed_store_refuses_calls(self, store_url: str) -> None:
        with open_store(store_url) as store:
            store.append("s", 0, [ev()])
        store.close()  # idempotent
        for call in (store.read_all, store.stream_ids, lambda: store.append("s", 1, [ev()])):
            with pytest.raises(StoreError, match="closed"):
                call()

    def test_reopen_reads_back_the_same_events(self, store_url: str) -> None:
        with open_store(store_url) as first:
            written = first.append("a", 0, [ev(1), ev(2)]) + first.append("b", 0, [ev(3)])
        with open_store(store_url) as again:
            assert again.read_all() == written
            assert again.stream_ids() == ["a", "b"] and again.stream_version("a") == 2
            assert positions(again.append("a", 2, [ev(4)])) == [4]

    def test_two_store_objects_interleave(self, store: EventStore, open_other: Opener) -> None:
        other = open_other()
        store.append("x", 0, [ev(1)])
        other.append("y", 0, [ev(2), ev(3)])
        store.append("y", 2, [ev(4)])
        with pytest.raises(ConcurrencyConflict) as info:
            other.append("y", 2, [ev(5)])  # stale: `store` wrote y@3
        assert info.value.actual == 3
        other.append("x", 1, [ev(5)])
        for view in (store, other):
            assert positions(view.read_all()) == [1, 2, 3, 4, 5]
            assert [e.payload["n"] for e in view.read_all()] == [1, 2, 3, 4, 5]
            assert view.stream_ids() == ["x", "y"]

    @pytest.mark.parametrize("shared", [True, False], ids=["shared-object", "own-objects"])
    def test_threaded_writers_get_gapless_positions(
        self, store: EventStore, open_other: Opener, shared: bool
    ) -> None:
        writers, per_writer = 4, sum(1 + i % 3 for i in range(20))
        stores = [store if shared else open_other() for _ in range(writers)]
        barrier = threading.Barrier(writers)

        def write(index: int) -> None:
            target, stream, version = stores[index], f"w{index}", 0
            barrier.wait()
            for i in range(20):
                batch = [ev(i, writer=index) for _ in range(1 + i % 3)]
                version = target.append(stream, version, batch)[-1].version

        with ThreadPoolExecutor(writers) as pool:
            list(pool.map(write, range(writers)))  # re-raises a writer's exception
        events = store.read_all()
        assert positions(events) == list(range(1, writers * per_writer + 1))
        for index in range(writers):
            mine = [e for e in events if e.stream_id == f"w{index}"]
            assert [e.version for e in mine] == list(range(1, per_writer + 1))
            assert mine == store.read_stream(f"w{index}")

    def test_competing_writers_on_one_stream(self, store: EventStore, open_other: Opener) -> None:
        stores = [open_other() for _ in range(4)]

        def write(index: int) -> None:
            for i in range(10):
                while True:  # read the version, try, retry on conflict
                    with contextlib.suppress(ConcurrencyConflict):
                        version = stores[index].stream_version("s")
                        stores[index].append("s", version, [ev(i, writer=index)])
                        break

        with ThreadPoolExecutor(4) as pool:
            list(pool.map(write, range(4)))
        events = store.read_stream("s")
        assert [e.version for e in events] == list(range(1, 41)) == positions(events)
        assert sorted((e.payload["writer"], e.payload["n"]) for e in events) == sorted(
            itertools.product(range(4), range(10)))

    def test_readers_never_see_partial_batches(self, store: EventStore, open_other: Opener) -> None:
        reader, done, seen = open_other(), threading.Event(), list[int]()

        def read() -> None:
            while not done.is_set():
                events = reader.read_all()
                assert positions(events) == list(range(1, len(events) + 1))
                seen.append(len(events))

        thread = threading.Thread(target=read)
        thread.start()
        try:
            for i in range(30):
                store.append("s", 5 * i, [ev(i) for _ in range(5)])
        finally:
            done.set()
            thread.join()
        assert seen and all(n % 5 == 0 for n in seen)

    @settings(max_examples=40, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(ops=_ops, page=st.integers(1, 5))
    def test_read_all_is_the_concatenation_of_committed_batches(
        self, new_store_url: UrlFactory, ops: list[tuple[str, list[NewEvent], int]], page: int
    ) -> None:
        expected: list[StoredEvent] = []
        versions: dict[str, int] = {}
        with open_store(new_store_url()) as store:
            for stream, batch, skew in ops:
                current = versions.get(stream, 0)
                expected_version = max(0, current + skew)
                if expected_version != current and batch:
                    with pytest.raises(ConcurrencyConflict):
                        store.append(stream, expected_version, batch)
                    continue
                stored = store.append(stream, expected_version, batch)
                assert stored == [
                    StoredEvent(stream, current + i, len(expected) + i, e.type, e.schema_version,
                                e.payload, e.rule, e.metadata)
                    for i, e in enumerate(batch, start=1)
                ]
                expected.extend(stored)
                if batch:
                    versions[stream] = current + len(batch)
            assert store.read_all() == expected
            assert list(store.iter_all(batch_size=page)) == expected
            assert store.stream_ids() == list(versions)
            for stream, version in versions.items():
                assert store.stream_version(stream) == version
                assert store.read_stream(stream) == [e for e in expected if e.stream_id == stream]


class TestSQLiteStore(EventStoreContract):
    @pytest.fixture
    def new_store_url(self, tmp_path: Path) -> UrlFactory:
        counter = itertools.count()
        return lambda: str(tmp_path / f"store-{next(counter)}.sqlite")

    def test_file_is_in_wal_mode_with_the_documented_schema(self, store_url: str) -> None:
        open_store(store_url).close()
        with contextlib.closing(sqlite3.connect(store_url)) as raw:
            assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            columns = [row[1] for row in raw.execute("PRAGMA table_info(events)")]
        assert columns == ["position", "stream_id", "version", "type", "schema_version",
                           "payload", "rule", "metadata"]

    def test_unique_constraint_is_a_backstop(self, store: EventStore, store_url: str) -> None:
        store.append("s", 0, [ev(1)])
        # a rogue writer that skips the version check and the streams table
        with contextlib.closing(sqlite3.connect(store_url)) as raw, raw:
            raw.execute("INSERT INTO events (stream_id, version, type, schema_version, "
                        "payload, metadata) VALUES ('s', 2, 'T', 1, x'7b7d', x'7b7d')")
        with pytest.raises(ConcurrencyConflict):
            store.append("s", 1, [ev(2), ev(3)])
        assert positions(store.read_all()) == [1, 2]

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


@pytest.mark.parametrize("url", ["postgresql://arbiter@localhost/arbiter", "postgres://h/db",
                                 "postgresql+psycopg://h/db", "mysql://h/db"])
def test_other_backends_are_not_supported_yet(url: str) -> None:
    message = "unknown" if "mysql" in url else "PostgreSQL comes with the event store issue"
    with pytest.raises(UnsupportedBackend, match=message):
        open_store(url)


def test_concurrency_conflict_is_a_picklable_store_error() -> None:
    error = ConcurrencyConflict("g", 3, 5)
    assert isinstance(error, StoreError)
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.stream_id, copy.expected, copy.actual, str(copy)) == ("g", 3, 5, str(error))
