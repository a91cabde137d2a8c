"""Configuration from the environment (12-factor), with the flags of `run` overriding.

ARBITER_BROKER            Kafka bootstrap servers (default 127.0.0.1:9092)
ARBITER_STORE             event store URL: a SQLite path or postgresql://... (required)
ARBITER_FETCH_MAX_WAIT_MS consumer fetch wait (default 25). Tansu answers a waiting fetch
                          early when data arrives only sometimes (three consumers on a topic
                          with a 300-500 ms wait: ~250 ms a message). Measured here: 10 ms
                          gives a 21 ms p50 command->event and costs Tansu half a core idle;
                          25 ms, 22 ms and a sixth of a core; 50 ms, 28 ms
ARBITER_BATCH_WAIT_MS     how long a service waits for its buffer to fill before its next
                          poll (default 5; faststream sleeps as long after an empty poll)
ARBITER_SESSION_TIMEOUT_MS consumer group session timeout (default 2000: ~1 s joins)
ARBITER_MAX_BATCH         messages a service takes from the broker at once (default 200)
ARBITER_RELAY_POLL_MS     relay's idle poll of the store's log (default 5)
ARBITER_SWEEP_S           relay re-dispatches work that made no progress (default 3)
ARBITER_HTTP_HOST / ARBITER_HTTP_PORT  health, readiness and /metrics (default 127.0.0.1:0)
OTEL_EXPORTER_OTLP_ENDPOINT (or ..._TRACES_ENDPOINT)  OTLP/HTTP traces, off when unset
ARBITER_SQLITE_SYNC       NORMAL (default) or FULL, for a SQLite store (see stores.py)
ARBITER_LOG_LEVEL         default INFO
ARBITER_TOPICS            who creates topics: `operator` (default, production: Strimzi's topic
                          operator owns them and no process creates one) or `keeper` (the
                          local broker: each process re-creates missing topics, recovery.py)
ARBITER_BROKER_GRACE_S    how long a process may go without reaching its broker before
                          /health/live fails and the orchestrator restarts it (default 60)
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Any

#: ARBITER_TOPICS: Strimzi's topic operator owns the topics, or each process keeps them.
TOPIC_OWNERS = ("operator", "keeper")


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    return int(raw) if raw else default


@dataclass(frozen=True)
class Settings:
    broker: str = "127.0.0.1:9092"
    store: str = ""
    fetch_max_wait_ms: int = 25
    batch_wait_ms: int = 5
    session_timeout_ms: int = 2000
    relay_poll_ms: int = 5
    max_batch: int = 200
    sweep_s: int = 3
    http_host: str = "127.0.0.1"
    http_port: int = 0
    log_level: str = "INFO"
    sqlite_sync: str = "NORMAL"
    topics: str = "operator"
    broker_grace_s: float = 60.0

    def __post_init__(self) -> None:
        if self.topics not in TOPIC_OWNERS:
            raise ValueError(f"ARBITER_TOPICS={self.topics!r}: one of {', '.join(TOPIC_OWNERS)}")

    @property
    def keeps_topics(self) -> bool:
        """Whether this process creates missing topics (only against the local broker)."""
        return self.topics == "keeper"

    @property
    def heartbeat_interval_ms(self) -> int:
        return max(100, self.session_timeout_ms // 4)

    def with_(self, **changes: Any) -> Settings:
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


def from_env() -> Settings:
    return Settings(
        broker=os.environ.get("ARBITER_BROKER", "127.0.0.1:9092"),
        store=os.environ.get("ARBITER_STORE", ""),
        fetch_max_wait_ms=_int("ARBITER_FETCH_MAX_WAIT_MS", 25),
        batch_wait_ms=_int("ARBITER_BATCH_WAIT_MS", 5),
        session_timeout_ms=_int("ARBITER_SESSION_TIMEOUT_MS", 2000),
        relay_poll_ms=_int("ARBITER_RELAY_POLL_MS", 5),
        max_batch=_int("ARBITER_MAX_BATCH", 200),
        sweep_s=_int("ARBITER_SWEEP_S", 3),
        http_host=os.environ.get("ARBITER_HTTP_HOST", "127.0.0.1"),
        http_port=_int("ARBITER_HTTP_PORT", 0),
        log_level=os.environ.get("ARBITER_LOG_LEVEL", "INFO"),
        sqlite_sync=os.environ.get("ARBITER_SQLITE_SYNC", "NORMAL"),
        topics=os.environ.get("ARBITER_TOPICS", "operator") or "operator",
        broker_grace_s=float(os.environ.get("ARBITER_BROKER_GRACE_S") or 60),
    )
