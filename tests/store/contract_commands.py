"""Contract: idempotent appends (``command_id``) and exactly-once consumer tracking."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from arbiter_store import (
    AlreadyProcessed,
    ConcurrencyConflict,
    EventStore,
    StoreError,
    Tracking,
)

from .contract import ContractBase, Opener, ev, positions


class CommandContract(ContractBase):
    def test_repeated_command_returns_the_earlier_result(self, store: EventStore) -> None:
        first = store.append("g", 0, [ev(1), ev(2)], command_id="cmd-1")
        store.append("other", 0, [ev(3)])
        # The retry carries a stale version and different events: neither matters.
        again = store.append("g", 0, [ev(99)], command_id="cmd-1")
        assert again == first and [e.version for e in again] == [1, 2]
        assert positions(store.read_all()) == [1, 2, 3] and store.stream_version("g") == 2
        later = store.append("g", 2, [ev(4)], command_id="cmd-2")
        assert positions(later) == [4]
        assert store.append("g", 3, [ev(5)], command_id="cmd-1") == first

    def test_command_ids_are_per_stream(self, store: EventStore) -> None:
        store.append("a", 0, [ev(1)], command_id="same")
        (b,) = store.append("b", 0, [ev(2)], command_id="same")
        assert (b.stream_id, b.position) == ("b", 2)

    def test_a_rejected_command_is_not_recorded(self, store: EventStore) -> None:
        store.append("g", 0, [ev(1)])
        with pytest.raises(ConcurrencyConflict):
            store.append("g", 0, [ev(2)], command_id="late")
        (stored,) = store.append("g", 1, [ev(2)], command_id="late")
        assert (stored.version, stored.position) == (2, 2)

    def test_invalid_command_id(self, store: EventStore) -> None:
        with pytest.raises(ValueError, match="command_id"):
            store.append("g", 0, [ev()], command_id="")

    def test_concurrent_duplicates_append_once(self, open_other: Opener) -> None:
        stores = [open_other() for _ in range(4)]
        barrier = threading.Barrier(len(stores))

        def send(target: EventStore) -> list[int]:
            barrier.wait()
            return positions(target.append("g", 0, [ev(1), ev(2)], command_id="once"))

        with ThreadPoolExecutor(len(stores)) as pool:
            results = list(pool.map(send, stores))
        assert results == [[1, 2]] * len(stores)
        assert positions(stores[0].read_all()) == [1, 2]


class TrackingContract(ContractBase):
    def test_tracking_is_recorded_with_the_events(self, store: EventStore) -> None:
        assert store.consumer_position("projector") == 0
        store.append("out", 0, [ev(1)], tracking=Tracking("projector", 5))
        assert store.consumer_position("projector") == 5
        store.append("out", 1, [ev(2)], tracking=Tracking("projector", 9))
        assert store.consumer_position("projector") == 9
        assert store.consumer_position("someone-else") == 0

    @pytest.mark.parametrize("position", [3, 2])
    def test_an_old_position_is_already_processed(self, store: EventStore, position: int) -> None:
        store.append("out", 0, [ev(1)], tracking=Tracking("p", 3))
        with pytest.raises(AlreadyProcessed) as info:
            store.append("out", 1, [ev(2)], tracking=Tracking("p", position))
        assert (info.value.consumer, info.value.recorded, info.value.attempted) == (
            "p", 3, position)
        assert "already processed" in str(info.value) and isinstance(info.value, StoreError)
        assert positions(store.read_all()) == [1] and store.consumer_position("p") == 3

    def test_a_conflict_records_no_tracking(self, store: EventStore) -> None:
        store.append("out", 0, [ev(1)])
        with pytest.raises(ConcurrencyConflict):
            store.append("out", 0, [ev(2)], tracking=Tracking("p", 1))
        assert store.consumer_position("p") == 0

    def test_an_empty_batch_records_only_the_tracking(self, store: EventStore) -> None:
        assert store.append("anything", 7, [], tracking=Tracking("p", 4)) == []
        assert store.consumer_position("p") == 4 and store.read_all() == []
        with pytest.raises(AlreadyProcessed):
            store.append("anything", 0, [], tracking=Tracking("p", 4))

    def test_a_repeated_command_ignores_the_tracking(self, store: EventStore) -> None:
        first = store.append("out", 0, [ev(1)], command_id="c", tracking=Tracking("p", 1))
        assert store.append("out", 0, [ev(1)], command_id="c",
                            tracking=Tracking("p", 1)) == first
        assert store.consumer_position("p") == 1

    def test_invalid_tracking(self) -> None:
        for consumer, position in [("", 1), ("p", 0), ("p", True)]:
            with pytest.raises(ValueError):
                Tracking(consumer, position)

    def test_competing_consumers_process_each_event_once(
        self, store: EventStore, open_other: Opener
    ) -> None:
        for i in range(1, 21):
            store.append(f"in-{i % 3}", store.stream_version(f"in-{i % 3}"), [ev(i)])
        workers = [open_other() for _ in range(3)]
        barrier = threading.Barrier(len(workers))

        def consume(index: int) -> None:
            target, stream = workers[index], f"out-{index}"
            barrier.wait()
            # the 20 input events only: a worker reading after another one appended would
            # also see that output, and process it as input (positions past 20)
            for event in target.read_all(1, limit=20):
                try:
                    target.append(stream, target.stream_version(stream),
                                  [ev(event.payload["n"], source=event.position)],
                                  tracking=Tracking("projector", event.position))
                except AlreadyProcessed:
                    continue

        with ThreadPoolExecutor(len(workers)) as pool:
            list(pool.map(consume, range(len(workers))))
        outputs = [e for e in store.read_all() if e.stream_id.startswith("out-")]
        sources = [e.payload["source"] for e in outputs]
        assert len(sources) == len(set(sources)) and sources == sorted(sources)
        assert store.consumer_position("projector") == 20 == sources[-1]

