"""A bot game through the gateway gives the same event log as the embedded default."""

from __future__ import annotations

from dataclasses import replace

import httpx

from arbiter_gateway.client import GatewayClient, play_through_gateway
from arbiter_runtime.botgame import run_in_process, start_command
from arbiter_runtime.loghash import log_hash
from arbiter_runtime.play import play_bot_game
from arbiter_store import open_store

from .conftest import Runner
from .harness import System, reference_hash


def test_run_in_process_is_the_embedded_default() -> None:
    with open_store(":memory:") as a, open_store(":memory:") as b:
        play_bot_game(a, "g", 2, 5)
        run_in_process(b, start_command("g", 2, 5, start_rules=True))  # as `arbiter play`
        assert log_hash(a.read_stream("g")) == log_hash(b.read_stream("g"))


def test_log_hash_ignores_metadata_only() -> None:
    with open_store(":memory:") as a, open_store(":memory:") as b:
        run_in_process(a, start_command("g", 2, 2, deck_size=10))
        events = a.read_stream("g")
        from arbiter_store import NewEvent
        b.append("g", 0, [NewEvent(e.type, e.schema_version, e.payload, e.rule,
                                   {"other": "metadata"}) for e in events])
        assert log_hash(b.read_stream("g")) == log_hash(events)
        changed = [*events[:-1], replace(events[-1], rule="999.9z")]
        assert log_hash(changed) != log_hash(events)
        assert log_hash(events[:-1]) != log_hash(events)


def test_distributed_game_equals_in_process(run_on: Runner) -> None:
    async def scenario(system: System) -> None:
        gid = f"eq-{system.kind}"
        start = start_command(gid, 2, 3, deck_size=10)
        async with httpx.AsyncClient(base_url=system.base_url, timeout=30) as http:
            game = await play_through_gateway(GatewayClient(http, system.logins), start,
                                              deadline_s=240)
        assert game.projection.state.game_over
        stored = system.store.read_stream(gid)
        assert [e.version for e in stored] == list(range(1, len(stored) + 1))
        assert log_hash(stored) == reference_hash(gid, 2, game.seed, 10)
    run_on(scenario)
