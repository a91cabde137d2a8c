"""Contract: catch-up subscriptions (history first, then the live log; stop cleanly).

No assertion depends on timing: live tests wait for a known number of events, with a
generous idle ``timeout`` only so that a broken subscription fails instead of hanging.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest

from arbiter_store import EventStore, StoredEvent, StoreError, Subscription

from .contract import ContractBase, Opener, ev, positions

SAFETY = 60.0  # idle seconds before a stuck subscription gives up (never reached when OK)


def collect(subscription: Subscription, count: int) -> list[StoredEvent]:
    """Read ``count`` events, then stop the subscription."""
    seen: list[StoredEvent] = []
    with subscription:
        for event in subscription:
            seen.append(event)
            if len(seen) == count:
                break
    return seen


def in_thread(work: Callable[[], None]) -> threading.Thread:
    thread = threading.Thread(target=work)
    thread.start()
    return thread


class SubscriptionContract(ContractBase):
    @pytest.mark.parametrize("writer", ["same-object", "other-object"])
    def test_catches_up_then_follows_a_writer(
        self, store: EventStore, open_other: Opener, writer: str
    ) -> None:
        store.append("s", 0, [ev(n) for n in range(1, 11)])
        target = store if writer == "same-object" else open_other()
        subscription = store.subscribe(1, batch_size=7, poll_interval=0.05, timeout=SAFETY)
        started = threading.Event()

        def write() -> None:
            started.wait()
            version = 10
            for i in range(11, 61, 2):
                version = target.append("s", version, [ev(i), ev(i + 1)])[-1].version

        thread = in_thread(write)
        try:
            seen = [next(subscription)]
            started.set()
            seen += collect(subscription, 59)
        finally:
            started.set()
            thread.join()
        assert positions(seen) == list(range(1, 61))
        assert [e.payload["n"] for e in seen] == list(range(1, 61))
        assert seen == store.read_all()

    def test_concurrent_writers_are_seen_in_position_order(
        self, store: EventStore, open_other: Opener
    ) -> None:
        writers = [open_other() for _ in range(4)]
        subscription = store.subscribe(poll_interval=0.05, timeout=SAFETY)

        def write(index: int) -> None:
            version = 0
            for i in range(15):
                batch = [ev(i, writer=index) for _ in range(1 + i % 3)]
                version = writers[index].append(f"w{index}", version, batch)[-1].version

        with ThreadPoolExecutor(len(writers)) as pool:
            pending = pool.map(write, range(len(writers)))
            seen = collect(subscription, 4 * 30)
            list(pending)
        assert positions(seen) == list(range(1, 121))
        assert seen == store.read_all()

    def test_starts_at_the_given_position(self, store: EventStore) -> None:
        for i in range(5):
            store.append(f"s{i}", 0, [ev(i)])
        with store.subscribe(3, timeout=0) as subscription:
            assert positions(list(subscription)) == [3, 4, 5]
            assert subscription.position == 5 and subscription.stopped
        assert list(store.subscribe(6, timeout=0)) == []

    def test_timeout_ends_an_idle_subscription(self, store: EventStore) -> None:
        assert list(store.subscribe(timeout=0.2, poll_interval=0.05)) == []
        store.append("s", 0, [ev(1), ev(2)])
        assert positions(list(store.subscribe(timeout=0.2))) == [1, 2]

    def test_stop_from_another_thread_ends_a_waiting_iteration(
        self, store: EventStore, open_other: Opener
    ) -> None:
        # poll_interval is long: only stop() (or the next append) can end the wait soon.
        subscription = store.subscribe(poll_interval=30.0)
        first = threading.Event()
        seen: list[StoredEvent] = []

        def read() -> None:
            for event in subscription:
                seen.append(event)
                first.set()

        thread = in_thread(read)
        open_other().append("s", 0, [ev(1)])
        assert first.wait(SAFETY)
        subscription.stop()
        thread.join()
        assert positions(seen) == [1] and subscription.stopped
        assert list(subscription) == []
        subscription.stop()  # idempotent

    def test_closing_the_store_ends_its_subscriptions(self, store_url: str,
                                                      open_other: Opener) -> None:
        owner = open_other()
        owner.append("s", 0, [ev(1)])
        subscription = owner.subscribe(poll_interval=30.0)
        seen: list[StoredEvent] = []
        done = threading.Event()

        def read() -> None:
            try:
                for event in subscription:
                    seen.append(event)
            finally:
                done.set()

        thread = in_thread(read)
        while not seen:
            assert not done.wait(0.01)
        owner.close()
        thread.join()
        assert positions(seen) == [1] and subscription.stopped
        with pytest.raises(StoreError, match="closed"):
            owner.subscribe()

    def test_an_unused_subscription_can_be_stopped(self, store: EventStore) -> None:
        subscription = store.subscribe()
        subscription.stop()
        assert subscription.stopped and list(subscription) == []

    def test_invalid_arguments(self, store: EventStore) -> None:
        for kwargs in [{"from_position": 0}, {"batch_size": 0}, {"poll_interval": 0},
                       {"timeout": -1}]:
            with pytest.raises(ValueError):
                store.subscribe(**kwargs)
