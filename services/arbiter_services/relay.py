"""The relay (outbox publisher) and work dispatcher: the only process that publishes
what the store holds.

It tails the store's global log from its checkpoint (`read_all`), publishes each game
event to `arbiter.events` and each rejection to `arbiter.audit`, and after each page
derives, from the resulting state of every game it touched, the engine work each one
owes, sent to the owner's work topic. Only committed events are read, so nothing is
published that was not stored; the checkpoint moves only after the broker confirmed the
page, so nothing is lost (a crash republishes at most the last unconfirmed pages, and
consumers are idempotent).

A sweep re-sends work that made no progress (lost messages, a broker restart that lost
its topics), and on start the relay re-derives the work of recently active games.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Sequence
from itertools import groupby
from typing import Any

import anyio
from opentelemetry.sdk.trace import TracerProvider
from pydantic import BaseModel

from arbiter_core.kernel import shell_loop
from arbiter_core.kernel.decide import WORK_OWNERS
from arbiter_runtime.audit import AUDIT_PREFIX, is_game_stream
from arbiter_runtime.projection import ProjectionCache
from arbiter_services import profiling
from arbiter_services.checkpoint import Checkpoints
from arbiter_services.messages import AuditMessage, EventMessage, WorkItem
from arbiter_services.observability import Metrics, continued_span, current_traceparent, log
from arbiter_services.topics import AUDIT, EVENTS, PER_MARKER_WORK, work_key, work_topic
from arbiter_store import EventStore, StoredEvent

#: publish(topic, message, key) -> an awaitable confirmation (or None when confirmed)
Publish = Callable[[str, BaseModel, bytes], Awaitable[Any]]
#: publish_many(topic, [(message, key), ...]) -> confirmations to await; each key's
#: messages stay in order (they go to one partition, in as few batches as fit)
PublishMany = Callable[[str, Sequence[tuple[BaseModel, bytes]]], Awaitable[list[Any]]]
Outgoing = tuple[str, BaseModel, bytes]  # topic, message, key
RETRY_S = 0.5  # after a failed page (the broker is away)
PUBLIC_META = ("command", "command_id", "correlation_id", "causation_id", "actor",
               "work", "work_id", "service", "recorded_at", "trace")


WorkKey = tuple[str, int]  # (owner, marker for per-marker work, else 0)


def work_key_of(kind: str, marker: int) -> WorkKey:
    return (WORK_OWNERS[kind], marker if kind in PER_MARKER_WORK else 0)


def owed_work(cache: ProjectionCache, game_id: str, meta: dict[str, Any]) -> list[WorkItem]:
    """The engine work a game owes now: one item per owner of game-wide work (naming its
    lowest marker: the owner does all of its kinds the game owes) and one per marker
    with per-marker work (the stack resolver's, keyed `game:marker`)."""
    s = cache.peek(game_id).state
    if not s.started:
        return []
    out: dict[WorkKey, WorkItem] = {}
    for marker, kind in shell_loop.owed_work(s):
        if kind in WORK_OWNERS:
            key = work_key_of(kind, marker)
            if key not in out:
                out[key] = WorkItem(
                    game_id=game_id, marker=marker, version=s.version,
                    kind=kind, owner=WORK_OWNERS[kind],
                    correlation_id=meta.get("correlation_id"),
                    causation_id=meta.get("command_id") or meta.get("work_id"))
    return list(out.values())


def done_work(meta: dict[str, Any]) -> WorkKey | None:
    """The work key an engine batch (its metadata) did, if it is one."""
    kind, work_id = meta.get("work"), meta.get("work_id")
    if meta.get("command") != "RunEngineWork" or kind not in WORK_OWNERS or not work_id:
        return None
    return work_key_of(str(kind), int(str(work_id).rsplit(":", 1)[1]))


class Relay:
    def __init__(self, store: EventStore, publish: Publish, checkpoints: Checkpoints,
                 metrics: Metrics, tracer: TracerProvider, page_size: int = 500,
                 poll_s: float = 0.005, sweep_s: float = 3.0,
                 recover_window: int = 20_000,
                 publish_many: PublishMany | None = None) -> None:
        self.store = store
        self.publish = publish
        self.publish_many = publish_many
        self.checkpoints = checkpoints
        self.metrics = metrics
        self.tracer = tracer
        self.page_size = page_size
        self.poll_s = poll_s
        self.sweep_s = sweep_s
        self.recover_window = recover_window
        self.cache = ProjectionCache(store, max_games=5000)
        self.position = 0
        self._unsaved = 0
        self._saved_at = 0.0
        #: work sent and not yet seen done: game -> key -> when (sent again only once its
        #: owner appended work for the key, or by the sweep)
        self._sent: dict[str, dict[WorkKey, float]] = {}
        self._last_meta: dict[str, dict[str, Any]] = {}
        self.stopping = asyncio.Event()
        self.alive_at = time.monotonic()

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        self.position = await anyio.to_thread.run_sync(self.checkpoints.load)
        await self.recover()

    async def run(self) -> None:
        started = False
        last_sweep = time.monotonic()
        while not self.stopping.is_set():
            self.alive_at = time.monotonic()
            try:
                if not started:
                    await self.start()
                    started = True
                n = await self.step()
                if time.monotonic() - last_sweep >= self.sweep_s:
                    await self.sweep()
                    last_sweep = time.monotonic()
            except Exception as e:  # the broker (or the store) is away: nothing moved
                log().warning("relay step failed, retrying", error=repr(e))
                self.broker_lost()
                last_sweep = 0.0
                n = 0
                await self._pause(RETRY_S)
                continue
            if n == 0:
                await self._pause(self.poll_s)
        await self.save(force=True)

    async def _pause(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.stopping.wait(), seconds)

    def broker_lost(self) -> None:
        """What was sent and not seen done may be lost with the broker (a restart of
        a memory-only broker loses every message): due for the next sweep. The page
        that failed is read and published again (the checkpoint did not move)."""
        for keys in self._sent.values():
            for key in keys:
                keys[key] = float("-inf")

    # ------------------------------------------------------------------ one page

    async def step(self) -> int:
        """Publish one page of the log and the work it leaves owed; returns its size."""
        page = await anyio.to_thread.run_sync(profiling.PROFILER.call, self._read_page)
        if not page:
            return 0
        # the work first: the engine waits on it, readers of the events only follow
        touched = list(dict.fromkeys(e.stream_id for e in page if is_game_stream(e.stream_id)))
        out: list[Outgoing] = []
        for game in touched:
            out.extend(self._dispatch(game))
        for stream, group in groupby(page, key=lambda e: e.stream_id):
            events = list(group)
            if is_game_stream(stream):
                # a span in the trace of the command that made the last event (the
                # produce itself is batched across games)
                with continued_span(self.tracer, "relay publish",
                                    events[-1].metadata.get("trace") or {}, game_id=stream):
                    out.extend((EVENTS, _event_message(e, i + 1 == len(events)),
                                stream.encode()) for i, e in enumerate(events))
            elif stream.startswith(AUDIT_PREFIX):
                game = stream[len(AUDIT_PREFIX):]
                out.extend((AUDIT, AuditMessage(game_id=game, position=e.position,
                                                type="CommandRejected", payload=e.payload,
                                                rule=e.rule, metadata=_public(e.metadata)),
                            game.encode()) for e in events)
        await _confirm(await self._send(out))
        self.position = page[-1].position
        self._unsaved += len(out)
        await self.save()
        return len(page)

    def _read_page(self) -> list[StoredEvent]:
        with profiling.STAGES.timed("read_all"):
            page = self.store.read_all(self.position + 1, limit=self.page_size)
        with profiling.STAGES.timed("evolve"):
            self._evolve(page)
        return page

    def _evolve(self, page: list[StoredEvent]) -> None:
        for e in page:
            if is_game_stream(e.stream_id):
                proj = self.cache.peek(e.stream_id)
                if proj.version < e.version - 1:
                    proj.catch_up(self.store, e.version - 1)
                proj.apply_all([e])
                self._last_meta[e.stream_id] = e.metadata
                done = done_work(e.metadata)
                if done is not None:
                    self._sent.get(e.stream_id, {}).pop(done, None)

    def _dispatch(self, game: str, resend: bool = False) -> list[Outgoing]:
        """The work the game owes that is not already on its way (all of it with
        `resend`), to send."""
        meta = self._last_meta.get(game, {})
        items = owed_work(self.cache, game, meta)
        state = self.cache.peek(game).state
        if state.game_over:
            self.cache.drop(game)
            self._sent.pop(game, None)
            self._last_meta.pop(game, None)
            return []
        sent = self._sent.setdefault(game, {})
        owed = {work_key_of(i.kind, i.marker): i for i in items}
        for key in [k for k in sent if k not in owed]:
            del sent[key]  # done (or no longer owed) without an append seen: forget it
        out: list[Outgoing] = []
        now = time.monotonic()
        due = [(key, item) for key, item in owed.items() if resend or key not in sent]
        if due:
            with continued_span(self.tracer, "relay dispatch", meta.get("trace") or {},
                                game_id=game):
                trace = current_traceparent()  # the owner's span continues this one
                for key, item in due:
                    sent[key] = now
                    item = item.model_copy(update={"trace": trace or None})
                    out.append((work_topic(item.owner), item, work_key(item)))
        if not sent:
            del self._sent[game]
        return out

    async def _send(self, out: list[Outgoing]) -> list[Any]:
        """Publish, by topic, as few produce batches as the messages' keys allow (each
        key's messages in order); returns what to await for the broker's confirmation."""
        by_topic: dict[str, list[tuple[BaseModel, bytes]]] = {}
        for topic, msg, key in out:
            by_topic.setdefault(topic, []).append((msg, key))
        pending: list[Any] = []
        for topic, msgs in by_topic.items():
            self.metrics.published.labels(topic).inc(len(msgs))
            if self.publish_many is not None:
                pending.extend(await self.publish_many(topic, msgs))
            else:
                pending.extend([await self.publish(topic, m, k) for m, k in msgs])
        return pending

    # ------------------------------------------------------------------ recovery

    async def sweep(self) -> None:
        """Re-send work sent `sweep_s` ago or more and not seen done (a lost message, a
        broker restart): idempotent, the owner does only what is owed."""
        now = time.monotonic()
        stuck = [g for g, keys in self._sent.items()
                 if any(now - at >= self.sweep_s for at in keys.values())]
        for game in stuck:
            await anyio.to_thread.run_sync(self.cache.get, game)
            await _confirm(await self._send(self._dispatch(game, resend=True)))
            log().info("work re-sent", game_id=game)

    async def recover(self) -> None:
        """Derive the work of games active in the log's recent past (their work messages
        may be lost: a broker restart loses topics and offsets)."""
        start = max(1, self.position - self.recover_window + 1)
        games = await anyio.to_thread.run_sync(self._recent_games, start)
        for game in games:
            await anyio.to_thread.run_sync(self.cache.get, game)
            await _confirm(await self._send(self._dispatch(game)))
        log().info("relay recovered", position=self.position, games=len(games))

    def _recent_games(self, start: int) -> list[str]:
        seen: dict[str, None] = {}
        for e in self.store.iter_all(start):
            if e.position > self.position:
                break
            if is_game_stream(e.stream_id):
                seen[e.stream_id] = None
        return list(seen)

    async def save(self, force: bool = False) -> None:
        if self._unsaved == 0 and not force:
            return
        now = time.monotonic()
        if force or now - self._saved_at >= 1.0 or self._unsaved >= 5000:
            await anyio.to_thread.run_sync(self.checkpoints.save, self.position)
            self._unsaved = 0
            self._saved_at = now


def _public(meta: dict[str, Any]) -> dict[str, Any]:
    return {k: meta[k] for k in PUBLIC_META if k in meta}


def _event_message(e: StoredEvent, last: bool) -> EventMessage:
    return EventMessage(game_id=e.stream_id, version=e.version, position=e.position,
                        type=e.type, schema_version=e.schema_version, payload=e.payload,
                        rule=e.rule, metadata=_public(e.metadata), last_in_batch=last)


async def _confirm(pending: list[Any]) -> None:
    flat = [q for p in pending for q in (p if isinstance(p, list) else [p])]
    waits = [p for p in flat if p is not None and hasattr(p, "__await__")]
    if waits:
        await asyncio.gather(*waits)
