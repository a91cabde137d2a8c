"""Where the relay keeps its position in the store's log.

A checkpoint is the store's tracking record for the consumer `relay:<name>`. It is
written at most once a second (after the broker confirmed every message up to it), so a
crash republishes at most a second of messages, which the idempotent consumers ignore.
"""

from __future__ import annotations

import contextlib
from typing import Protocol

from arbiter_store import AlreadyProcessed, EventStore, Tracking


class Checkpoints(Protocol):
    def load(self) -> int: ...

    def save(self, position: int) -> None: ...


class StoreCheckpoints:
    """The relay's position as a consumer tracking record of the store
    (`append(..., tracking=...)`, `consumer_position`): no event in the log."""

    def __init__(self, store: EventStore, name: str) -> None:
        self.store = store
        self.consumer = f"relay:{name}"
        self.stream = f"$relay:{name}"

    def load(self) -> int:
        return self.store.consumer_position(self.consumer)

    def save(self, position: int) -> None:
        if position < 1:
            return
        with contextlib.suppress(AlreadyProcessed):  # nothing new since the last save
            self.store.append(self.stream, 0, [], tracking=Tracking(self.consumer, position))


class MemoryCheckpoints:
    def __init__(self) -> None:
        self.position = 0

    def load(self) -> int:
        return self.position

    def save(self, position: int) -> None:
        self.position = position
