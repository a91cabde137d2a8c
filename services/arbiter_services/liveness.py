"""A process and its broker: start when the broker comes, fail liveness when it stays away.

A consumer started before Kafka is reachable used to fail its broker start once, inside
faststream's lifespan, and go on serving HTTP: live (204) but never ready and never
consuming, so Kubernetes never restarted it. Now:

- `BrokerLink.start` retries the broker's start (backoff up to 5 s) until it connects,
  while the process serves `/health/*` (`ServiceApp` makes faststream's ASGI app start
  its brokers this way; the gateway's lifespan does the same);
- `BrokerLink.watch` pings the broker every few seconds once connected;
- `BrokerLink.live()` is false when the broker was last reached more than
  `ARBITER_BROKER_GRACE_S` seconds ago (from the process start, before the first
  connection), so `/health/live` fails and the orchestrator restarts the process. The
  grace outlasts a broker restart (aiokafka reconnects on its own; `recovery.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

from faststream.asgi import AsgiFastStream

from arbiter_services.observability import log

PING_EVERY_S = 5.0
MAX_BACKOFF_S = 5.0


class BrokerLink:
    """When this process last reached its broker (see the module doc)."""

    def __init__(self, grace_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.grace_s = grace_s
        self.clock = clock
        self.last_ok = clock()
        self.connected = False
        self.attempts = 0
        self._watch: asyncio.Task[None] | None = None

    def reached(self) -> None:
        self.last_ok = self.clock()

    def live(self) -> bool:
        return self.clock() - self.last_ok <= self.grace_s

    async def start(self, broker: Any) -> None:
        """Start `broker`, retrying until it connects; then watch it."""
        delay = 0.5
        while True:
            self.attempts += 1
            try:
                await broker.start()
                break
            except Exception as e:
                log().warning("broker unreachable: retrying", error=repr(e)[:300],
                              attempt=self.attempts, retry_in_s=delay,
                              unreachable_s=round(self.clock() - self.last_ok, 1),
                              grace_s=self.grace_s)
                with contextlib.suppress(Exception):
                    await broker.stop()  # close what the failed start opened
                await asyncio.sleep(delay)
                delay = min(MAX_BACKOFF_S, delay * 2)
        self.connected = True
        self.reached()
        log().info("broker connected", attempts=self.attempts)
        if self._watch is None:
            self._watch = asyncio.create_task(self.watch(broker), name="broker-watch")

    async def watch(self, broker: Any, every: float = PING_EVERY_S) -> None:
        while True:
            await asyncio.sleep(every)
            if await broker.ping(every):
                self.reached()
            elif not self.live():
                log().error("broker unreachable past the grace period: not live",
                            unreachable_s=round(self.clock() - self.last_ok, 1),
                            grace_s=self.grace_s)

    async def stop(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
            self._watch = None


class ServiceApp(AsgiFastStream):
    """faststream's ASGI app (health routes, lifespan hooks) whose brokers start through
    a `BrokerLink`: faststream sends the lifespan's startup-complete before it starts the
    brokers, so the process answers `/health/*` while it waits for the broker. (Overrides
    faststream's `_start_broker`, pinned at 0.7.8: `tests/deploy` starts a consumer before
    its broker.)"""

    link: BrokerLink

    async def _start_broker(self) -> None:
        for broker in self.brokers:
            await self.link.start(broker)
