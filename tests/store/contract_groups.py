"""Contract: group commit (see ``arbiter_store.combiner``).  Concurrent appends through
one store object share a transaction; each keeps its own checks and outcome.

The first tests hand a group to the backend directly (``_append_group``), so that
what is in the group does not depend on thread timing; the threaded ones check the
observable contract (gapless positions, per-append errors) under real contention.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import cast

import pytest

from arbiter_store import (
    AlreadyProcessed,
    ConcurrencyConflict,
    EventStore,
    NewEvent,
    StoredEvent,
    Tracking,
)
from arbiter_store.base import StoreBase, encode_events
from arbiter_store.combiner import AppendRequest
from arbiter_store.integrity import hash_parts

from .contract import ContractBase, Opener, RawSQL, ev, positions


def request(stream_id: str, expected_version: int, *events: NewEvent,
            command_id: str | None = None, tracking: Tracking | None = None) -> AppendRequest:
    """What ``append`` queues for the combiner."""
    encoded = encode_events(events)
    return AppendRequest(stream_id, expected_version, encoded,
                         hash_parts(stream_id, expected_version, encoded), command_id, tracking)


def run_group(store: EventStore, *group: AppendRequest) -> None:
    cast(StoreBase, store)._append_group(list(group))
    assert all(member.done for member in group)


class GroupContract(ContractBase):
    def test_a_group_commits_its_members_independently(self, store: EventStore) -> None:
        store.append("old", 0, [ev(1)])
        store.append("cmd", 0, [ev(2)], command_id="c1")
        store.append("proj", 0, [ev(3)], tracking=Tracking("reader", 5))
        new = request("new", 0, ev(10))
        stale = request("old", 0, ev(11))
        repeat = request("cmd", 1, ev(12), command_id="c1")  # a retry of c1
        seen = request("t", 0, ev(13), tracking=Tracking("reader", 4))
        unborn = request("unborn", 2, ev(14))  # a new stream at the wrong version
        pair = request("pair", 0, ev(15), ev(16), command_id="c2",
                       tracking=Tracking("other", 1))
        run_group(store, new, stale, repeat, seen, unborn, pair)

        assert (new.base, pair.base) == (3, 4)  # in member order, after positions 1-3
        assert isinstance(stale.error, ConcurrencyConflict) and stale.error.actual == 1
        assert repeat.earlier is not None and [row[2] for row in repeat.earlier] == [2]
        assert isinstance(seen.error, AlreadyProcessed) and seen.error.recorded == 5
        assert isinstance(unborn.error, ConcurrencyConflict) and unborn.error.actual == 0
        events = store.read_all()
        assert positions(events) == [1, 2, 3, 4, 5, 6]
        assert [(e.stream_id, e.version, e.payload["n"]) for e in events[3:]] == [
            ("new", 1, 10), ("pair", 1, 15), ("pair", 2, 16)]
        assert store.stream_ids() == ["old", "cmd", "proj", "new", "pair"]
        assert store.stream_version("unborn") == 0 and store.stream_version("t") == 0
        assert store.consumer_position("reader") == 5 and store.consumer_position("other") == 1
        assert store.append("pair", 0, [ev(99)], command_id="c2") == events[4:]
        assert store.verify().ok

    def test_a_group_of_failures_writes_nothing(self, store: EventStore) -> None:
        store.append("s", 0, [ev(1)])
        group = [request("s", 0, ev(2)), request("new", 3, ev(3))]
        run_group(store, *group)
        assert all(isinstance(member.error, ConcurrencyConflict) for member in group)
        assert positions(store.read_all()) == [1] and store.stream_ids() == ["s"]
        assert positions(store.append("s", 1, [ev(4)])) == [2] and store.verify().ok

    def test_an_unexpected_error_fails_only_its_own_member(
        self, store: EventStore, raw: RawSQL
    ) -> None:
        store.append("s", 0, [ev(1)])
        # A rogue writer took s@2 without the stream row: only the unique constraint
        # stops the member that appends s@2 (the other members must still commit).
        raw("INSERT INTO events (position, stream_id, version, type, schema_version, "
            "payload, metadata, hash) VALUES (999, 's', 2, 'T', 1, ?, ?, 'x')", b"{}", b"{}")
        rogue, a, b = request("s", 1, ev(2)), request("a", 0, ev(3)), request("b", 0, ev(4))
        run_group(store, a, rogue, b)
        assert isinstance(rogue.error, ConcurrencyConflict) and rogue.error.actual == 1
        assert a.base is not None and b.base == a.base + 1  # (SQLite numbers after 999)
        assert [e.payload["n"] for e in store.read_stream("a") + store.read_stream("b")] == [3, 4]
        assert [e.payload["n"] for e in store.read_stream("s", to_version=1)] == [1]

    @pytest.mark.parametrize("shared", [True, False], ids=["shared-object", "own-objects"])
    def test_concurrent_mixed_outcomes(
        self, store: EventStore, open_other: Opener, shared: bool
    ) -> None:
        """Writers through one object (grouped) or several: each append gets its own
        outcome - committed, conflict, repeat or already processed - and the log stays
        gapless and verifiable."""
        writers, rounds = 6, 12
        stores = [store if shared else open_other() for _ in range(writers)]
        barrier = threading.Barrier(writers)

        def write(index: int) -> list[StoredEvent]:
            target, stream, mine = stores[index], f"w{index}", list[StoredEvent]()
            barrier.wait()
            for i in range(rounds):
                batch = [ev(i, writer=index) for _ in range(1 + i % 3)]
                stored = target.append(stream, len(mine), batch, command_id=f"{stream}-{i}",
                                       tracking=Tracking(f"t{index}", i + 1))
                mine += stored
                assert target.append(stream, 0, [ev(-1)], command_id=f"{stream}-{i}") == stored
                with pytest.raises(ConcurrencyConflict):
                    target.append(stream, len(mine) - 1, [ev(-2)])
                with pytest.raises(AlreadyProcessed):
                    target.append(stream, len(mine), [ev(-3)], tracking=Tracking(f"t{index}", 1))
            return mine

        with ThreadPoolExecutor(writers) as pool:
            results = list(pool.map(write, range(writers)))
        events = store.read_all()
        assert positions(events) == list(range(1, len(events) + 1))
        assert sorted(positions(list(itertools.chain(*results)))) == positions(events)
        for index, mine in enumerate(results):
            assert store.read_stream(f"w{index}") == mine
            assert store.consumer_position(f"t{index}") == rounds
        assert store.verify().ok

    def test_competing_writers_through_one_object(self, store: EventStore) -> None:
        """Appends to one stream from several threads of one object never share a
        group; the losers of each race get conflicts, and retry."""
        def write(index: int) -> None:
            for i in range(8):
                while True:
                    with contextlib.suppress(ConcurrencyConflict):
                        store.append("s", store.stream_version("s"), [ev(i, writer=index)])
                        break

        with ThreadPoolExecutor(4) as pool:
            list(pool.map(write, range(4)))
        events = store.read_stream("s")
        assert [e.version for e in events] == list(range(1, 33)) == positions(events)
        assert sorted((e.payload["writer"], e.payload["n"]) for e in events) == sorted(
            itertools.product(range(4), range(8)))
