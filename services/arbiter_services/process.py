"""One service (or the relay, or the gateway) as an OS process.

Each is a faststream app (`AsgiFastStream`, `liveness.ServiceApp`) served by uvicorn,
which also answers `/health/live`, `/health/ready` and `/metrics`. The broker is started
patiently (`liveness.py`): `/health/live` fails once the broker has been out of reach for
`ARBITER_BROKER_GRACE_S`. SIGTERM (and SIGINT) shut it down gracefully: the relay stops
after its current page and saves its checkpoint, the consumers commit and leave their
groups, the store is closed. The gateway's process is `python -m arbiter_gateway`.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from typing import Any

import uvicorn
from faststream.asgi import AsgiResponse, get
from faststream.specification import AsyncAPI
from prometheus_client import make_asgi_app

from arbiter_core.kernel.version import ENGINE_VERSION
from arbiter_services import profiling
from arbiter_services.app import Runtime, build_runtime
from arbiter_services.liveness import BrokerLink, ServiceApp
from arbiter_services.logs import faststream_logger
from arbiter_services.observability import log, setup_logging, setup_tracing
from arbiter_services.recovery import TopicKeeper
from arbiter_services.settings import Settings
from arbiter_services.stores import open_service_store
from arbiter_services.topics import SERVICES

ROLES = (*SERVICES, "relay")


def serve(config: uvicorn.Config) -> None:
    """uvicorn, shutting down gracefully on SIGTERM/SIGINT and then returning (uvicorn
    re-raises the signal it caught: the no-op handlers let the process exit 0)."""
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: None)
    uvicorn.Server(config).run()


def topic_keeper(s: Settings | None) -> TopicKeeper | None:
    """The local broker only (ARBITER_TOPICS=keeper); where topics are the operator's
    (the production setting) no process creates one."""
    return TopicKeeper(s.broker) if s is not None and s.keeps_topics else None


def asgi_app(rt: Runtime, title: str) -> ServiceApp:
    async def store_ok() -> bool:
        try:
            await asyncio.to_thread(rt.store.stream_version, "$ping")
            return True
        except Exception:
            return False

    s = rt.settings
    link = BrokerLink(s.broker_grace_s if s is not None else 60.0)

    @get
    async def live(scope: Any) -> AsgiResponse:
        stalled = rt.relay is not None and time.monotonic() - rt.relay.alive_at > 60
        ok = rt.relay_alive() and not stalled and link.live()
        return AsgiResponse(b"", 204 if ok else 500)

    @get
    async def ready(scope: Any) -> AsgiResponse:
        ok = (link.connected and rt.relay_alive() and await rt.broker.ping(2.0)
              and await store_ok())
        return AsgiResponse(b"", 204 if ok else 503)

    stage_task: list[asyncio.Task[None]] = []

    keeper = topic_keeper(s)

    async def start_keeper() -> None:
        if keeper is not None:
            keeper.start()

    async def stop_keeper() -> None:
        if keeper is not None:
            await keeper.stop()

    async def start_stage_log() -> None:
        every = float(os.environ.get("ARBITER_STAGE_LOG_S", "30") or 0)
        if every > 0:
            stage_task.append(asyncio.create_task(_log_stages(every)))

    async def stop_stage_log() -> None:
        for t in stage_task:
            t.cancel()
        log().info("stages", **profiling.STAGES.summary())

    app = ServiceApp(
        rt.broker,
        asgi_routes=[("/health/live", live), ("/health/ready", ready),
                     ("/metrics", make_asgi_app(rt.metrics.registry))],
        after_startup=[start_keeper, rt.start_relay, start_stage_log],
        on_shutdown=[rt.shutdown, stop_stage_log, stop_keeper, link.stop],
        specification=AsyncAPI(rt.broker, title=f"arbiter {title}", version=ENGINE_VERSION),
        logger=faststream_logger("app"),
    )
    app.link = link
    return app


async def _log_stages(every: float) -> None:
    while True:
        await asyncio.sleep(every)
        if profiling.STAGES.seconds:
            log().info("stages", **profiling.STAGES.summary())


def run_role(role: str, s: Settings) -> None:
    """Run `role` (a service name or 'relay') until SIGTERM."""
    setup_logging(role, s.log_level)
    if role not in ROLES:
        log().error("unknown role", role=role, roles=list(ROLES))
        raise SystemExit(2)
    if not s.store:
        log().error("set the event store: --store or ARBITER_STORE")
        raise SystemExit(2)
    tracer = setup_tracing(role)
    store = open_service_store(s.store, s.sqlite_sync)
    rt = build_runtime([role], store, s, tracer)
    instance = os.environ.get("ARBITER_INSTANCE")
    for core in rt.cores.values():  # one of several processes of a service (--resolvers)
        core.service_id = instance or core.service_id
    app = asgi_app(rt, role)
    log().info("starting", role=role, broker=s.broker, http_port=s.http_port,
               topics=s.topics, broker_grace_s=s.broker_grace_s)
    config = uvicorn.Config(app, host=s.http_host, port=s.http_port, log_config=None,
                            access_log=False, lifespan="on", timeout_graceful_shutdown=10)
    try:
        serve(config)
    finally:
        profiling.PROFILER.dump()
        tracer.shutdown()
        store.close()
        log().info("stopped", role=role)
