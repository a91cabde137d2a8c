"""Catch-up subscriptions: read the log from a position, then follow it live.

A :class:`Subscription` keeps one integer, the last position it yielded.  It reads
``read_all(last + 1, batch_size)`` until that comes back empty, then waits on a
:class:`Waiter` (woken by appends: an in-process signal for SQLite, LISTEN/NOTIFY for
PostgreSQL) or at most ``poll_interval`` seconds (the fallback for writers the
waiter cannot hear), and reads again.  Because positions are gapless and assigned in
commit order, reading from ``last + 1`` can neither skip nor repeat an event; a gap
would mean a damaged store and raises :class:`~arbiter_store.errors.CorruptStore`.

The waiter is armed *before* each read, so an append that commits after the read
has started always wakes the next wait: no notification is lost between the read
and the wait.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from types import TracebackType
from typing import Protocol, Self

from .errors import CorruptStore, StoreError
from .model import StoredEvent

__all__ = ["EventWaiter", "Subscription", "Waiter"]


class Waiter(Protocol):
    """How a subscription sleeps until the log may have grown."""

    def arm(self) -> None:
        """Called before each read: forget wake-ups that the read will cover."""

    def wait(self, timeout: float) -> None:
        """Return when woken, or after ``timeout`` seconds."""

    def wake(self) -> None:
        """Make the current or next :meth:`wait` return (any thread)."""

    def close(self) -> None:
        """Release resources (called once, by the iterating thread)."""


class EventWaiter:
    """A :class:`Waiter` on a :class:`threading.Event`, set by local appends."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def arm(self) -> None:
        self._event.clear()

    def wait(self, timeout: float) -> None:
        self._event.wait(timeout)

    def wake(self) -> None:
        self._event.set()

    def close(self) -> None:
        self._event.set()


class Subscription(Iterator[StoredEvent]):
    """Iterator over every event from ``from_position`` on, following the live log.

    Use it from one thread; :meth:`stop` may be called from any thread and ends the
    iteration promptly.  It also ends after ``timeout`` seconds without a new event
    (if given) and when the store is closed.  A context manager that stops on exit.
    """

    def __init__(
        self,
        read: Callable[[int, int], list[StoredEvent]],
        waiter: Waiter,
        *,
        from_position: int,
        batch_size: int,
        poll_interval: float,
        timeout: float | None,
        on_close: Callable[[Subscription], None] | None = None,
    ) -> None:
        if from_position < 1:
            raise ValueError(f"from_position must be >= 1, got {from_position}")
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        if poll_interval <= 0:
            raise ValueError(f"poll_interval must be > 0, got {poll_interval}")
        if timeout is not None and timeout < 0:
            raise ValueError(f"timeout must be >= 0 or None, got {timeout}")
        self._read = read
        self._waiter = waiter
        self._position = from_position - 1
        self._batch_size = batch_size
        self._poll_interval = poll_interval
        self._timeout = timeout
        self._on_close = on_close
        self._buffer: deque[StoredEvent] = deque()
        self._stopped = threading.Event()
        self._lock = threading.Lock()
        self._iterating = False
        self._closed = False

    @property
    def position(self) -> int:
        """The position of the last event yielded (``from_position - 1`` at first)."""
        return self._position

    @property
    def stopped(self) -> bool:
        return self._stopped.is_set()

    def stop(self) -> None:
        """End the iteration (thread-safe; a waiting ``next()`` returns promptly)."""
        self._stopped.set()
        self._waiter.wake()
        with self._lock:
            if self._iterating:
                return  # the iterating thread releases the waiter
        self._release()

    close = stop

    def __iter__(self) -> Self:
        return self

    def __next__(self) -> StoredEvent:
        with self._lock:
            if self._closed:
                raise StopIteration
            self._iterating = True
        try:
            return self._next()
        except BaseException:
            self._stopped.set()
            raise
        finally:
            with self._lock:
                self._iterating = False
            if self._stopped.is_set():
                self._release()

    def _next(self) -> StoredEvent:
        idle_since = time.monotonic()
        while not self._stopped.is_set():
            if self._buffer:
                event = self._buffer.popleft()
                self._position = event.position
                return event
            self._waiter.arm()
            if self._stopped.is_set():  # stop() sets the flag before it wakes the waiter
                break
            try:
                batch = self._read(self._position + 1, self._batch_size)
            except StoreError:
                if self._stopped.is_set():  # e.g. the store was closed meanwhile
                    break
                raise
            if batch:
                expected = range(self._position + 1, self._position + 1 + len(batch))
                if [event.position for event in batch] != list(expected):
                    raise CorruptStore(
                        f"subscription expected positions from {self._position + 1}, read "
                        f"{[event.position for event in batch][:5]}...: the log has a gap"
                    )
                self._buffer.extend(batch)
                continue
            wait = self._poll_interval
            if self._timeout is not None:
                remaining = self._timeout - (time.monotonic() - idle_since)
                if remaining <= 0:
                    break
                wait = min(wait, remaining)
            self._waiter.wait(wait)
        self._stopped.set()
        raise StopIteration

    def _release(self) -> None:
        with self._lock:
            if self._closed or self._iterating:
                return
            self._closed = True
        self._buffer.clear()
        try:
            self._waiter.close()
        finally:
            if self._on_close is not None:
                self._on_close(self)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
