"""`make bench-services`: latency and throughput through the services on Tansu.

Starts Tansu and every service as its own process (SQLite store in a temp dir), then:

1. bare aiokafka produce -> consume round trips on the same broker (the floor);
2. command -> event latency through the services: a driver publishes bot commands to
   the command topics (as the gateway does) and times each one until its first event
   arrives on `arbiter.events` (service + store + relay + two Kafka hops);
3. the same with 50 and with 200 concurrent 4-player bot games (p50/p99), and bot games
   finished per minute. The driver rebuilds each game from `arbiter.events` and acts
   when the engine owes no work, as `arbiter play --distributed` does.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer  # type: ignore[import-untyped]

from arbiter_ops.launcher import Cluster
from arbiter_runtime.botgame import engine_idle, make_bots, next_action, start_command
from arbiter_runtime.projection import GameProjection
from arbiter_services.core import ORGANIZER
from arbiter_services.messages import AuditMessage, CommandEnvelope, EventMessage
from arbiter_services.topic_admin import ensure_topics
from arbiter_services.topics import AUDIT, EVENTS, command_consumer, command_key, command_topic
from arbiter_services.topics import TopicSpec as _T
from arbiter_store import StoredEvent, open_store

FETCH_MS = 25  # as the services (Settings.fetch_max_wait_ms)
SERIES_S = 10.0
FULL_GAME_COMMANDS = 1740  # player actions of a seeded 4-player game (arbiter play, seeds 1-3)


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


async def bare_round_trip(bootstrap: str, n: int = 300) -> list[float]:
    await ensure_topics(bootstrap, (_T("bench.rtt", "none", 1, EventMessage, (), ("b",), ""),))
    prod = AIOKafkaProducer(bootstrap_servers=bootstrap, linger_ms=0)
    cons = AIOKafkaConsumer("bench.rtt", bootstrap_servers=bootstrap, group_id=None,
                            auto_offset_reset="latest", fetch_max_wait_ms=FETCH_MS)
    await prod.start()
    await cons.start()
    await asyncio.sleep(1.0)
    out = []
    try:
        for i in range(n):
            t = time.perf_counter()
            await prod.send_and_wait("bench.rtt", str(i).encode(), key=b"k")
            while True:
                m = await cons.getone()
                if m.value == str(i).encode():
                    break
            out.append(time.perf_counter() - t)
    finally:
        await cons.stop()
        await prod.stop()
    return out


@dataclass
class Game:
    start: object
    proj: GameProjection
    bots: dict[str, object]
    outstanding: tuple[str, float] | None = None


@dataclass
class Driver:
    bootstrap: str
    store_url: str
    players: int
    deck_size: int | None
    latencies: list[float] = field(default_factory=list)
    finished: int = 0
    started: int = 0
    rejected: int = 0
    games: dict[str, Game] = field(default_factory=dict)
    #: (seconds since the start, commands answered so far), every `SERIES_S`
    series: list[tuple[float, int]] = field(default_factory=list)
    received_at: float = 0.0

    async def run(self, concurrent: int, seconds: float) -> None:
        prod = AIOKafkaProducer(bootstrap_servers=self.bootstrap, linger_ms=0)
        cons = AIOKafkaConsumer(EVENTS, AUDIT, bootstrap_servers=self.bootstrap,
                                group_id=None, auto_offset_reset="latest",
                                fetch_max_wait_ms=FETCH_MS)
        await prod.start()
        await cons.start()
        await asyncio.sleep(1.0)
        store = open_store(self.store_url)
        self.prod, self.store = prod, store
        try:
            for _ in range(concurrent):
                await self.new_game()
            t0 = time.perf_counter()
            deadline, next_mark = t0 + seconds, t0 + SERIES_S
            while time.perf_counter() < deadline:
                batch = await cons.getmany(timeout_ms=100, max_records=500)
                self.received_at = time.perf_counter()  # latency ends on arrival
                for records in batch.values():
                    for r in records:
                        if r.topic == AUDIT:
                            await self.on_rejected(AuditMessage.model_validate_json(r.value))
                        else:
                            await self.on_event(EventMessage.model_validate_json(r.value))
                if time.perf_counter() >= next_mark:
                    self.series.append((next_mark - t0, len(self.latencies)))
                    next_mark += SERIES_S
        finally:
            await cons.stop()
            await prod.stop()
            store.close()

    async def on_rejected(self, m: AuditMessage) -> None:
        """A rejected command (the state moved on): the game's bot acts again."""
        g = self.games.get(m.game_id)
        if g is not None and g.outstanding and m.payload.get("command_id") == g.outstanding[0]:
            self.rejected += 1
            g.outstanding = None

    async def new_game(self) -> None:
        gid = f"bench-{uuid.uuid4().hex[:12]}"
        self.started += 1
        start = start_command(gid, self.players, self.started, deck_size=self.deck_size)
        self.games[gid] = Game(start, GameProjection(gid), make_bots(start))  # type: ignore[arg-type]
        await self.send(gid, start.model_dump(mode="json"), ORGANIZER, "StartGame", None)

    async def send(self, gid: str, command: dict[str, object], actor: str, ctype: str,
                   marker: int | None) -> None:
        cid = f"b-{uuid.uuid4().hex}"
        env = CommandEnvelope(game_id=gid, command_id=cid, actor=actor, command=command)
        service = command_consumer(ctype)
        self.games[gid].outstanding = (cid, time.perf_counter())
        await self.prod.send(command_topic(service), env.model_dump_json().encode(),
                             key=command_key(gid, service, marker))

    async def on_event(self, m: EventMessage) -> None:
        g = self.games.get(m.game_id)
        if g is None:
            return
        if g.outstanding and m.metadata.get("command_id") == g.outstanding[0]:
            self.latencies.append((self.received_at or time.perf_counter())
                                  - g.outstanding[1])
            g.outstanding = None
        if m.version != g.proj.version + 1:
            await asyncio.to_thread(g.proj.catch_up, self.store, m.version)
        else:
            g.proj.apply(StoredEvent(m.game_id, m.version, m.position, m.type,
                                     m.schema_version, m.payload, m.rule, m.metadata))
        s = g.proj.state
        if not m.last_in_batch or g.outstanding or not engine_idle(s):
            return
        if s.game_over:
            self.finished += 1
            del self.games[m.game_id]
            await self.new_game()
            return
        action = next_action(s, g.bots)  # type: ignore[arg-type]
        if action is not None:
            await self.send(m.game_id, action.model_dump(mode="json"),
                            getattr(action, "player", ""), action.type,
                            getattr(action, "marker", None))


async def measure(cluster: Cluster, concurrent: int, seconds: float, players: int,
                  deck_size: int | None) -> Driver:
    d = Driver(cluster.broker.bootstrap, cluster.store, players, deck_size)
    await d.run(concurrent, seconds)
    return d


def drain(store_url: str, quiet_s: float = 2.0, limit_s: float = 120.0) -> float:
    """Wait (bounded) until the log stops growing: the previous run's backlog is done.
    Returns how long the log kept growing (the backlog the services still had)."""
    with open_store(store_url) as store:
        pos, t0 = 0, time.monotonic()
        while True:  # the head now
            page = store.read_all(pos + 1, limit=100_000)
            if not page:
                break
            pos = page[-1].position
        still = last_growth = time.monotonic()
        while time.monotonic() - still < quiet_s and time.monotonic() - t0 < limit_s:
            page = store.read_all(pos + 1, limit=100_000)
            if page:
                pos, still = page[-1].position, time.monotonic()
                last_growth = still
            time.sleep(0.2)
        return last_growth - t0


def _series(d: Driver) -> str:
    marks, prev = [], 0
    for t, n in d.series:
        marks.append(f"{(n - prev) / SERIES_S:.0f}")
        prev = n
        del t
    return "/".join(marks)


def main(seconds: float = 30, deck_size: int | None = None) -> None:
    """Print the figures; `deck_size` cuts the decks of the latency runs (None: full)."""
    with tempfile.TemporaryDirectory() as tmp:
        cluster = Cluster(str(Path(tmp) / "bench.sqlite"), Path(tmp) / "run")
        cluster.start()
        try:
            rtt = asyncio.run(bare_round_trip(cluster.broker.bootstrap))
            base50, base99 = pct(rtt, 50), pct(rtt, 99)
            print(f"bare aiokafka produce->consume on the same broker: p50 "
                  f"{base50 * 1e3:.1f} ms, p99 {base99 * 1e3:.1f} ms ({len(rtt)} round trips)")
            print("command->event: a bot command published to its service's topic until "
                  "its first event arrives on arbiter.events (service, store, relay, two "
                  "Kafka hops); 4-player games with full decks, each acting when the "
                  "engine owes no work")
            for concurrent in (1, 50, 200):
                d = asyncio.run(measure(cluster, concurrent, seconds, 4, deck_size))
                backlog = drain(cluster.store)
                p50, p99 = pct(d.latencies, 50), pct(d.latencies, 99)
                print(f"{concurrent:>3} concurrent 4-player games: command->event "
                      f"p50 {p50 * 1e3:.1f} ms, p99 {p99 * 1e3:.1f} ms "
                      f"(x{p50 / base50:.1f} / x{p99 / base99:.1f} the bare round trip), "
                      f"{len(d.latencies) / seconds:.0f} commands/s (per {SERIES_S:.0f}s: "
                      f"{_series(d)}), {d.rejected} rejected; the services' backlog after "
                      f"the driver stopped: {backlog:.1f}s")
            players, deck, games_at_once = 2, 12, 10
            d = asyncio.run(measure(cluster, games_at_once, seconds * 2, players, deck))
            drain(cluster.store)
            rate = len(d.latencies) / (2 * seconds)
            print(f"bot games per minute: {d.finished * 30 / seconds:.1f} (a game: "
                  f"{players} players, {deck}-card decks, ~780 events, ~195 commands, 11 "
                  f"turns: it ends when a library runs out; {games_at_once} at a time, "
                  f"{d.finished} finished in {2 * seconds:.0f}s), {rate:.0f} commands/s; a "
                  f"4-player game with full decks is ~{FULL_GAME_COMMANDS} commands: ~"
                  f"{rate * 60 / FULL_GAME_COMMANDS:.1f} such games/min at that rate")
        finally:
            cluster.stop()
