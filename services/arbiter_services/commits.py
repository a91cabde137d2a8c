"""Committing consumer offsets after processing, without a round trip per message.

faststream's `AckPolicy.ACK` commits after every message and waits for it: on Tansu
that costs more than handling the message (~7 ms a message). Here the handler records
each processed offset, and a background task commits the latest processed offset of
each partition every `interval` seconds (and on shutdown). Only processed messages are
ever committed, so a crash redelivers at most `interval` of processed messages, which
the idempotent handlers ignore; nothing is lost.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from faststream.kafka import KafkaMessage

from arbiter_services.observability import log


class OffsetCommitter:
    def __init__(self, interval: float = 0.1) -> None:
        self.interval = interval
        self._offsets: dict[Any, int] = {}
        self._consumer: Any = None
        self._task: asyncio.Task[None] | None = None

    def processed(self, message: KafkaMessage, record: Any = None) -> None:
        """`record`: one of a batch message's records (default: the message's own)."""
        raw: Any = record if record is not None else message.raw_message
        if not hasattr(message.consumer, "assignment"):
            return  # an in-memory test broker: nothing to commit
        from aiokafka import TopicPartition  # type: ignore[import-untyped]
        self._consumer = message.consumer
        self._offsets[TopicPartition(raw.topic, raw.partition)] = raw.offset + 1
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._loop(), name="offset-committer")

    async def _loop(self) -> None:
        while self._offsets:
            await asyncio.sleep(self.interval)
            await self.flush()

    async def flush(self) -> None:
        if not self._offsets or self._consumer is None:
            return
        offsets, self._offsets = self._offsets, {}
        assigned = self._consumer.assignment()
        mine = {tp: off for tp, off in offsets.items() if tp in assigned}
        if not mine:
            return
        try:
            await self._consumer.commit(mine)
        except Exception as e:  # a rebalance took the partitions: the next owner redoes
            log().warning("offset commit failed", error=repr(e))

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self.flush()
