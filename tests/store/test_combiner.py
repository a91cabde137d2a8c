"""The group-commit combiner on its own (no database): who is grouped with whom, who
leads, and that nobody is left waiting when a group fails.

Groups are made deterministic by holding the first group's execution until the other
requests are queued (polled through the queue's length, with a timeout)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor

import pytest

from arbiter_store import StoreError, Tracking
from arbiter_store.combiner import MAX_GROUP_REQUESTS, AppendRequest, Combiner
from arbiter_store.integrity import EncodedEvent, HashParts

EVENT = EncodedEvent("T", 1, b"{}", None, b"{}")


def req(stream: str, consumer: str | None = None, size: int = 1) -> AppendRequest:
    tracking = None if consumer is None else Tracking(consumer, 1)
    return AppendRequest(stream, 0, [EVENT] * size, HashParts([], [], []), None, tracking)


class Recorder:
    """An ``execute`` that records groups (as stream ids) and gives each member a base;
    the first group blocks until :meth:`release`."""

    def __init__(self, fail: BaseException | None = None) -> None:
        self.groups: list[list[str]] = []
        self.gate = threading.Event()
        self.fail = fail
        self.threads: set[int] = set()

    def __call__(self, group: list[AppendRequest]) -> None:
        self.threads.add(threading.get_ident())
        if not self.groups:
            self.gate.wait(10)
        self.groups.append([member.stream_id for member in group])
        if self.fail is not None and len(self.groups) == 1:
            raise self.fail
        for member in group:
            member.base = len(self.groups)


@pytest.fixture
def pool() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(80) as executor:
        yield executor


def run(combiner: Combiner, recorder: Recorder, pool: ThreadPoolExecutor,
        first: AppendRequest, rest: list[AppendRequest]) -> list[Future[None]]:
    """Submit ``first`` (which blocks in execute), queue ``rest`` in order, release."""
    futures = [pool.submit(combiner.submit, first)]
    _until(lambda: len(recorder.groups) == 0 and bool(recorder.threads))
    for index, request in enumerate(rest, start=1):
        futures.append(pool.submit(combiner.submit, request))
        _until(lambda index=index: len(combiner._queue) == index)  # type: ignore[misc]
    recorder.gate.set()
    for future in futures:
        future.result(timeout=10)
    return futures


def _until(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 10
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.001)


def test_alone_a_request_is_its_own_group() -> None:
    recorder = Recorder()
    recorder.gate.set()
    combiner = Combiner(recorder)
    first, second = req("a"), req("b")
    combiner.submit(first)
    combiner.submit(second)
    assert recorder.groups == [["a"], ["b"]] and (first.base, second.base) == (1, 2)


def test_requests_queued_behind_a_group_share_the_next_one(pool: ThreadPoolExecutor) -> None:
    recorder = Recorder()
    combiner = Combiner(recorder)
    rest = [req(f"s{i}") for i in range(5)]
    run(combiner, recorder, pool, req("first"), rest)
    assert recorder.groups == [["first"], ["s0", "s1", "s2", "s3", "s4"]]
    assert all(request.base == 2 for request in rest)
    assert not combiner._busy and not combiner._queue


def test_a_stream_or_consumer_is_in_a_group_at_most_once(pool: ThreadPoolExecutor) -> None:
    recorder = Recorder()
    combiner = Combiner(recorder)
    rest = [req("x"), req("x"), req("y", "c"), req("z", "c"), req("w"), req("x")]
    run(combiner, recorder, pool, req("first"), rest)
    assert recorder.groups == [["first"], ["x", "y", "w"], ["x", "z"], ["x"]]


def test_groups_are_bounded(pool: ThreadPoolExecutor) -> None:
    recorder = Recorder()
    combiner = Combiner(recorder)
    rest = [req(f"s{i}") for i in range(MAX_GROUP_REQUESTS + 3)]
    run(combiner, recorder, pool, req("first"), rest)
    assert [len(group) for group in recorder.groups] == [1, MAX_GROUP_REQUESTS, 3]
    assert recorder.groups[1][0] == "s0"  # oldest first


def test_a_failed_group_fails_every_member_and_frees_the_lead(
    pool: ThreadPoolExecutor
) -> None:
    recorder = Recorder(fail=RuntimeError("boom"))
    combiner = Combiner(recorder)
    first = req("first")
    futures = [pool.submit(combiner.submit, first)]
    _until(lambda: bool(recorder.threads))
    recorder.gate.set()
    futures[0].result(timeout=10)
    assert isinstance(first.error, RuntimeError)  # the leader's own error, as raised
    # The queue and the lead are free again: later requests run normally.
    later = req("later")
    combiner.submit(later)
    assert later.base == 2 and later.error is None


def test_members_of_a_failed_group_get_their_own_store_errors(
    pool: ThreadPoolExecutor
) -> None:
    recorder = Recorder()
    combiner = Combiner(recorder)
    first, rest = req("first"), [req("a"), req("b")]
    failing = {"a", "b"}

    def execute(group: list[AppendRequest]) -> None:
        if {member.stream_id for member in group} == failing:
            raise StoreError("connection lost")
        recorder(group)

    combiner._execute = execute
    run(combiner, recorder, pool, first, rest)
    errors = [request.error for request in rest]
    assert all(isinstance(error, StoreError) for error in errors)
    assert errors[0] is not errors[1]  # each caller raises its own instance
    assert all(isinstance(error, StoreError) and "connection lost" in str(error)
               for error in errors)


class _GivesUp(threading.Event):
    """A request's event whose waiter is interrupted (e.g. Ctrl-C) once it is set."""

    def wait(self, timeout: float | None = None) -> bool:
        super().wait(timeout)
        raise KeyboardInterrupt


def test_a_waiter_that_gives_up_is_withdrawn_and_passes_the_lead_on(
    pool: ThreadPoolExecutor
) -> None:
    recorder = Recorder()
    combiner = Combiner(recorder)
    first, quitter, other = req("first"), req("quitter"), req("x")
    quitter._event = _GivesUp()
    futures = [pool.submit(combiner.submit, first)]
    _until(lambda: bool(recorder.threads))
    futures.append(pool.submit(combiner.submit, quitter))
    _until(lambda: len(combiner._queue) == 1)
    futures.append(pool.submit(combiner.submit, other))
    _until(lambda: len(combiner._queue) == 2)
    recorder.gate.set()  # "first" hands the lead to "quitter", who gives up
    futures[0].result(timeout=10)
    with pytest.raises(KeyboardInterrupt):
        futures[1].result(timeout=10)
    futures[2].result(timeout=10)
    assert recorder.groups == [["first"], ["x"]] and not quitter.done and other.base == 2
    assert not combiner._busy and not combiner._queue


def test_a_leader_waits_for_the_writers_of_the_last_group(
    pool: ThreadPoolExecutor, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a group of three, the first writer back waits (bounded) for the other two,
    so that they share one commit instead of committing one alone, then two."""
    monkeypatch.setattr("arbiter_store.combiner.MAX_GATHER_SECONDS", 30.0)
    recorder = Recorder()
    recorder.gate.set()
    combiner = Combiner(recorder)
    combiner._last_size, combiner._last_seconds = 3, 60.0
    futures = [pool.submit(combiner.submit, req("a"))]
    _until(lambda: len(combiner._queue) == 1 and combiner._busy)
    futures += [pool.submit(combiner.submit, req(name)) for name in ("b", "c")]
    for future in futures:
        future.result(timeout=10)
    assert recorder.groups == [["a", "b", "c"]]


def test_a_lone_writer_stops_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("arbiter_store.combiner.MAX_GATHER_SECONDS", 0.01)
    recorder = Recorder()
    recorder.gate.set()
    combiner = Combiner(recorder)
    combiner._last_size, combiner._last_seconds = 8, 60.0
    first, second = req("a"), req("b")
    combiner.submit(first)  # waits at most 10 ms for writers that do not come
    combiner.submit(second)
    assert recorder.groups == [["a"], ["b"]] and combiner._last_size == 1
