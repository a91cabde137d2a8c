"""The broker restarts mid-game (Tansu is memory-only: every topic, message and offset
is lost) and the game finishes with the same log as an undisturbed run: the processes
re-create the topics, the relay re-publishes from its checkpoint and re-sends the work
not seen done, consumers re-join, and the client sends its pending command again."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from aiokafka.admin import AIOKafkaAdminClient  # type: ignore[import-untyped]

from arbiter_gateway.client import GatewayClient, play_through_gateway
from arbiter_ops.launcher import Cluster
from arbiter_runtime.botgame import start_command
from arbiter_runtime.loghash import log_hash
from arbiter_services.topics import TOPICS
from arbiter_store import open_store

from .harness import reference_hash

pytestmark = pytest.mark.integration

KILL_AT_VERSION = 100


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    run_dir: Path = tmp_path_factory.mktemp("restart")
    c = Cluster(str(run_dir / "store.sqlite"), run_dir, extra_env={"ARBITER_SWEEP_S": "2"})
    try:
        c.start(timeout=90)
        yield c
    finally:
        codes = c.stop(timeout=30)
        assert all(code == 0 for code in codes.values()), f"unclean exits: {codes}"


async def partitions(bootstrap: str) -> dict[str, int]:
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await admin.start()
    try:
        info = await admin.describe_topics([t.name for t in TOPICS])
        return {d["topic"]: len(d["partitions"]) for d in info}
    finally:
        await admin.close()


def test_broker_restart_mid_game(cluster: Cluster) -> None:
    gid = "broker-restart"
    start = start_command(gid, 2, 3, deck_size=8)

    async def go() -> None:
        with open_store(cluster.store) as store:
            async with httpx.AsyncClient(base_url=cluster.gateway_url, timeout=30) as http:
                game = asyncio.create_task(
                    play_through_gateway(GatewayClient(http, cluster.logins, retries=120),
                                         start, 300))
                for _ in range(1200):
                    if store.stream_version(gid) >= KILL_AT_VERSION or game.done():
                        break
                    await asyncio.sleep(0.05)
                assert not game.done(), "the game ended before the broker restart"
                cluster.broker.kill()
                killed_at = store.stream_version(gid)
                await asyncio.sleep(1.0)
                cluster.broker.start()
                result = await asyncio.wait_for(game, 300)
                assert result.projection.state.game_over
                events = store.read_stream(gid)
                assert len(events) > killed_at
                assert [e.version for e in events] == list(range(1, len(events) + 1))
                assert log_hash(events) == reference_hash(gid, 2, result.seed, 8)
        # the topics came back with their partition counts (not the broker's default)
        assert await partitions(cluster.broker.bootstrap) == {t.name: t.partitions
                                                               for t in TOPICS}
    asyncio.run(go())
