"""Crash tests against the real broker: SIGKILL one process in the middle of a game,
restart it, and the game finishes with the same log as an undisturbed run (no event
lost or duplicated). The relay's own crash test is the `relay` case."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from arbiter_gateway.client import GatewayClient, play_through_gateway
from arbiter_ops.launcher import Cluster
from arbiter_runtime.botgame import start_command
from arbiter_runtime.loghash import log_hash
from arbiter_store import open_store

from .harness import reference_hash

pytestmark = pytest.mark.integration

KILL_AT_VERSION = 100


@pytest.mark.parametrize("victim", ["relay", "turn-orchestrator", "stack-resolver",
                                    "sba-checker", "variants", "gateway"])
def test_sigkill_mid_game_then_restart(tansu_cluster: Cluster, victim: str) -> None:
    cluster = tansu_cluster
    gid = f"crash-{victim}"
    start = start_command(gid, 2, 3, deck_size=8)

    async def go() -> None:
        with open_store(cluster.store) as store:
            async with httpx.AsyncClient(base_url=cluster.gateway_url, timeout=30) as http:
                game = asyncio.create_task(
                    play_through_gateway(GatewayClient(http, cluster.logins, retries=60),
                                         start, 240))
                for _ in range(1200):
                    if store.stream_version(gid) >= KILL_AT_VERSION or game.done():
                        break
                    await asyncio.sleep(0.05)
                assert not game.done(), "the game ended before the crash"
                cluster.kill(victim)
                killed_at = store.stream_version(gid)
                await asyncio.sleep(0.5)
                await asyncio.to_thread(cluster.restart, victim, 60)
                result = await asyncio.wait_for(game, 240)
                assert result.projection.state.game_over
                events = store.read_stream(gid)
                assert len(events) > killed_at
                assert [e.version for e in events] == list(range(1, len(events) + 1))
                assert log_hash(events) == reference_hash(gid, 2, result.seed, 8)
    asyncio.run(go())
