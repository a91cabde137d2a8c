"""The gateway's side of `arbiter.events` and `arbiter.audit`: wake whoever waits.

Every gateway instance reads both topics without a consumer group (each sees every
message; nothing is committed). A message is only a hint: what a client is told is
read from the store (the source of truth), so a lost or late message costs a poll
interval, never a wrong answer.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from faststream.kafka import KafkaRouter

from arbiter_services.messages import AuditMessage, CommandEnvelope, EventMessage
from arbiter_services.settings import Settings
from arbiter_services.topics import (
    AUDIT,
    COMMAND_CONSUMERS,
    EVENTS,
    TOPIC_BY_NAME,
    command_topic,
)


class Feed:
    """Per-game conditions that fire when a game's stream or audit stream grows."""

    def __init__(self) -> None:
        self._changed: dict[str, asyncio.Event] = defaultdict(asyncio.Event)
        self.listeners: dict[str, set[Callable[[str, Any], None]]] = defaultdict(set)

    def notify(self, game_id: str, what: Any) -> None:
        ev = self._changed.pop(game_id, None)
        if ev is not None:
            ev.set()
        for cb in list(self.listeners.get(game_id, ())):
            cb(game_id, what)

    def watch(self, game_id: str) -> asyncio.Event:
        """Take this before reading the store, then `wait` on it: no change is missed."""
        return self._changed[game_id]

    @staticmethod
    async def wait(ev: asyncio.Event, timeout: float) -> None:
        """Until the watched game changes or `timeout` passes (then re-check the store)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(ev.wait(), timeout)

    def listen(self, game_id: str, cb: Callable[[str, Any], None]) -> None:
        self.listeners[game_id].add(cb)

    def unlisten(self, game_id: str, cb: Callable[[str, Any], None]) -> None:
        self.listeners[game_id].discard(cb)
        if not self.listeners[game_id]:
            self.listeners.pop(game_id, None)


def gateway_router(feed: Feed, s: Settings) -> tuple[KafkaRouter, dict[str, Any]]:
    """The gateway's subscribers (the feed) and its command publishers, by topic."""
    router = KafkaRouter()
    publishers = {
        command_topic(svc): router.publisher(
            command_topic(svc), title=command_topic(svc), schema=CommandEnvelope,
            description=TOPIC_BY_NAME[command_topic(svc)].doc)
        for svc in sorted(set(COMMAND_CONSUMERS.values()))}
    opts: dict[str, Any] = {"group_id": None, "auto_offset_reset": "latest",
                            "fetch_max_wait_ms": s.fetch_max_wait_ms, "batch": True,
                            "max_records": 1000, "batch_timeout_ms": s.batch_wait_ms}

    async def on_batch(msgs: list[EventMessage | AuditMessage]) -> None:
        last: dict[str, EventMessage | AuditMessage] = {}
        for msg in msgs:  # once per game per batch: waiters re-read the store
            if isinstance(msg, AuditMessage) or msg.last_in_batch:
                last[msg.game_id] = msg
        for game_id, msg in last.items():
            feed.notify(game_id, msg)

    router.subscriber(EVENTS, AUDIT, title="gateway", **opts)(on_batch)

    return router, publishers
