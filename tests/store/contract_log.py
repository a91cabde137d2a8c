"""Contract: the append-only log (versions, gapless positions, conflicts, concurrency)."""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import pickle
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter_store import (
    ConcurrencyConflict,
    EventStore,
    NewEvent,
    StoredEvent,
    StoreError,
    open_store,
)

from .contract import ContractBase, Opener, UrlFactory, ev, positions

_scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=8) | st.floats(
    allow_nan=False, allow_infinity=False)
_json = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=8)
_new_events = st.builds(
    NewEvent,
    type=st.sampled_from(["Drew", "Cast", "Resolved"]),
    schema_version=st.integers(1, 3),
    payload=st.dictionaries(st.text(max_size=6), _json, max_size=4),
    rule=st.none() | st.text(st.characters(codec="utf-8", exclude_characters="\x00"),
                             min_size=1, max_size=8),
    metadata=st.dictionaries(st.text(max_size=4), _scalars, max_size=2),
)
# (stream, batch, skew): skew 0 appends with the right expected version.
_ops = st.lists(
    st.tuples(st.sampled_from(["s-a", "s-b", "s-c"]), st.lists(_new_events, max_size=4),
              st.integers(-1, 1)),
    max_size=12,
)


class LogContract(ContractBase):
    """Appending and reading: versions, positions, conflicts, concurrency."""

    #: Examples of the property test (each builds a fresh store: costly on a server).
    hypothesis_examples = 40

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

    def test_returned_events_decode_on_first_access_and_equal_a_later_read(
        self, store: EventStore
    ) -> None:
        """append returns the bytes it stored, decoded on first access (arbiter_store.lazy):
        they equal what a read decodes, and each field is decoded once (one dict)."""
        batch = [NewEvent("T", 1, {"pair": (1, 2), "deep": {"b": [1, {"c": None}]}}, None,
                          {"actor": "x", "at": (3,)}),
                 NewEvent("U", 2, {"n": 1, "big": 2**70}, "r")]
        stored = store.append("lazy", 0, batch)
        first = stored[0]
        assert first.payload is first.payload and first.metadata is first.metadata
        assert first.payload == {"deep": {"b": [1, {"c": None}]}, "pair": [1, 2]}
        assert type(first.payload) is dict and first.metadata == {"actor": "x", "at": [3]}
        assert stored == store.read_stream("lazy")
        # never accessed: equality, repr, pickling, asdict, replace all see decoded fields
        again = store.append("lazy", 2, batch)
        read = store.read_stream("lazy", 3)
        assert repr(again) == repr(read) and again == read
        untouched = store.append("lazy", 4, batch)
        assert pickle.loads(pickle.dumps(untouched)) == store.read_stream("lazy", 5)
        untouched = store.append("lazy", 6, batch)
        assert [dataclasses.asdict(e) for e in untouched] == [
            dataclasses.asdict(e) for e in store.read_stream("lazy", 7)]
        untouched = store.append("lazy", 8, batch)
        assert dataclasses.replace(untouched[1], version=1) == dataclasses.replace(
            store.read_stream("lazy", 10)[0], version=1)
        # threads reading a field for the first time at once all get the same dict
        events = store.append("lazy", 10, [ev(i, meta="m") for i in range(300)])
        barrier = threading.Barrier(4)

        def grab(_: int) -> list[dict[str, Any]]:
            barrier.wait()
            return [e.payload for e in events]

        with ThreadPoolExecutor(4) as pool:
            seen = list(pool.map(grab, range(4)))
        assert all(got[i] is e.payload for got in seen for i, e in enumerate(events))
        assert events == store.read_stream("lazy", 11)

    def test_rules_that_look_like_null_round_trip(self, store: EventStore) -> None:
        """SQLite binds a missing rule as the integer 0 (NULLIF(?, 0)): the texts '0' and
        '' stay texts, distinct from None, and the chain verifies."""
        rules = [None, "0", "", "00", None, "NULL"]
        stored = store.append("r", 0, [NewEvent("T", 1, {"i": i}, rule, {"m": i})
                                       for i, rule in enumerate(rules)])
        assert [e.rule for e in stored] == rules == [e.rule for e in store.read_stream("r")]
        assert stored == store.read_all() and store.verify().ok

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
            lambda: NewEvent("", 1, {}), lambda: NewEvent("T", 0, {}),
            # NUL cannot be stored in PostgreSQL text, so no backend takes it
            lambda: store.append("a\x00b", 0, [ev()]), lambda: NewEvent("T\x00", 1, {}),
            lambda: NewEvent("T", 1, {}, rule="1\x00"),
            lambda: store.append("s", 0, [ev()], command_id="c\x00"),
            lambda: NewEvent("T", 1, {}, rule="\ud800")]  # a lone surrogate is not text
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

    def test_read_all_is_the_concatenation_of_committed_batches(
        self, new_store_url: UrlFactory
    ) -> None:
        @settings(max_examples=self.hypothesis_examples, deadline=None)
        @given(ops=_ops, page=st.integers(1, 5))
        def check(ops: list[tuple[str, list[NewEvent], int]], page: int) -> None:
            with open_store(new_store_url()) as store:
                replay(store, ops, page)

        check()


def replay(store: EventStore, ops: list[tuple[str, list[NewEvent], int]], page: int) -> None:
    """Apply ``ops`` and compare the store with a model of the committed batches."""
    expected: list[StoredEvent] = []
    versions: dict[str, int] = {}
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
    assert store.verify().ok
