"""Group commit: concurrent appends through one store object share one transaction.

Every durable commit waits for a disk flush, and commits that assign global positions
cannot overlap (each must see the previous one's last position), so with one commit
per append, writer threads queue for the flush one at a time.  Instead, an append
that finds another one in progress joins a queue; the thread in progress (the
*leader*), when done, hands the lead to the oldest waiting append, whose thread then
takes every compatible request from the queue and executes them in one transaction
with one flush (:meth:`~arbiter_store.base.StoreBase._append_group`).  Alone, an
append is its own group of one and never waits (nor queues: with nobody in progress
and a last group of one, it runs at once).  A leader that finds fewer requests
queued than the previous group held waits briefly for the others (the writers of that
group are on their way back; without the wait, the first one back would commit alone
and the rest wait for its flush): at most half the previous group's execution time and
at most :data:`MAX_GATHER_SECONDS`.

Each request keeps its own semantics inside the group: the backend checks its expected
version, command id and tracking separately and writes nothing for a request that
fails a check, while the others commit.  A group never holds two requests for the same
stream or the same tracked consumer (a later one waits for the next group), so the
requests of one group are independent and their checks see only committed state.  If
the group's transaction fails for any other reason, the backend re-runs its requests
one by one, so each caller gets exactly the error its own append would have raised.

Positions stay gapless and in commit order: a group is one transaction, numbered
like one append.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, Final

from .errors import CorruptStore, StoreError
from .integrity import EncodedEvent, HashParts
from .model import Tracking

__all__ = ["AppendRequest", "Combiner", "failed"]

#: Upper bounds of one group (requests, events), so one transaction stays small.
MAX_GROUP_REQUESTS: Final = 64
MAX_GROUP_EVENTS: Final = 5000
#: The longest a leader waits for the writers of the previous group to come back.
MAX_GATHER_SECONDS: Final = 0.001


class AppendRequest:
    """One append, queued for a group; the backend sets exactly one outcome.

    ``base``: positions ``base + 1 ...`` were assigned to ``events``, in order.
    ``earlier``: a repeated ``command_id``; the rows it wrote before (nothing new).
    ``error``: the exception this append raises (nothing was written for it).
    """

    __slots__ = ("_event", "_lead", "base", "command_id", "earlier", "error",
                 "events", "expected_version", "parts", "stream_id", "tracking")

    def __init__(self, stream_id: str, expected_version: int, events: list[EncodedEvent],
                 parts: HashParts | None, command_id: str | None,
                 tracking: Tracking | None) -> None:
        self.stream_id = stream_id
        self.expected_version = expected_version
        self.events = events
        self.parts = parts
        self.command_id = command_id
        self.tracking = tracking
        self.base: int | None = None
        self.earlier: list[Sequence[Any]] | None = None  # rows of base.EVENT_COLUMNS
        self.error: BaseException | None = None
        self._event: threading.Event | None = None  # made when the request must wait
        self._lead = False

    @property
    def done(self) -> bool:
        return self.base is not None or self.earlier is not None or self.error is not None


class Combiner:
    """Runs :class:`AppendRequest` groups through ``execute``, one group at a time."""

    def __init__(self, execute: Callable[[list[AppendRequest]], None]) -> None:
        self._execute = execute
        self._mutex = threading.Lock()
        self._arrived = threading.Condition(self._mutex)
        self._queue: deque[AppendRequest] = deque()
        self._busy = False
        self._last_size = 1  # of the last group
        self._last_seconds = 0.0  # the last group's execution time

    def submit(self, request: AppendRequest) -> None:
        """Run ``request`` (alone or in a group); on return its outcome is set."""
        with self._mutex:
            lead = not self._busy
            self._busy = True
            # Nobody in progress (so nobody queued) and no group to wait for: run alone
            # at once, without queueing.
            alone = lead and self._last_size <= 1
            if not alone:
                self._queue.append(request)
                if not lead:
                    event = request._event = request._event or threading.Event()
                    self._arrived.notify()
        if alone:
            started = time.perf_counter()
            try:
                self._execute([request])
            except BaseException as exc:  # don't leave anyone waiting
                if not request.done:
                    request.error = exc
            finally:
                self._last_seconds = time.perf_counter() - started
                with self._mutex:
                    self._pass_lead()
            return
        if not lead:
            try:
                event.wait()  # set when the request is done, or handed the lead
            except BaseException:  # e.g. KeyboardInterrupt: withdraw, don't block others
                self._withdraw(request)
                raise
            if not request._lead:
                return
        while True:  # the leader: run groups until its own request is done
            with self._mutex:
                self._gather()
                group = self._take()
                self._last_size = len(group)
            started = time.perf_counter()
            try:
                self._execute(group)
            except BaseException as exc:  # don't leave anyone waiting
                for member in group:
                    if not member.done:
                        member.error = exc if member is request else failed(exc)
            finally:
                self._last_seconds = time.perf_counter() - started
                for member in group:
                    if member is not request and member._event is not None:
                        member._event.set()
            if request.done:
                with self._mutex:
                    self._pass_lead()
                return

    def _gather(self) -> None:
        """While fewer requests are queued than the last group held, the writers of that
        group are probably on their way back: wait for them (caller holds the mutex),
        at most half the last group's execution time (so a lone writer, or a fast
        in-memory store, barely waits) and at most :data:`MAX_GATHER_SECONDS`."""
        if len(self._queue) >= self._last_size:
            return
        deadline = time.perf_counter() + min(MAX_GATHER_SECONDS, self._last_seconds / 2)
        while len(self._queue) < self._last_size:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                return
            self._arrived.wait(remaining)

    def _pass_lead(self) -> None:
        """Hand the lead to the oldest waiting request, if any (caller holds the mutex)."""
        if self._queue:
            successor = self._queue[0]
            successor._lead = True
            if successor._event is not None:  # always: it queued while we were busy
                successor._event.set()
        else:
            self._busy = False

    def _withdraw(self, request: AppendRequest) -> None:
        """Take back a request whose caller stopped waiting (if no group has taken it
        yet); if it had just been handed the lead, pass the lead on."""
        with self._mutex:
            if request in self._queue:
                self._queue.remove(request)
                if request._lead:
                    self._pass_lead()

    def _take(self) -> list[AppendRequest]:
        """The oldest queued requests that fit in one group (caller holds the mutex)."""
        group: list[AppendRequest] = []
        streams: set[str] = set()
        consumers: set[str] = set()
        events = 0
        kept: deque[AppendRequest] = deque()
        while self._queue:
            request = self._queue.popleft()
            consumer = None if request.tracking is None else request.tracking.consumer
            if group and (len(group) == MAX_GROUP_REQUESTS
                          or events + len(request.events) > MAX_GROUP_EVENTS
                          or request.stream_id in streams or consumer in consumers):
                kept.append(request)
                if len(group) == MAX_GROUP_REQUESTS:
                    break
                continue
            group.append(request)
            streams.add(request.stream_id)
            if consumer is not None:
                consumers.add(consumer)
            events += len(request.events)
        kept.extend(self._queue)
        self._queue = kept
        return group


def failed(exc: BaseException) -> StoreError:
    """A group member's own copy of the error that failed its whole group."""
    if isinstance(exc, StoreError) and type(exc) in (StoreError, CorruptStore):
        error = type(exc)(*exc.args)
    else:
        error = StoreError(f"the append's group commit failed: {exc!r}")
    error.__cause__ = exc
    return error
