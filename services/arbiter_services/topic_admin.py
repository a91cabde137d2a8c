"""Creating the project's topics on a broker, from the topics module.

Used by the one-shot topic job (`python -m arbiter_services topics`: compose's `topics`
service, the launcher) and by the topic keeper (`recovery.py`) where topics are the
processes' to keep (`ARBITER_TOPICS=keeper`, the local broker only). Where an operator
owns topics (Strimzi's topic operator: `ARBITER_TOPICS=operator`, the production
setting) nothing here runs.
"""

from __future__ import annotations

import asyncio
import contextlib

from aiokafka.admin import AIOKafkaAdminClient, NewTopic  # type: ignore[import-untyped]
from aiokafka.errors import TopicAlreadyExistsError  # type: ignore[import-untyped]

from arbiter_services.topics import TOPICS, TopicSpec


async def ensure_topics(bootstrap: str, topics: tuple[TopicSpec, ...] = TOPICS,
                        timeout: float = 20.0, replication: int = 1,
                        config: dict[str, str] | None = None) -> list[str]:
    """Create every missing topic with its partition count (existing topics are kept);
    returns the names created."""
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=10_000)
    await asyncio.wait_for(admin.start(), timeout)
    try:
        existing = set(await admin.list_topics())
        new = [NewTopic(t.name, t.partitions, replication, topic_configs=dict(config or {}))
               for t in topics if t.name not in existing]
        if new:
            with contextlib.suppress(TopicAlreadyExistsError):
                await asyncio.wait_for(admin.create_topics(new), timeout)
        return [t.name for t in new]
    finally:
        await admin.close()


async def wait_and_ensure(bootstrap: str, replication: int, config: dict[str, str],
                          deadline_s: float) -> list[str]:
    """`ensure_topics`, retried until the broker answers (a one-shot job started with
    its broker)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + deadline_s
    while True:
        try:
            return await ensure_topics(bootstrap, replication=replication, config=config)
        except Exception:
            if loop.time() > end:
                raise
            await asyncio.sleep(2)
