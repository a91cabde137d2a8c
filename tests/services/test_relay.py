"""The relay: only stored events are published, none is lost across a crash, work is
derived from the resulting state, and checkpoints are not published."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from pydantic import BaseModel

from arbiter_runtime.audit import CommandRejected, record_rejection
from arbiter_runtime.botgame import run_in_process, start_command
from arbiter_runtime.session import GameSession
from arbiter_services.checkpoint import StoreCheckpoints
from arbiter_services.messages import AuditMessage, EventMessage, WorkItem
from arbiter_services.observability import Metrics, setup_tracing
from arbiter_services.relay import Relay
from arbiter_store import EventStore, open_store


class Crash(Exception):
    pass


class Recorder:
    """A broker stand-in: records what was confirmed; can fail after N messages."""

    def __init__(self, fail_after: int | None = None) -> None:
        self.sent: list[tuple[str, BaseModel]] = []
        self.fail_after = fail_after

    async def publish(self, topic: str, msg: BaseModel, key: bytes) -> Any:
        if self.fail_after is not None and len(self.sent) >= self.fail_after:
            raise Crash("the relay dies mid-page")
        self.sent.append((topic, msg))
        return None

    def events(self) -> list[EventMessage]:
        return [m for _, m in self.sent if isinstance(m, EventMessage)]


def relay(store: EventStore, rec: Recorder, page_size: int = 50) -> Relay:
    return Relay(store, rec.publish, StoreCheckpoints(store, "t"), Metrics("relay"),
                 setup_tracing("relay"), page_size=page_size, sweep_s=3600)


async def drain(r: Relay) -> None:
    await r.start()
    while await r.step():
        pass
    await r.save(force=True)


def test_publishes_every_stored_event_once_in_order() -> None:
    with open_store(":memory:") as store:
        run_in_process(store, start_command("a", 2, 1, deck_size=10))
        run_in_process(store, start_command("b", 2, 2, deck_size=10))
        record_rejection(store, "a", CommandRejected(
            command_id="c-1", seat="P1", command_type="PassPriority", code="rule_violation",
            reason="no", rule="117.1"), {})
        rec = Recorder()
        asyncio.run(drain(relay(store, rec)))
        for game in ("a", "b"):
            got = [(m.version, m.type, m.payload, m.rule)
                   for m in rec.events() if m.game_id == game]
            want = [(e.version, e.type, e.payload, e.rule) for e in store.read_stream(game)]
            assert got == want
        audits = [m for t, m in rec.sent if isinstance(m, AuditMessage)]
        assert [(t, m.payload["rule"]) for t, m in rec.sent if isinstance(m, AuditMessage)] \
            == [("arbiter.audit", "117.1")] and len(audits) == 1
        # the checkpoint stream is not a game: nothing of it is published
        assert all(not m.game_id.startswith("$") for m in rec.events())


def test_a_crash_mid_page_loses_nothing() -> None:
    with open_store(":memory:") as store:
        run_in_process(store, start_command("a", 2, 1, deck_size=10))
        total = store.stream_version("a")
        # the relay dies in its second page: the first page is confirmed and saved
        crashed = Recorder(fail_after=60)
        with pytest.raises(Crash):
            asyncio.run(drain(relay(store, crashed, page_size=40)))
        assert 0 < len(crashed.events()) < total
        # restarted, it resumes at its checkpoint: every event not confirmed before the
        # checkpoint is published again (at least once), none is skipped
        again = Recorder()
        asyncio.run(drain(relay(store, again, page_size=40)))
        seen = {m.version for m in crashed.events()} | {m.version for m in again.events()}
        assert seen == set(range(1, total + 1))
        assert min(m.version for m in again.events()) <= len(crashed.events()) + 1
        versions = [m.version for m in again.events()]
        assert versions == sorted(versions)


def test_restart_resumes_from_the_checkpoint_and_redrives_owed_work() -> None:
    with open_store(":memory:") as store:
        cmd = start_command("a", 2, 1, deck_size=10)
        session = GameSession(store, "a")
        session.execute(cmd)  # started: the engine owes work (turn-based actions)
        rec = Recorder()
        asyncio.run(drain(relay(store, rec)))
        work = [m for _, m in rec.sent if isinstance(m, WorkItem)]
        assert [(w.kind, w.owner, w.version) for w in work] == [
            ("turn_based_actions", "turn-orchestrator", store.stream_version("a"))]
        # a restarted relay publishes no event again, but re-sends the owed work (its
        # message may have been lost with a broker restart); work is idempotent
        rec2 = Recorder()
        asyncio.run(drain(relay(store, rec2)))
        assert rec2.events() == []
        assert [(m.work_id, m.owner) for _, m in rec2.sent if isinstance(m, WorkItem)] \
            == [(w.work_id, w.owner) for w in work]


@pytest.mark.integration
def test_event_batches_split_to_fit_the_producer() -> None:
    """What a page owes a topic goes out as one produce batch per partition when it
    fits, else in order in as many as needed (a message larger than a batch alone): on
    a real broker."""
    from aiokafka import AIOKafkaConsumer  # type: ignore[import-untyped]

    from arbiter_ops.tansu import TansuBroker
    from arbiter_services.app import new_broker, relay_router
    from arbiter_services.settings import Settings
    from arbiter_services.topic_admin import ensure_topics
    from arbiter_services.topics import EVENTS

    def event(i: int, size: int) -> EventMessage:
        return EventMessage(game_id="big", version=i, position=i, type="X",
                            schema_version=1, payload={"blob": "x" * size}, rule=None,
                            metadata={})

    async def go(bootstrap: str) -> list[int]:
        await ensure_topics(bootstrap)
        s = Settings(broker=bootstrap)
        broker = new_broker(s, Metrics("relay"), setup_tracing("relay"), "t")
        router, (_, publish_many) = relay_router([broker])
        broker.include_router(router)
        await broker.start()
        cons = AIOKafkaConsumer(EVENTS, bootstrap_servers=bootstrap, group_id=None,
                                auto_offset_reset="earliest")
        await cons.start()
        try:
            sizes = [100_000, 100_000, 100_000, 300_000, 10, 10]
            futures = await publish_many(EVENTS, [(event(i + 1, n), b"big")
                                                  for i, n in enumerate(sizes)])
            await asyncio.gather(*futures)
            got: list[int] = []
            while len(got) < len(sizes):
                m = await asyncio.wait_for(cons.getone(), 20)
                got.append(EventMessage.model_validate_json(m.value).version)
            return got
        finally:
            await cons.stop()
            await broker.stop()

    with TansuBroker() as b:
        assert asyncio.run(go(b.bootstrap)) == [1, 2, 3, 4, 5, 6]
