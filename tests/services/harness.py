"""Running the services for tests: all in memory (TestKafkaBroker) behind a real
loopback HTTP server, or as processes against a real Tansu broker (`Cluster`); or the
services' handler cores alone, driven inline (`play`, `drive`)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from faststream.kafka import TestKafkaBroker
from opentelemetry.sdk.trace.export import SpanExporter

from arbiter_core.kernel.commands import StartGame
from arbiter_core.kernel.decide import WORK_OWNERS
from arbiter_core.kernel.shell_loop import owed_work
from arbiter_core.kernel.state import GameState
from arbiter_gateway.logins import Login, StaffLogins
from arbiter_gateway.passwords import hash_password
from arbiter_gateway.server import build_gateway
from arbiter_gateway.settings import GatewaySettings
from arbiter_ops.tansu import free_port
from arbiter_runtime.botgame import make_bots, next_action, run_in_process, start_command
from arbiter_runtime.loghash import log_hash
from arbiter_runtime.projection import GameProjection
from arbiter_services.app import Runtime, build_runtime
from arbiter_services.checkpoint import StoreCheckpoints
from arbiter_services.core import ORGANIZER, ServiceCore
from arbiter_services.messages import CommandEnvelope, WorkItem
from arbiter_services.observability import setup_tracing
from arbiter_services.process import ROLES
from arbiter_services.settings import Settings
from arbiter_services.topics import COMMAND_CONSUMERS, VARIANTS
from arbiter_store import EventStore, open_store

SECRET = b"test-secret-test-secret-test-secret"
SEED_SECRET = "test-seed-secret-test-seed-secret"
LOGINS = StaffLogins(Login("judge-1", "judge-password-1"),
                     Login("organiser-1", "organiser-password-1"))
_HASH_N = 2**10  # cheap hashes for tests (the default is 2**14)


def security(**changes: object) -> GatewaySettings:
    """The in-memory gateway's secrets and credentials (`LOGINS`)."""
    judge, org = LOGINS.judge, LOGINS.organiser
    return GatewaySettings.model_validate({
        "gateway_secret": SECRET.decode(), "seed_secret": SEED_SECRET,
        "judges": f"{judge.name}={hash_password(judge.password, n=_HASH_N)}",
        "organisers": f"{org.name}={hash_password(org.password, n=_HASH_N)}",
        "commands_per_second": 1000, "logins_per_minute": 10_000,
        # one organiser creates every game of a test (as the Tansu cluster's tests do)
        "create_per_minute": 10_000, **changes})


@dataclass
class System:
    """A running deployment as a test sees it: the gateway's URL and the store."""

    base_url: str
    store: EventStore
    kind: str
    extra: dict[str, Any] = field(default_factory=dict)
    logins: StaffLogins = LOGINS


Scenario = Callable[[System], Awaitable[None]]


@asynccontextmanager
async def memory_system(store: EventStore, exporter: SpanExporter | None = None,
                        sweep_s: int = 3, settings: GatewaySettings | None = None
                        ) -> AsyncIterator[System]:
    """Every service, the relay and the gateway on one in-memory broker; the gateway
    is served by uvicorn on a loopback port (HTTP and WebSocket), with `security()`
    unless `settings` are given."""
    s = Settings(broker="memory", store="memory", sweep_s=sweep_s, relay_poll_ms=1)
    tracer = setup_tracing("test", exporter)
    rt: Runtime = build_runtime(list(ROLES), store, s, tracer, StoreCheckpoints(store, "test"))
    app, gw = build_gateway(store, s, tracer, settings or security(), broker=rt.broker,
                            start_broker=False)
    port = free_port()
    # keep-alive well past any pause a loaded machine makes between a client's requests
    # (a connection closed as the next request is sent is a ReadError)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None,
                                           access_log=False, lifespan="off",
                                           timeout_keep_alive=120))
    async with TestKafkaBroker(rt.broker):
        gw.ready = True
        await rt.start_relay()
        task = asyncio.create_task(server.serve())
        for _ in range(200):
            if server.started:
                break
            await asyncio.sleep(0.02)
        try:
            yield System(f"http://127.0.0.1:{port}", store, "memory",
                         {"runtime": rt, "gateway": gw})
        finally:
            server.should_exit = True
            await asyncio.wait_for(task, 10)
            await rt.shutdown()
    tracer.shutdown()


def reference_hash(game_id: str, players: int, seed: int, deck_size: int | None) -> str:
    """The log hash of the same bot game run in one process (the embedded default)."""
    with open_store(":memory:") as ref:
        run_in_process(ref, start_command(game_id, players, seed, deck_size=deck_size))
        return log_hash(ref.read_stream(game_id))


def play(store: EventStore, cs: dict[str, ServiceCore], start: StartGame,
         until: Callable[[GameState], bool] = lambda s: s.game_over
         ) -> list[CommandEnvelope]:
    """The embedded bot game, every step through the services' cores (the relay's
    dispatch inline); returns the player commands sent, in order."""
    env = CommandEnvelope(game_id=start.game_id, command_id=f"{start.game_id}-start",
                          actor=ORGANIZER, command=start.model_dump(mode="json"))
    assert cs[VARIANTS].handle_command(env, {}).status == "applied"
    return drive(store, cs, start, until)


def drive(store: EventStore, cs: dict[str, ServiceCore], start: StartGame,
          until: Callable[[GameState], bool]) -> list[CommandEnvelope]:
    """Hand each owed work item to its owner, else let a bot act, until `until`."""
    game = start.game_id
    sent: list[CommandEnvelope] = []
    reader = GameProjection(game)
    bots = make_bots(start)
    for _ in range(100_000):
        reader.catch_up(store)
        s = reader.state
        if s.game_over or until(s):
            break
        work = list(owed_work(s))
        if work:
            marker, kind = work[0]
            item = WorkItem(game_id=game, marker=marker, version=s.version,
                            kind=kind, owner=WORK_OWNERS[kind])
            assert cs[item.owner].handle_work(item, {}).status == "applied"
            continue
        action = next_action(s, bots)
        assert action is not None, "nobody can act"
        env = CommandEnvelope(game_id=game, command_id=f"{game}-{s.version}-c{len(sent)}",
                              actor=action.player, command=action.model_dump(mode="json"))
        assert cs[COMMAND_CONSUMERS[action.type]].handle_command(env, {}).status == "applied"
        sent.append(env)
    for c in cs.values():
        c.snapshotter.flush()
    return sent
