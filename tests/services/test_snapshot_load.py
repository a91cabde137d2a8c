"""Services load a game from its latest snapshot plus the tail, and save the snapshots
(issue 4: "Each service loads state from the store (snapshot + tail), decides, and
appends with an expected version"); idempotency survives a load from a snapshot."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from structlog.testing import capture_logs

from arbiter_core.kernel.commands import PassPriority
from arbiter_core.kernel.hashing import state_hash
from arbiter_core.kernel.state import GameState, Priority
from arbiter_runtime import snapshots
from arbiter_runtime.botgame import engine_idle, start_command
from arbiter_runtime.command_ids import command_key
from arbiter_runtime.projection import GameProjection, ProjectionCache
from arbiter_runtime.session import GameSession
from arbiter_services.core import ServiceCore
from arbiter_services.messages import CommandEnvelope
from arbiter_services.topics import COMMAND_CONSUMERS, SERVICES
from arbiter_store import EventStore, NewEvent, Snapshot, StoredEvent, open_store

from .harness import drive, play

GAME = "snap"


def cores(store: EventStore, every: int | None = None) -> dict[str, ServiceCore]:
    return {name: ServiceCore(name, store, snapshot_every=every) for name in SERVICES}


def replayed(store: EventStore, to: int | None = None) -> GameProjection:
    """The projection from event 1 (what every load did before snapshots)."""
    p = GameProjection(GAME)
    p.apply_all(store.read_stream(GAME, 1, to))
    return p


@dataclass
class Played:
    url: str
    saves: list[tuple[int, int | None]]  # (version, keep) of every snapshot saved


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """A whole 2-player game through the services, default snapshot policy; records the
    (version, keep) of every save, as the store keeps only the newest few."""
    url = str(tmp_path_factory.mktemp("snap") / "game.sqlite")
    saves: list[tuple[int, int | None]] = []
    with open_store(url) as store:
        save = store.save_snapshot

        def recording(stream_id: str, version: int, state: bytes, state_hash: str,
                      keep: int | None = None) -> Snapshot:
            saves.append((version, keep))
            return save(stream_id, version, state, state_hash, keep)

        setattr(store, "save_snapshot", recording)  # noqa: B010 (assigning is mypy's method-assign)
        cs = cores(store)
        play(store, cs, start_command(GAME, 2, 3))
        assert sum(c.snapshotter.saved for c in cs.values()) == len(saves) >= 3
    return Played(url, saves)


def test_services_save_one_snapshot_per_multiple_and_keep_the_newest(played: Played
                                                                     ) -> None:
    every = snapshots.snapshot_every(2)
    with open_store(played.url) as store:
        end = store.stream_version(GAME)
        assert end >= 3 * every  # so that retention deletes some
        multiples = range(1, end // every + 1)
        # the append that crossed k * every saved the state it produced, once per k,
        # each save keeping the SNAPSHOTS_KEPT newest
        versions = sorted(v for v, _ in played.saves)
        assert [v // every for v in versions] == list(multiples)
        assert {keep for _, keep in played.saves} == {snapshots.SNAPSHOTS_KEPT}
        kept = versions[-snapshots.SNAPSHOTS_KEPT:]
        for k, version in zip(multiples, versions, strict=True):
            snap = store.load_snapshot(GAME, k * every + every - 1)
            # the older ones deleted, so a version below the kept ones has none
            assert (snap.version if snap else None) == (version if version in kept else None)
        for version in kept:
            snap = store.load_snapshot(GAME, version)
            assert snap is not None and snap.version == version
            state, commands = snapshots.decode_with_commands(snap.state, snap.state_hash)
            assert commands is not None  # the services' format: with the command ids
            full = replayed(store, snap.version)
            assert state_hash(state) == state_hash(full.state)
            assert commands == full.commands
        # the embedded loader reads the services' format too
        assert (state_hash(GameSession.load(store, GAME).state)
                == state_hash(replayed(store).state))


def test_a_cold_load_reads_only_the_tail_after_the_snapshot(played: Played) -> None:
    with open_store(played.url) as store:
        full = replayed(store)
        snap = store.load_snapshot(GAME)
        assert snap is not None and 0 < snap.version < full.version
        cold = GameProjection(GAME)
        tail = cold.catch_up(store)
        assert cold.snapshot_version == snap.version
        assert len(tail) == full.version - snap.version  # not full.version events
        assert [e.version for e in tail] == list(range(snap.version + 1, full.version + 1))
        assert state_hash(cold.state) == state_hash(full.state)
        assert cold.commands == full.commands
        # to an earlier version: the latest snapshot at or below it (the older one kept)
        mid = snap.version - 1
        below = store.load_snapshot(GAME, mid)
        assert below is not None and below.version < snap.version
        earlier = ProjectionCache(store).get(GAME, mid)
        assert (earlier.snapshot_version, earlier.version) == (below.version, mid)
        assert state_hash(earlier.state) == state_hash(replayed(store, mid).state)
        assert earlier.commands == replayed(store, mid).commands


def test_a_corrupt_or_idless_snapshot_falls_back_to_the_full_replay(tmp_path: Path,
                                                                     played: Played) -> None:
    url = str(tmp_path / "copy.sqlite")
    with open_store(played.url) as src, open_store(url) as store:
        store.append(GAME, 0, [_new(e) for e in src.read_stream(GAME)])
        full = replayed(store)
        mid = replayed(store, full.version - 10)
        good = snapshots.encode(mid.state, mid.commands)
        for blob, digest, warned in (
                (b"not zlib", state_hash(mid.state), True),
                (good[:-5], state_hash(mid.state), True),  # truncated
                (good, "0" * 64, True),  # does not rebuild its state
                (snapshots.encode(mid.state), state_hash(mid.state), False)):  # no ids
            store.save_snapshot(GAME, mid.version, blob, digest)
            cold = GameProjection(GAME)
            with capture_logs() as logs:
                tail = cold.catch_up(store)
            assert cold.snapshot_version == 0
            assert len(tail) == full.version
            assert state_hash(cold.state) == state_hash(full.state)
            assert cold.commands == full.commands
            assert [x["event"] for x in logs] == (["snapshot_invalid"] if warned else [])
        store.save_snapshot(GAME, mid.version, good, state_hash(mid.state))
        assert len(GameProjection(GAME).catch_up(store)) == 10  # the good one is used


def _new(e: StoredEvent) -> NewEvent:
    return NewEvent(e.type, e.schema_version, e.payload, e.rule, e.metadata)


def _waits_for_priority(state: GameState) -> bool:
    return engine_idle(state) and isinstance(state.markers[1].pending, Priority)


def _priority_holder(state: GameState) -> str:
    p = state.markers[1].pending
    assert isinstance(p, Priority)
    return p.player


def test_a_command_redelivered_after_a_restart_past_a_snapshot_is_a_duplicate() -> None:
    with open_store(":memory:") as store:
        cs = cores(store, every=40)
        start = start_command(GAME, 2, 3, deck_size=12)
        sent = play(store, cs, start, until=lambda s: s.version > 400)
        snap = store.load_snapshot(GAME)
        assert snap is not None
        applied = {e.metadata["command_id"]: e.version for e in store.read_stream(GAME)
                   if "command_id" in e.metadata}
        old = [env for env in sent if applied.get(env.command_id, 10**9) < snap.version]
        assert len(old) >= 3
        version = store.stream_version(GAME)
        for env in (old[0], old[len(old) // 2], old[-1]):
            restarted = ServiceCore(COMMAND_CONSUMERS[env.command["type"]], store)
            out = restarted.handle_command(env, {})
            assert restarted.cache.get(GAME).snapshot_version == snap.version
            assert (out.status, out.conflicts) == ("duplicate", 0)  # by the projection
        assert store.stream_version(GAME) == version  # no new events
        assert store.read_stream(f"audit:{GAME}") == []  # and no rejection


def test_the_store_answering_with_an_earlier_append_makes_a_duplicate() -> None:
    """A projection that does not know a command id the store holds (as if loaded from a
    snapshot without ids): the store's answer to the repeated first id is learnt, the
    command is a duplicate, not a conflict until MAX_TRIES."""
    with open_store(":memory:") as store:
        cs = cores(store, every=0)
        start = start_command(GAME, 2, 3, deck_size=12)
        play(store, cs, start, until=lambda s: s.version > 100 and _waits_for_priority(s))
        holder = _priority_holder(replayed(store).state)
        env = CommandEnvelope(game_id=GAME, command_id="cmd-first-0001", actor=holder,
                              command=PassPriority(player=holder).model_dump(mode="json"))
        assert cs["turn-orchestrator"].handle_command(env, {}).status == "applied"
        # ids are scoped per actor: the same seat's pass, legal again
        drive(store, cs, start, until=lambda s: _waits_for_priority(s)
              and _priority_holder(s) == holder)
        version = store.stream_version(GAME)
        # a new instance whose projection lost the id, while the pass is legal again
        again = ServiceCore("turn-orchestrator", store)
        proj = again.cache.get(GAME)
        key = command_key(holder, "cmd-first-0001")
        del proj.commands[key]
        assert _priority_holder(proj.state) == holder
        out = again.handle_command(env, {})
        assert (out.status, out.conflicts) == ("duplicate", 1)
        assert store.stream_version(GAME) == version
        assert proj.commands[key] <= version
