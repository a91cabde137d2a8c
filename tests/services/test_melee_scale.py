"""Grand Melee over two stack-resolver processes (one consumer group, work keyed
`game:marker`): the stored log is what the engine decides serially, and replay equals
the state the services built."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from arbiter_core.kernel.hashing import state_hash
from arbiter_gateway.client import DistributedGame, GatewayClient
from arbiter_gateway.markers import done_within, play_markers_through_gateway
from arbiter_ops.launcher import Cluster, process_names, role_of
from arbiter_ops.melee import (
    VARIANT,
    drive,
    marker_partitions,
    replay_hash_in_subprocess,
    resolver_stats,
    spread_game_id,
    verify_log,
)
from arbiter_runtime.botgame import start_command
from arbiter_runtime.session import GameSession
from arbiter_services.topics import STACK
from arbiter_store import open_store

from .melee_serial import MARKER_TURNS, outcome, quiet_start, serial_run

PLAYERS = 16  # four turn markers, four stacks
MARKERS = PLAYERS // 4
MAX_EVENTS = 4000
SECONDS = 180


def test_process_names() -> None:
    assert process_names(1).count(STACK) == 1
    names = process_names(3)
    assert [n for n in names if role_of(n) == STACK] == [STACK, f"{STACK}-2", f"{STACK}-3"]
    assert role_of("sba-checker") == "sba-checker"


def test_spread_game_id() -> None:
    gid = spread_game_id("t", MARKERS)
    ps = marker_partitions(gid, MARKERS)
    assert {p % 2 for p in ps} == {0, 1}


@pytest.fixture(scope="module")
def two_resolvers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    run_dir: Path = tmp_path_factory.mktemp("melee")
    cluster = Cluster(str(run_dir / "store.sqlite"), run_dir, resolvers=2,
                      extra_env={"ARBITER_SWEEP_S": "2"})
    try:
        cluster.start(timeout=120)
        yield cluster
    finally:
        codes = cluster.stop(timeout=30)
        assert all(c == 0 for c in codes.values()), f"unclean exits on SIGTERM: {codes}"


@pytest.mark.integration
def test_two_resolvers_one_grand_melee(two_resolvers: Cluster) -> None:
    cluster = two_resolvers
    gid = spread_game_id("melee-it", MARKERS)
    asyncio.run(asyncio.sleep(3))  # both members of the group assigned
    d = asyncio.run(drive(cluster.broker.bootstrap, cluster.store, PLAYERS, SECONDS,
                          max_events=MAX_EVENTS, game_id=gid, seed=7))
    stats = resolver_stats(cluster)
    # let in-flight work land, then compare against the final stored log
    from arbiter_ops.bench import drain
    drain(cluster.store, quiet_s=2.0, limit_s=30)
    with open_store(cluster.store) as store:
        stored = store.read_stream(gid)
        check = verify_log(stored)
        loaded = GameSession.load(store, gid).state
    conflicts = sum(s.conflicts for s in stats)
    retries = sum(s.retries for s in stats)
    end = "game over" if loaded.game_over else "bounded"
    print(f"\n{PLAYERS} players, {check.events} events ({end}), "
          f"{check.engine_batches} engine batches, {check.resolutions} stack resolutions; "
          f"markers per resolver {check.by_process}; conflicts {conflicts}, retries "
          f"{retries}: {stats}")
    assert check.events >= 500, "the game hardly moved"
    assert check.divergence is None, check.divergence
    # replay equals live: the store loaded here, in another process, and serially re-decided
    assert state_hash(loaded) == check.state_hash
    assert replay_hash_in_subprocess(cluster.store, gid) == check.state_hash
    if d.proj is not None and d.proj.version == loaded.version:
        assert state_hash(d.proj.state) == check.state_hash
    # both resolver processes resolved stacks
    assert set(check.by_process) == {STACK, f"{STACK}-2"}, check.by_process
    assert all(markers for markers in check.by_process.values())


@pytest.mark.integration
def test_gateway_driver_acts_on_every_marker(two_resolvers: Cluster) -> None:
    """`arbiter play --distributed` for Grand Melee: every marker's player acts as soon
    as it may, through the gateway; the game ends and its log re-decides serially."""
    cluster = two_resolvers
    gid = spread_game_id("melee-gw", 2)
    start = start_command(gid, 8, 3, VARIANT, deck_size=8)

    async def go() -> DistributedGame:
        async with httpx.AsyncClient(base_url=cluster.gateway_url, timeout=60) as http:
            return await play_markers_through_gateway(
                GatewayClient(http, cluster.logins), start, 300)
    game = asyncio.run(go())
    assert game.projection.state.game_over
    with open_store(cluster.store) as store:
        check = verify_log(store.read_stream(gid))
    assert check.divergence is None, check.divergence
    assert check.state_hash == state_hash(game.projection.state)


def test_the_quiet_game_is_a_real_game() -> None:
    """The serial run of the non-interacting game (melee_serial): both markers played
    their turns, creatures were cast through the stacks and fought."""
    state = serial_run(quiet_start("quiet-serial"))
    o = outcome(state)
    assert [t for _, t, _, _ in o["markers"].values()] == [MARKER_TURNS + 1] * 2
    assert not state.game_over
    assert sum(len(p["battlefield"]) for p in o["players"].values()) > 20
    assert any(p["life"] < 20 or p["graveyard"] for p in o["players"].values())
    # the bound is where the gateway driver stops too
    assert done_within(state, MARKER_TURNS)
    assert not done_within(state, MARKER_TURNS + 1)


@pytest.mark.integration
def test_non_interacting_stacks_end_as_the_serial_run(two_resolvers: Cluster) -> None:
    """Issue 6 / CR 807.5: with two resolver processes and every marker's player acting
    as soon as it may, a game whose stacks don't interact ends as its serial run does."""
    cluster = two_resolvers
    gid = spread_game_id("melee-quiet", 2)
    start = quiet_start(gid)

    async def go() -> DistributedGame:
        async with httpx.AsyncClient(base_url=cluster.gateway_url, timeout=60) as http:
            return await play_markers_through_gateway(
                GatewayClient(http, cluster.logins), start, 300, max_marker_turn=MARKER_TURNS)
    game = asyncio.run(go())
    from arbiter_ops.bench import drain
    drain(cluster.store, quiet_s=1.0, limit_s=20)
    with open_store(cluster.store) as store:
        stored = store.read_stream(gid)
        rejected = store.read_stream(f"audit:{gid}")
        check = verify_log(stored)
        loaded = GameSession.load(store, gid).state
    assert not rejected, [e.payload for e in rejected]
    assert check.divergence is None, check.divergence
    assert set(check.by_process) == {STACK, f"{STACK}-2"}, check.by_process
    assert state_hash(loaded) == check.state_hash == state_hash(game.projection.state)
    # the gateway derived the game's seed from the client's (HMAC, issue 14)
    assert outcome(loaded) == outcome(serial_run(start.model_copy(update={"seed": game.seed})))
