"""Shared fixtures and helpers of the backend-neutral contract suite.

The contract is split by topic into mixins (``contract_*.py``: the log, commands and
tracking, snapshots and upcasters, subscriptions, tamper evidence), all built on
:class:`ContractBase` (eventsourcing's ``AggregateRecorderTestCase`` pattern).  A
backend's test class inherits every mixin and provides two fixtures:

* ``new_store_url``: a factory of URLs of fresh, empty, ready-to-open stores (each
  openable several times, isolated from every other test);
* ``raw``: a :data:`RawSQL` runner on the test's store, for tampering ("?" params).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from arbiter_store import EventStore, NewEvent, StoredEvent, Upcasters, open_store

UrlFactory = Callable[[], str]  # each call: the URL of a fresh, empty store
Opener = Callable[..., EventStore]  # opens another store object on the same storage
#: Runs one SQL statement ("?" placeholders) in its own transaction; returns the rows.
RawSQL = Callable[..., list[tuple[Any, ...]]]


def ev(n: int = 0, type_: str = "Happened", **payload: Any) -> NewEvent:
    return NewEvent(type_, 1, {"n": n, **payload})


def positions(events: list[StoredEvent]) -> list[int]:
    return [e.position for e in events]


class ContractBase:
    """Fixtures every contract mixin uses.  Subclasses provide ``new_store_url``/``raw``."""

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

            def opener(upcasters: Upcasters | None = None) -> EventStore:
                return stack.enter_context(open_store(store_url, upcasters=upcasters))

            yield opener
