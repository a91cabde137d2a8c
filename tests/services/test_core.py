"""The services' decide-and-append loop (no Kafka): idempotency, staleness, conflicts,
rejections in the audit stream."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arbiter_core.kernel.commands import PassPriority
from arbiter_core.kernel.decide import WORK_OWNERS
from arbiter_core.kernel.shell_loop import owed_work
from arbiter_core.kernel.state import Priority, Work
from arbiter_runtime.audit import audit_stream, rejected
from arbiter_runtime.botgame import start_command
from arbiter_runtime.projection import ProjectionCache
from arbiter_services.core import ORGANIZER, ServiceCore
from arbiter_services.messages import CommandEnvelope, WorkItem
from arbiter_services.topics import SERVICES, VARIANTS
from arbiter_store import EventStore, open_store


def cores(store: EventStore) -> dict[str, ServiceCore]:
    return {name: ServiceCore(name, store) for name in SERVICES}


def start(store: EventStore, game: str = "g") -> dict[str, ServiceCore]:
    cs = cores(store)
    env = CommandEnvelope(game_id=game, command_id="start-0001", actor=ORGANIZER,
                          command=start_command(game, 2, 7, deck_size=10).model_dump(mode="json"))
    assert cs[VARIANTS].handle_command(env, {}).status == "applied"
    return cs


def run_engine(store: EventStore, cs: dict[str, ServiceCore], game: str = "g") -> None:
    """The dispatcher's job, inline: hand each owed work item to its owner."""
    cache = ProjectionCache(store)
    for _ in range(1000):
        s = cache.get(game).state
        work = list(owed_work(s))
        if not work:
            return
        marker, kind = work[0]
        item = WorkItem(game_id=game, marker=marker, version=s.version, kind=kind,
                        owner=WORK_OWNERS[kind])
        assert cs[WORK_OWNERS[kind]].handle_work(item, {}).status == "applied"
    raise AssertionError("the engine did not stop")


def holder(store: EventStore, game: str = "g") -> str:
    s = ProjectionCache(store).get(game).state
    p = s.markers[1].pending
    assert isinstance(p, Priority)
    return p.player


def passing(game: str, player: str, cid: str, **kw: object) -> CommandEnvelope:
    return CommandEnvelope(game_id=game, command_id=cid, actor=player,
                           command=PassPriority(player=player).model_dump(mode="json"),
                           **kw)


def test_redelivered_command_and_work_change_nothing() -> None:
    with open_store(":memory:") as store:
        cs = start(store)
        run_engine(store, cs)
        p = holder(store)
        env = passing("g", p, "cmd-00000001")
        first = cs["turn-orchestrator"].handle_command(env, {})
        assert first.status == "applied"
        version = store.stream_version("g")
        assert cs["turn-orchestrator"].handle_command(env, {}).status == "duplicate"
        # a fresh service instance (a restart) also sees it was done
        again = ServiceCore("turn-orchestrator", store).handle_command(env, {})
        assert again.status == "duplicate"
        assert store.stream_version("g") == version
        q = holder(store)
        assert cs["turn-orchestrator"].handle_command(
            passing("g", q, "cmd-00000011"), {}).status == "applied"
        version = store.stream_version("g")
        s = ProjectionCache(store).get("g").state
        m = s.markers[1]
        assert isinstance(m.pending, Work)
        item = WorkItem(game_id="g", marker=1, version=s.version, kind=m.pending.kind,
                        owner=WORK_OWNERS[m.pending.kind])
        owner = cs[item.owner]
        assert owner.handle_work(item, {}).status == "applied"
        after = store.stream_version("g")
        assert after > version
        assert owner.handle_work(item, {}).status == "stale"
        assert ServiceCore(item.owner, store).handle_work(item, {}).status == "stale"
        assert store.stream_version("g") == after


def test_rule_violation_goes_to_the_audit_stream_only() -> None:
    with open_store(":memory:") as store:
        cs = start(store)
        run_engine(store, cs)
        other = next(p for p in ("P1", "P2") if p != holder(store))
        version = store.stream_version("g")
        out = cs["turn-orchestrator"].handle_command(passing("g", other, "cmd-00000002"), {})
        assert out.status == "rejected"
        assert out.rejection is not None and out.rejection.rule == "117.1"
        assert store.stream_version("g") == version
        assert [r.rule for r in rejected(store, "g").values()] == ["117.1"]
        # redelivered: recorded once, and never applied later even if it became legal
        assert cs["turn-orchestrator"].handle_command(
            passing("g", other, "cmd-00000002"), {}).status == "duplicate"
        assert len(store.read_stream(audit_stream("g"))) == 1


def test_commands_for_other_services_and_seats_are_refused() -> None:
    with open_store(":memory:") as store:
        cs = start(store)
        run_engine(store, cs)
        p = holder(store)
        env = passing("g", p, "cmd-00000003")
        assert cs["stack-resolver"].handle_command(env, {}).status == "not_mine"
        forged = CommandEnvelope(game_id="g", command_id="cmd-00000004", actor="P9",
                                 command=PassPriority(player=p).model_dump(mode="json"))
        out = cs["turn-orchestrator"].handle_command(forged, {})
        assert out.status == "rejected" and out.rejection is not None
        assert out.rejection.field == "player"
        bad = CommandEnvelope(game_id="g", command_id="cmd-00000005", actor=p,
                              command={"type": "PassPriority", "player": p, "bogus": 1})
        out = cs["turn-orchestrator"].handle_command(bad, {})
        assert out.status == "rejected" and out.rejection is not None
        assert out.rejection.code == "invalid_command"
        item = WorkItem(game_id="g", marker=1, version=1, kind="check_sba", owner="sba-checker")
        assert cs["turn-orchestrator"].handle_work(item, {}).status == "not_mine"


class RacingStore:
    """A store where, just before the next append, another instance gets there first."""

    def __init__(self, store: EventStore, before_append: Callable[[], object]) -> None:
        self._store = store
        self._before: Callable[[], object] | None = before_append

    def append(self, *args: Any, **kw: Any) -> Any:
        if self._before is not None:
            before, self._before = self._before, None
            before()
        return self._store.append(*args, **kw)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def test_the_same_command_on_two_instances_is_applied_once() -> None:
    """A redelivery during a rebalance: two instances handle one command at once."""
    with open_store(":memory:") as store:
        cs = start(store)
        run_engine(store, cs)
        env = passing("g", holder(store), "cmd-00000006")
        other = ServiceCore("turn-orchestrator", store)
        racing = RacingStore(store, lambda: other.handle_command(env, {}))
        core = ServiceCore("turn-orchestrator", racing)  # type: ignore[arg-type]
        before = store.stream_version("g")
        out = core.handle_command(env, {})
        assert out.status == "duplicate"  # by the projection (a conflict) or the store
        assert store.stream_version("g") == before + 2  # PriorityPassed, PriorityGiven


def test_version_conflict_catches_up_and_decides_again() -> None:
    with open_store(":memory:") as store:
        cs = start(store)
        run_engine(store, cs)
        p = holder(store)
        q = "P1" if p == "P2" else "P2"
        # p passes on another instance first; then q holds priority and may pass
        other = ServiceCore("turn-orchestrator", store)
        racing = RacingStore(store, lambda: other.handle_command(
            passing("g", p, "cmd-00000007"), {}))
        core = ServiceCore("turn-orchestrator", racing)  # type: ignore[arg-type]
        out = core.handle_command(passing("g", p, "cmd-00000008"), {})
        # decided again on the new state: p no longer holds priority
        assert (out.status, out.conflicts) == ("rejected", 1)
        assert out.rejection is not None and out.rejection.rule == "117.1"
        assert core.handle_command(passing("g", q, "cmd-00000009"), {}).status == "applied"
        stale = core.handle_command(passing("g", q, "cmd-00000010", expected_version=3), {})
        assert stale.status == "rejected" and stale.rejection is not None
        assert stale.rejection.code == "stale_version"
