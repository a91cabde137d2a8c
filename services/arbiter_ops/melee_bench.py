"""`python -m arbiter_ops bench --grand-melee`: one Grand Melee game through the
services, with 1 and with K stack-resolver processes (part of `make bench`).

1. For scale, the same seeded game in one process (the embedded loop, in-memory
   store), to its end with `full`, else capped at `seconds`.
2. Windowed runs, side by side: for each resolver count a fresh cluster, the game driven
   for `seconds` by the Kafka driver that acts on every marker whose player may act
   (`melee.drive`): stack resolutions per second, events per second, the version
   conflicts and retries of each resolver process, and the ratio between the counts.
3. With `full`: the game played to its end through the gateway, as
   `arbiter play --variant grand_melee --players 100 --distributed --resolvers K` does
   (`arbiter_gateway.markers`): the time to finish, stack resolutions per second over the
   whole game, conflicts and retries; then the stored log is re-decided serially.

Every run's log is checked with `melee.verify_log` (each engine batch is what `decide`
returns for its marker at its version).
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import httpx

from arbiter_core.kernel.commands import RunEngineWork
from arbiter_core.kernel.shell_loop import owed_marker
from arbiter_gateway.client import GatewayClient
from arbiter_gateway.markers import play_markers_through_gateway
from arbiter_ops.bench import drain
from arbiter_ops.launcher import Cluster
from arbiter_ops.melee import (
    VARIANT,
    ResolverStats,
    drive,
    resolver_stats,
    spread_game_id,
    verify_log,
)
from arbiter_runtime.botgame import make_bots, next_action, start_command
from arbiter_runtime.session import GameSession
from arbiter_store import NewEvent, StoredEvent, open_store

FULL_GAME_DEADLINE_S = 45 * 60
KEEP_DIR = ".arbiter/bench"  # where a log that diverged is kept


@dataclass
class BenchRun:
    resolvers: int
    seconds: float
    events: int
    resolutions: int
    finished: bool
    stats: list[ResolverStats]
    by_process: dict[str, set[int]]
    divergence: str | None
    actions: int = 0

    @property
    def rate(self) -> float:
        return self.resolutions / self.seconds if self.seconds else 0.0

    def conflicts(self) -> int:
        return sum(s.conflicts for s in self.stats)

    def retries(self) -> int:
        return sum(s.retries for s in self.stats)

    def line(self) -> str:
        per = ", ".join(f"{s.process}: {s.work_applied} work messages applied, "
                        f"{s.conflicts} conflicts, {s.retries} retries" for s in self.stats)
        return (f"{self.resolutions} stack resolutions in {self.seconds:.0f}s = "
                f"{self.rate:.2f}/s, {self.events} events ({self.events / self.seconds:.0f}"
                f"/s); version conflicts {self.conflicts()}, retries {self.retries()} "
                f"[{per}]; re-decided serially: {self.divergence or 'no divergence'}")


def reference_length(players: int, seed: int, cap_s: float, game_id: str
                     ) -> tuple[int, int, bool, float]:
    """The same seeded game in one process (in-memory store), capped at `cap_s`: events,
    resolve_top batches, whether it finished, seconds."""
    start = start_command(game_id, players, seed, VARIANT)
    t0 = time.perf_counter()
    with open_store(":memory:") as store:
        session = GameSession(store, game_id)
        session.execute(start)
        bots = make_bots(start)
        kinds: Counter[str] = Counter()
        while not session.state.game_over and time.perf_counter() - t0 < cap_s:
            marker = owed_marker(session.state)
            if marker is not None:
                pending = session.state.markers[marker].pending
                kinds[getattr(pending, "kind", "?")] += 1
                session.execute(RunEngineWork(marker=marker))
                continue
            action = next_action(session.state, bots)
            if action is not None:
                session.execute(action)
        return (session.state.version, kinds["resolve_top"], session.state.game_over,
                time.perf_counter() - t0)


def _new(e: StoredEvent) -> NewEvent:
    return NewEvent(e.type, e.schema_version, dict(e.payload), e.rule, dict(e.metadata))


def _checked(store_url: str, game_id: str, resolvers: int, seconds: float,
             finished: bool, stats: list[ResolverStats], actions: int = 0) -> BenchRun:
    with open_store(store_url) as store:
        check = verify_log(store.read_stream(game_id))
    if check.divergence is not None:  # keep the log for the audit (the run dir is temporary)
        kept = Path(KEEP_DIR) / f"{Path(store_url).stem}-{int(time.time())}.sqlite"
        kept.parent.mkdir(parents=True, exist_ok=True)
        with open_store(store_url) as store, open_store(str(kept)) as copy:
            copy.append(game_id, 0, [_new(e) for e in store.read_stream(game_id)])
        print(f"  the diverging log is kept in {kept} (game {game_id}; "
              f"arbiter replay --check --db {kept} --game {game_id})")
    return BenchRun(resolvers, seconds, check.events, check.resolutions, finished, stats,
                    check.by_process, check.divergence, actions)


def windowed(resolvers: int, players: int, seconds: float, seed: int, tmp: Path,
             game_id: str) -> BenchRun:
    cluster = Cluster(str(tmp / f"melee{resolvers}.sqlite"), tmp / f"run{resolvers}",
                      resolvers=resolvers)
    cluster.start(timeout=120)
    try:
        time.sleep(3)  # let the consumer group settle (every member assigned)
        d = asyncio.run(drive(cluster.broker.bootstrap, cluster.store, players, seconds,
                              game_id=game_id, seed=seed))
        elapsed = (d.t_end or time.perf_counter()) - d.t_start
        stats = resolver_stats(cluster)
        drain(cluster.store, quiet_s=1.0, limit_s=10)
    finally:
        cluster.stop()
    finished = d.over and d.proj is not None and d.proj.state.game_over
    return _checked(cluster.store, game_id, resolvers, elapsed, finished, stats)


def full_game(resolvers: int, players: int, seed: int, tmp: Path, game_id: str,
              deadline_s: float = FULL_GAME_DEADLINE_S) -> BenchRun:
    """The game to its end through the gateway (as `arbiter play --distributed`)."""
    cluster = Cluster(str(tmp / f"full{resolvers}.sqlite"), tmp / f"full{resolvers}",
                      resolvers=resolvers)
    cluster.start(timeout=120)
    start = start_command(game_id, players, seed, VARIANT)
    t0 = time.perf_counter()
    actions, finished = 0, False
    try:
        time.sleep(3)

        async def go() -> int:
            async with httpx.AsyncClient(base_url=cluster.gateway_url, timeout=60) as http:
                game = await play_markers_through_gateway(GatewayClient(http, cluster.logins),
                                                          start,
                                                          deadline_s)
                return game.actions
        with contextlib.suppress(TimeoutError):  # the deadline: report how far it got
            actions, finished = asyncio.run(go()), True
        elapsed = time.perf_counter() - t0
        stats = resolver_stats(cluster)
    finally:
        cluster.stop()
    return _checked(cluster.store, game_id, resolvers, elapsed, finished, stats, actions)


def bench(players: int = 100, seconds: float = 60.0, resolvers: tuple[int, ...] = (1, 2),
          seed: int = 1, full: bool = False) -> list[BenchRun]:
    """Print the figures (see the module doc); returns the runs."""
    markers = max(1, players // 4)
    gid = spread_game_id(f"melee{players}", min(markers, 4))
    ref_events, ref_res, ref_done, ref_s = reference_length(
        players, seed, FULL_GAME_DEADLINE_S if full else seconds, gid)
    print(f"{players}-player Grand Melee ({markers} turn markers, 40-card decks), seed "
          f"{seed}, game {gid}")
    print(f"in one process (embedded loop, for scale): {ref_events} events "
          f"({ref_events / ref_s:.0f}/s), {ref_res} stack resolutions in {ref_s:.0f}s"
          + (" (finished)" if ref_done else " (not finished: capped)"))
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in resolvers:
            run = windowed(k, players, seconds, seed, Path(tmp), gid)
            runs.append(run)
            print(f"{k} resolver process(es), the first {run.seconds:.0f}s of the game "
                  f"through Kafka: {run.line()}")
        if len(runs) >= 2 and runs[0].rate:
            print("stack resolutions/s, ratio to 1 resolver: " + ", ".join(
                f"{r.resolvers} -> {r.rate / runs[0].rate:.2f}" for r in runs))
        if full:
            k = max(resolvers)
            run = full_game(k, players, seed, Path(tmp), f"{gid}-full")
            runs.append(run)
            end = (f"finished in {run.seconds:.0f}s ({run.seconds / 60:.1f} min)"
                   if run.finished else
                   f"NOT finished after {run.seconds:.0f}s (stopped at the deadline)")
            print(f"the whole game, {k} resolver processes, through the gateway (arbiter "
                  f"play --distributed): {end}, {run.actions} player actions; "
                  f"{run.line()}")
    return runs
