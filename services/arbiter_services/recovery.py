"""Surviving a broker that lost everything: the topic keeper.

Tansu here is memory-only: a restart loses every topic, message and committed offset.
The event store is the source of truth, so nothing that matters is lost, but the topics
must come back with their partition counts before the services can use them:

- every process runs a `TopicKeeper`: every `interval` seconds it lists the broker's
  topics and creates the missing ones (`ensure_topics`). Our clients never let the
  broker create a topic by itself (`disable_topic_auto_creation`: Tansu would make it
  with 4 partitions on the first metadata request naming it); until the keeper has
  re-created a topic, producing to it fails and is retried;
- consumers re-join their groups on their own (aiokafka) and, their offsets gone, start
  at the beginning of the new topics; they refresh metadata every few seconds
  (`metadata_max_age_ms`) to see re-created topics;
- the relay re-publishes from its checkpoint when a publish fails and re-sends work not
  seen done (its sweep); it only moves its checkpoint after the broker confirmed;
- clients re-submit a command still pending after a while (same command id: applied
  once).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from aiokafka.admin import AIOKafkaAdminClient  # type: ignore[import-untyped]

from arbiter_services.observability import log
from arbiter_services.topic_admin import ensure_topics
from arbiter_services.topics import TOPICS, TopicSpec

METADATA_MAX_AGE_MS = 3000  # consumers and producers notice re-created topics this soon


class TopicKeeper:
    """Re-creates the topics a restarted broker lost (see the module doc)."""

    def __init__(self, bootstrap: str, topics: tuple[TopicSpec, ...] = TOPICS,
                 interval: float = 1.0) -> None:
        self.bootstrap = bootstrap
        self.topics = topics
        self.interval = interval
        self.repairs = 0
        self._task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self.run(), name="topic-keeper")

    async def stop(self) -> None:
        self._stop.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    async def run(self) -> None:
        admin: Any = None
        while not self._stop.is_set():
            try:
                if admin is None:
                    admin = AIOKafkaAdminClient(bootstrap_servers=self.bootstrap,
                                                request_timeout_ms=5000)
                    await asyncio.wait_for(admin.start(), 10)
                await self.check(admin)
            except Exception as e:  # the broker is away: try again with a new client
                log().debug("topic check failed", error=repr(e))
                if admin is not None:
                    with contextlib.suppress(Exception):
                        await admin.close()
                admin = None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), self.interval)
        if admin is not None:
            with contextlib.suppress(Exception):
                await admin.close()

    async def check(self, admin: Any) -> None:
        existing = set(await asyncio.wait_for(admin.list_topics(), 10))
        missing = tuple(t for t in self.topics if t.name not in existing)
        if missing:
            self.repairs += 1
            log().warning("topics missing on the broker: creating them",
                          topics=[t.name for t in missing])
            await ensure_topics(self.bootstrap, missing)


def disable_topic_auto_creation() -> None:
    """Make this process's Kafka metadata requests ask the broker not to create the
    topics they name (aiokafka asks for it by default, and Tansu does it, with 4
    partitions): after a broker restart a consumer's metadata refresh would otherwise
    re-create our topics with the wrong partition count before the keeper runs.
    Idempotent."""
    from aiokafka.protocol import metadata  # type: ignore[import-untyped]
    cls = metadata.MetadataRequest
    if getattr(cls, "_arbiter_no_auto_create", False):
        return
    original = cls.__init__

    def init(self: Any, topics: list[str] | None = None,
             allow_auto_topic_creation: bool | None = False) -> None:
        original(self, topics, allow_auto_topic_creation)

    cls.__init__ = init
    cls._arbiter_no_auto_create = True
