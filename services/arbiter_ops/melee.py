"""Grand Melee over several stack-resolver processes: drive, verify, measure.

One Grand Melee game (CR 807) has a stack per turn marker, and the stack resolver's work
is keyed `game:marker`, so with K resolver processes in consumer group `stack-resolver`
the markers of one game spread over them (by partition). Every append still goes to the
one game stream with an expected version: resolvers working on different markers of one
game race, and the loser gets a version conflict, decides again on the newer state
(`ServiceCore.handle_work`) and appends.

- `MeleeDriver`: one bot game through Kafka (as `arbiter play --distributed`), bounded by
  events or seconds.
- `verify_log`: the stored log re-decided serially: every batch the engine made must be
  `decide(state before it, RunEngineWork(its marker))`. The marker is the one the batch
  was made for (from its `work_id`); `arbiter_core.kernel.divergence.redecide` assumes the
  embedded order (lowest marker with work first), which K resolvers need not follow.
- `resolver_stats`: the conflict and retry counters each resolver serves on /metrics.

The bench (stack resolutions per second with 1 and K resolvers, the time to finish a
100-player game) is `melee_bench.py`.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import time
import urllib.request
import uuid
from dataclasses import dataclass, field
from typing import Any

from prometheus_client.parser import text_string_to_metric_families

from arbiter_core.kernel.commands import RunEngineWork
from arbiter_core.kernel.decide import decide
from arbiter_core.kernel.divergence import dump
from arbiter_core.kernel.evolve import empty_state
from arbiter_core.kernel.hashing import state_hash
from arbiter_core.kernel.state import Decision, Priority
from arbiter_ops.bench import Driver, Game
from arbiter_ops.launcher import Cluster, role_of
from arbiter_runtime.botgame import make_bots, start_command
from arbiter_runtime.codec import from_stored
from arbiter_runtime.fold import LogStates, fold
from arbiter_runtime.projection import GameProjection
from arbiter_services.core import ORGANIZER
from arbiter_services.topics import STACK, TOPIC_BY_NAME, partition_of, work_topic
from arbiter_store import StoredEvent, open_store

VARIANT = "grand_melee"
IN_FLIGHT_S = 3.0  # a command with no event by then was rejected: act again


def marker_partitions(game_id: str, markers: int) -> list[int]:
    n = TOPIC_BY_NAME[work_topic(STACK)].partitions
    return [partition_of(f"{game_id}:{m}".encode(), n) for m in range(1, markers + 1)]


def spread_game_id(prefix: str, markers: int) -> str:
    """A game id whose markers' work lands on even and odd partitions, low and high:
    split over two consumers by the round-robin (aiokafka's default) and the range
    assignors alike."""
    half = TOPIC_BY_NAME[work_topic(STACK)].partitions // 2
    for i in range(10_000):
        gid = f"{prefix}-{i}"
        ps = marker_partitions(gid, markers)
        if ({p % 2 for p in ps} == {0, 1} and any(p < half for p in ps)
                and any(p >= half for p in ps)):
            return gid
    raise RuntimeError("no game id spreads the markers")  # pragma: no cover


# ---------------------------------------------------------------------------- driving


@dataclass
class MeleeDriver(Driver):
    """One bot game of `variant`, through Kafka, until it ends, `max_events` are stored
    or `seconds` pass."""

    variant: str = VARIANT
    game_id: str = ""
    max_events: int | None = None
    seed: int = 1
    over: bool = False
    version: int = 0
    t_start: float = 0.0
    t_end: float = 0.0
    proj: GameProjection | None = field(default=None)
    #: act on every marker whose player is waiting, without waiting for the other
    #: markers' engine work (the embedded loop waits for all): simultaneous stacks
    per_marker: bool = False
    in_flight: dict[int, tuple[str, float]] = field(default_factory=dict)

    async def run(self, concurrent: int = 1, seconds: float = 60.0) -> None:
        self.t_start = time.perf_counter()
        await super().run(1, seconds)
        self.t_end = self.t_end or time.perf_counter()

    async def new_game(self) -> None:
        if self.started:
            return  # one game only (the base class starts another when one ends)
        gid = self.game_id or f"melee-{uuid.uuid4().hex[:12]}"
        self.game_id = gid
        self.started += 1
        start = start_command(gid, self.players, self.seed, self.variant,
                              deck_size=self.deck_size)
        self.proj = GameProjection(gid)
        self.games[gid] = Game(start, self.proj, make_bots(start))  # type: ignore[arg-type]
        await self.send(gid, start.model_dump(mode="json"), ORGANIZER, "StartGame", None)

    async def on_event(self, m: Any) -> None:
        g = self.games.get(m.game_id)
        if g is None or self.over:
            return
        if self.max_events is not None and m.version >= self.max_events:
            self.stop()
            return
        if self.per_marker:
            await self._on_event_per_marker(g, m)
        else:
            await super().on_event(m)
        self.version = g.proj.version
        if g.proj.state.game_over:
            self.stop()

    async def on_rejected(self, m: Any) -> None:
        if not self.per_marker:
            return await super().on_rejected(m)
        cid = m.payload.get("command_id")
        for number, (sent, _) in list(self.in_flight.items()):
            if sent == cid:  # the marker's bot acts again on the next event
                self.rejected += 1
                del self.in_flight[number]
        return None

    async def _on_event_per_marker(self, g: Game, m: Any) -> None:
        cid = m.metadata.get("command_id")
        for number, (sent, t) in list(self.in_flight.items()):
            if sent == cid:
                self.latencies.append(time.perf_counter() - t)
                del self.in_flight[number]
        if m.version != g.proj.version + 1:
            await asyncio.to_thread(g.proj.catch_up, self.store, m.version)
        else:
            g.proj.apply(StoredEvent(m.game_id, m.version, m.position, m.type,
                                     m.schema_version, m.payload, m.rule, m.metadata))
        s = g.proj.state
        if s.game_over or not m.last_in_batch:
            return
        now = time.perf_counter()
        for mk in list(s.markers.values()):
            pending = mk.pending
            if not isinstance(pending, Priority | Decision):
                continue  # engine work owed on this marker, or waiting (807.4d)
            out = self.in_flight.get(mk.number)
            if out is not None and now - out[1] < IN_FLIGHT_S:
                continue
            action = g.bots[pending.player].choose(s, pending.player)  # type: ignore[attr-defined]
            if action is None:
                continue
            await self.send(m.game_id, action.model_dump(mode="json"), pending.player,
                            action.type, getattr(action, "marker", mk.number))
            assert g.outstanding is not None
            self.in_flight[mk.number] = (g.outstanding[0], now)

    def stop(self) -> None:
        self.over = True
        self.t_end = time.perf_counter()
        raise _Done


class _Done(Exception):
    pass


async def drive(bootstrap: str, store_url: str, players: int, seconds: float,
                max_events: int | None = None, game_id: str = "", seed: int = 1,
                deck_size: int | None = None, per_marker: bool = True) -> MeleeDriver:
    d = MeleeDriver(bootstrap, store_url, players, deck_size, game_id=game_id,
                    max_events=max_events, seed=seed, per_marker=per_marker)
    with contextlib.suppress(_Done):
        await d.run(1, seconds)
    return d


# ---------------------------------------------------------------------------- checking


@dataclass
class LogCheck:
    events: int
    engine_batches: int
    divergence: str | None
    by_process: dict[str, set[int]]  # stack-resolver process -> markers it resolved for
    resolutions: int  # resolve_top batches
    state_hash: str


def _batches(stored: list[StoredEvent]) -> list[list[StoredEvent]]:
    out: list[list[StoredEvent]] = []
    for e in stored:
        aid = e.metadata.get("append_id")
        if out and aid is not None and out[-1][0].metadata.get("append_id") == aid:
            out[-1].append(e)
        else:
            out.append([e])
    return out


def verify_log(stored: list[StoredEvent]) -> LogCheck:
    """Re-decide every engine-made batch of a stored game log, serially."""
    state = empty_state()
    decoded = [from_stored(e) for e in stored]
    log = LogStates(decoded)
    by_process: dict[str, set[int]] = {}
    engine = resolutions = 0
    divergence: str | None = None
    for batch in _batches(stored):
        meta = batch[0].metadata
        if meta.get("command") == "RunEngineWork":
            engine += 1
            marker = int(str(meta["work_id"]).rsplit(":", 1)[1])
            if divergence is None:  # after one, the batches are counted, not checked
                produced = [dump(e) for e in decide(state, RunEngineWork(marker=marker))]
                expected = [dump(decoded[e.version - 1]) for e in batch]
                if produced != expected:
                    divergence = _divergence(batch[0].version, meta, marker, produced,
                                             expected)
            if role_of(str(meta.get("service", ""))) == STACK:
                by_process.setdefault(str(meta["service"]), set()).add(marker)
                resolutions += meta.get("work") == "resolve_top"
        for e in batch:
            fold(state, decoded[e.version - 1], log)
    return LogCheck(len(stored), engine, divergence, by_process, resolutions,
                    state_hash(state))


def _divergence(version: int, meta: dict[str, Any], marker: int,
                produced: list[dict[str, Any]], expected: list[dict[str, Any]]) -> str:
    """What differs, down to the first differing event's fields (for the audit)."""
    line = (f"version {version}: {meta.get('work')} on marker {marker} by "
            f"{meta.get('service')} (work id {meta.get('work_id')}): the engine makes "
            f"{[p['type'] for p in produced]}, the log has {[x['type'] for x in expected]}")
    for k, (p, x) in enumerate(zip(produced, expected, strict=False)):
        if p != x:
            fields = sorted(f for f in p.keys() | x.keys() if p.get(f) != x.get(f))
            return line + (f"; event {version + k} differs in {fields}: engine "
                           f"{ {f: p.get(f) for f in fields} }, log "
                           f"{ {f: x.get(f) for f in fields} }")
    return line


def check_stored(store_url: str, game_id: str, live_hash: str | None = None) -> str:
    """The stored log re-decided serially (and its state against the live one), as a
    line for the CLI."""
    t = time.perf_counter()
    with open_store(store_url) as store:
        check = verify_log(store.read_stream(game_id))
    same = "" if live_hash is None else (
        "; replay equals live" if check.state_hash == live_hash
        else f"; REPLAY DIFFERS from live ({check.state_hash[:16]} vs {live_hash[:16]})")
    return (f"re-decided serially in {time.perf_counter() - t:.0f}s: {check.events} events, "
            f"{check.engine_batches} engine batches, {check.resolutions} stack resolutions "
            f"by {', '.join(sorted(check.by_process)) or 'none'}: "
            f"{check.divergence or 'no divergence'}{same}")


def replay_hash_in_subprocess(store_url: str, game_id: str) -> str:
    """The state hash of the game loaded by another process (GameSession.load)."""
    code = ("import sys; from arbiter_store import open_store; "
            "from arbiter_runtime.session import GameSession; "
            "from arbiter_core.kernel.hashing import state_hash; "
            "st = open_store(sys.argv[1]); "
            "print(state_hash(GameSession.load(st, sys.argv[2]).state))")
    out = subprocess.run([sys.executable, "-c", code, store_url, game_id], check=True,
                         capture_output=True, text=True, timeout=600)
    return out.stdout.strip().splitlines()[-1]


# ---------------------------------------------------------------------------- metrics


def scrape(port: int) -> dict[str, float]:
    """A process's Prometheus counters (`name{labels}` -> value)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
        text = r.read().decode()
    out: dict[str, float] = {}
    for fam in text_string_to_metric_families(text):
        for s in fam.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(s.labels.items()))
            out[f"{s.name}{{{labels}}}"] = s.value
    return out


@dataclass(frozen=True)
class ResolverStats:
    process: str
    conflicts: int
    retries: int
    work_applied: int
    work_stale: int


def resolver_stats(cluster: Cluster) -> list[ResolverStats]:
    """Version conflicts and retries of each stack-resolver process (its /metrics)."""
    out = []
    for name in cluster.names:
        if role_of(name) != STACK:
            continue
        m = scrape(cluster.ports[name])
        svc = f"service={STACK}"
        out.append(ResolverStats(
            name, int(m.get(f"arbiter_version_conflicts_total{{{svc}}}", 0)),
            int(m.get(f"arbiter_work_retries_total{{{svc}}}", 0)),
            int(m.get(f"arbiter_messages_handled_total{{kind=work,outcome=applied,{svc}}}",
                      0)),
            int(m.get(f"arbiter_messages_handled_total{{kind=work,outcome=stale,{svc}}}",
                      0))))
    return out
