"""The faststream apps: one router per service, the relay, and a process around them.

`service_router(name, ...)` subscribes a service to its command topic (if it consumes a
command kind) and its work topic, in consumer group `name`, committing each message
after it was handled (a killed process's message is redelivered, and is a no-op if it
was done). `build_runtime` puts routers, the relay and the middlewares (OpenTelemetry
and Prometheus) on one broker: one service per process in production, all of them on
one in-memory broker in tests (TestKafkaBroker).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import anyio
from faststream import AckPolicy
from faststream.kafka import KafkaBroker, KafkaMessage, KafkaResponse, KafkaRouter
from faststream.kafka.exceptions import BatchBufferOverflowException
from faststream.kafka.opentelemetry import KafkaTelemetryMiddleware
from faststream.kafka.prometheus import KafkaPrometheusMiddleware
from opentelemetry.sdk.trace import TracerProvider
from pydantic import BaseModel

from arbiter_runtime.projection import ProjectionCache
from arbiter_services import profiling
from arbiter_services.checkpoint import Checkpoints, StoreCheckpoints
from arbiter_services.commits import OffsetCommitter
from arbiter_services.core import Outcome, ServiceCore
from arbiter_services.logs import faststream_logger
from arbiter_services.messages import AuditMessage, CommandEnvelope, EventMessage, WorkItem
from arbiter_services.observability import Metrics, log, message_span, traceparent_of
from arbiter_services.recovery import METADATA_MAX_AGE_MS, disable_topic_auto_creation
from arbiter_services.relay import Relay
from arbiter_services.settings import Settings
from arbiter_services.topics import (
    COMMAND_CONSUMERS,
    TOPIC_BY_NAME,
    VARIANTS,
    command_topic,
    partition_of,
    work_topic,
)
from arbiter_store import EventStore


@dataclass
class Runtime:
    """Everything one process runs on its broker."""

    broker: KafkaBroker
    store: EventStore
    metrics: Metrics
    tracer: TracerProvider
    cores: dict[str, ServiceCore] = field(default_factory=dict)
    relay: Relay | None = None
    relay_task: asyncio.Task[None] | None = None
    committer: OffsetCommitter = field(default_factory=OffsetCommitter)
    settings: Settings | None = None

    async def start_relay(self) -> None:
        if self.relay is not None and self.relay_task is None:
            self.relay_task = asyncio.create_task(self.relay.run(), name="relay")

    async def shutdown(self) -> None:
        await self.committer.close()
        if self.relay is not None and self.relay_task is not None:
            self.relay.stopping.set()
            await asyncio.wait_for(self.relay_task, 10)
            self.relay_task = None

    def relay_alive(self) -> bool:
        return self.relay_task is None or not self.relay_task.done()


#: the variants service's messages are rare (starting, conceding): it polls less often
RARE_FETCH_MAX_WAIT_MS = 100


def _sub_options(group: str, s: Settings) -> dict[str, Any]:
    """One consumer per process, in the service's group, on all of its topics (every
    member of a group subscribes to the same topics, and each consumer polls the broker:
    fewer consumers, less load on a small machine). It takes what the broker has, up to
    `max_batch` messages, at a time."""
    fetch = s.fetch_max_wait_ms if group != VARIANTS else max(s.fetch_max_wait_ms,
                                                              RARE_FETCH_MAX_WAIT_MS)
    return {"group_id": group, "ack_policy": AckPolicy.MANUAL, "auto_offset_reset": "earliest",
            "session_timeout_ms": s.session_timeout_ms,
            "heartbeat_interval_ms": s.heartbeat_interval_ms,
            "fetch_max_wait_ms": fetch, "batch": True,
            "max_records": s.max_batch, "batch_timeout_ms": s.batch_wait_ms}


def service_router(core: ServiceCore, s: Settings, metrics: Metrics,
                   lock: asyncio.Lock, committer: OffsetCommitter,
                   tracer: TracerProvider) -> KafkaRouter:
    """`lock`: one batch at a time per process (the projection cache is shared)."""
    router = KafkaRouter()
    name = core.name

    async def on_batch(msgs: list[CommandEnvelope | WorkItem], message: KafkaMessage) -> None:
        records = _records(message, len(msgs))
        headers: list[dict[str, str]] = list(getattr(message, "batch_headers", None)
                                             or [message.headers] * len(msgs))
        now = time.time()
        for r in records:
            produced_ms = getattr(r, "timestamp", None)
            if isinstance(produced_ms, int) and produced_ms > 0:
                metrics.lag.labels(name).observe(max(0.0, now - produced_ms / 1000))
        # one span per message, in the trace its headers carry (a command's trace goes
        # on through the batch that handled it)
        spans = [message_span(tracer, f"{getattr(r, 'topic', '?')} process",
                              getattr(m, "trace", None) or h)
                 for r, h, m in zip(records, headers, msgs, strict=False)]
        traces = [traceparent_of(sp) for sp in spans]
        traces += [{}] * (len(msgs) - len(traces))
        with metrics.latency.labels(name, "batch").time():
            async with lock:
                outs: list[Outcome] = await anyio.to_thread.run_sync(
                    profiling.PROFILER.call, core.handle_batch, list(zip(msgs, traces,
                                                                         strict=True)))
        for sp in spans:
            sp.end()
        for msg, out in zip(msgs, outs, strict=True):
            kind = "command" if isinstance(msg, CommandEnvelope) else "work"
            metrics.handled.labels(name, kind, out.status).inc()
            if out.conflicts:
                metrics.conflicts.labels(name).inc(out.conflicts)
            if out.retries:
                metrics.retries.labels(name).inc(out.retries)
            ids = ({"command_id": msg.command_id} if isinstance(msg, CommandEnvelope)
                   else {"work_id": msg.work_id})
            log().info(f"{kind} {out.status}", game_id=msg.game_id, version=out.version,
                       events=out.events, rule=out.rejection.rule if out.rejection else None,
                       correlation_id=getattr(msg, "correlation_id", None), **ids)
        for r in records:
            committer.processed(message, r)

    topics = [work_topic(name)]
    if name in COMMAND_CONSUMERS.values():
        topics.insert(0, command_topic(name))
    router.subscriber(*topics, **_sub_options(name, s), title=name,
                      description=f"the {name} service, consumer group {name!r}: "
                      "CommandEnvelope on its command topic, WorkItem on its work topic"
                      )(on_batch)
    return router


def _records(message: KafkaMessage, n: int) -> list[Any]:
    raw: Any = message.raw_message
    records = list(raw) if isinstance(raw, tuple | list) else [raw]
    return records if len(records) == n else records[:n]


def relay_router(broker_holder: list[KafkaBroker]) -> tuple[KafkaRouter, Any]:
    """The relay's publishers (documented in AsyncAPI) and its publish functions."""
    router = KafkaRouter()
    topics = [t for t in TOPIC_BY_NAME if TOPIC_BY_NAME[t].producers == ("relay",)]
    pubs: dict[str, Any] = {
        t: router.publisher(t, title=t, schema=TOPIC_BY_NAME[t].payload,
                            description=TOPIC_BY_NAME[t].doc) for t in topics}
    # what one page owes a topic goes out as one produce batch per partition
    batch_pubs: dict[str, Any] = {
        t: router.publisher(t, batch=True, include_in_schema=False) for t in topics}

    async def publish(topic: str, msg: BaseModel, key: bytes) -> Any:
        return await pubs[topic].publish(msg, key=key, no_confirm=True)

    async def publish_many(topic: str, msgs: Sequence[tuple[BaseModel, bytes]]
                           ) -> list[Any]:
        """By partition (the key's), in order, in as few batches as fit (a message too
        large for a batch goes alone); returns the confirmations to await."""
        by_partition: dict[int, list[tuple[BaseModel, bytes]]] = {}
        for msg, key in msgs:
            p = partition_of(key, TOPIC_BY_NAME[topic].partitions)
            by_partition.setdefault(p, []).append((msg, key))
        out = []
        for partition, rest in by_partition.items():
            while rest:
                try:
                    out.append(await batch_pubs[topic].publish(
                        *(KafkaResponse(m, key=k) for m, k in rest), partition=partition,
                        no_confirm=True))
                    break
                except BatchBufferOverflowException as e:
                    fits = max(1, e.message_position)
                    if e.message_position == 0:
                        out.append(await pubs[topic].publish(
                            rest[0][0], key=rest[0][1], partition=partition,
                            no_confirm=True))
                    else:
                        out.append(await batch_pubs[topic].publish(
                            *(KafkaResponse(m, key=k) for m, k in rest[:fits]),
                            partition=partition, no_confirm=True))
                    rest = rest[fits:]
        return out

    return router, (publish, publish_many)


def new_broker(s: Settings, metrics: Metrics, tracer: TracerProvider,
               client_id: str) -> KafkaBroker:
    import logging
    disable_topic_auto_creation()
    return KafkaBroker(
        s.broker, client_id=client_id, enable_idempotence=False, linger_ms=0,
        # faststream would create a subscriber's missing topics (1 partition, replication
        # 1, no config) as it starts: topics are the operator's or the keeper's only
        allow_auto_create_topics=False,
        request_timeout_ms=10_000, metadata_max_age_ms=METADATA_MAX_AGE_MS,
        max_batch_size=256 * 1024,
        middlewares=[KafkaTelemetryMiddleware(tracer_provider=tracer),
                     KafkaPrometheusMiddleware(registry=metrics.registry,
                                               app_name=f"arbiter-{metrics.service}")],
        logger=faststream_logger(client_id), log_level=logging.DEBUG,
        description="Arbiter services")


def build_runtime(roles: list[str], store: EventStore, s: Settings, tracer: TracerProvider,
                  checkpoints: Checkpoints | None = None,
                  broker: KafkaBroker | None = None) -> Runtime:
    """A broker with the routers of `roles` (service names and/or 'relay')."""
    label = roles[0] if len(roles) == 1 else "all"
    metrics = Metrics(label)
    broker = broker or new_broker(s, metrics, tracer, f"arbiter-{label}")
    rt = Runtime(broker=broker, store=store, metrics=metrics, tracer=tracer, settings=s)
    cache = ProjectionCache(store)
    lock = asyncio.Lock()
    for role in roles:
        if role == "relay":
            router, (publish, publish_many) = relay_router([broker])
            broker.include_router(router)
            rt.relay = Relay(store, publish, checkpoints or StoreCheckpoints(store, "main"),
                             metrics, tracer, poll_s=s.relay_poll_ms / 1000,
                             sweep_s=s.sweep_s, publish_many=publish_many)
        else:
            core = ServiceCore(role, store, cache)
            rt.cores[role] = core
            broker.include_router(service_router(core, s, metrics, lock, rt.committer,
                                                 tracer))
    return rt


__all__ = ["AuditMessage", "EventMessage", "Runtime", "build_runtime"]
