"""A judge's correction ("back up to event N", issue 16) on SQLite and on PostgreSQL:
appended without editing history, the game plays on from the state at N with the version
continuing and the seeded generator of N (nothing re-rolled), every replayer folds it
the same way, and a tampered correction (an event edited after it, a wrong signature, a
wrong state hash) is found at its first bad event."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from arbiter_core.kernel.decide import decide
from arbiter_core.kernel.divergence import dump, walk
from arbiter_core.kernel.evolve import apply, empty_state
from arbiter_core.kernel.hashing import state_hash
from arbiter_core.kernel.rng import Rng
from arbiter_core.kernel.shell_loop import owed_marker
from arbiter_core.kernel.txn import Txn
from arbiter_core.views.legal import legal_actions
from arbiter_runtime import snapshots
from arbiter_runtime.codec import from_stored, to_new_event
from arbiter_runtime.correction_check import check_corrections
from arbiter_runtime.corrections import signature_of
from arbiter_runtime.fold import (
    CorrectionError,
    GameCorrected,
    LogStates,
    StoreStates,
    correct,
    fold,
    fold_all,
)
from arbiter_runtime.play import play_bot_game, waiting_players
from arbiter_runtime.projection import ProjectionCache
from arbiter_runtime.session import GameSession
from arbiter_store import EventStore, open_store

GAME = "backup-2p"
KEY = "scrypt:16384:8:1:c2FsdHNhbHQ:the-judges-credential"  # any string: an HMAC key
JUDGES = {"judge-1": KEY}


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EventStore]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'games.sqlite'}"
    else:
        schemas: Callable[[], str] = request.getfixturevalue("pg_schemas")
        url = schemas()
    with open_store(url, auto_migrate=True) as s:
        yield s


def death(store: EventStore) -> tuple[int, int]:
    """The first creature that died of lethal damage (704.5g): (the event, its id on the
    battlefield)."""
    for e in store.read_stream(GAME):
        if e.rule == "704.5g" and e.payload.get("to_zone") == "graveyard":
            return e.version, int(e.payload["obj"])
    raise AssertionError("no creature died of lethal damage")


def backup_point(store: EventStore, died_at: int, creature: int) -> int:
    """The last event before the death after which a player was to act, the creature
    still on the battlefield."""
    states = StoreStates(store, GAME)
    n = died_at - 1
    while owed_marker(state := states(n)) is not None or creature not in state.battlefield:
        n -= 1
    return n


def test_the_game_plays_on_from_the_state_at_n(store: EventStore) -> None:
    played = play_bot_game(store, GAME, 2, 4, "two_player")
    head = store.stream_version(GAME)
    assert head == played.events
    died_at, creature = death(store)
    n = backup_point(store, died_at, creature)
    at_n = StoreStates(store, GAME)(n)
    before = [(e.version, e.type, e.payload) for e in store.read_stream(GAME)]

    made = correct(store, GAME, n, "judge-1", "a wrong block was allowed", KEY)
    assert (made.version, made.type) == (head + 1, "GameCorrected")
    assert made.payload["at"] == n and made.payload["judge"] == "judge-1"
    assert made.payload["at_hash"] == store.event_hash(GAME, n)
    # history is kept: every earlier event is as it was
    assert [(e.version, e.type, e.payload) for e in store.read_stream(GAME, 1, head)] == before

    # every replayer folds it alike: the session, a projection, an in-memory log
    session = GameSession.load(store, GAME)
    projection = ProjectionCache(store).get(GAME)
    log = [from_stored(e) for e in store.read_stream(GAME)]
    from_log = fold_all(log, LogStates(log))
    for state in (session.state, projection.state, from_log):
        assert state.version == head + 1
        assert creature in state.battlefield  # died after N: back on the battlefield
        assert state.objects[creature] == at_n.objects[creature]
        assert state.zones == at_n.zones and state.players == at_n.players
    assert state_hash(session.state) == state_hash(projection.state) == state_hash(from_log)
    with pytest.raises(CorrectionError):  # the core alone cannot apply it
        apply(empty_state(), log[-1])

    # nothing is re-rolled: the generator is the one of the state at N (and it is kept
    # by a snapshot of the state after the correction)
    assert session.state.rng_shift == head + 1 - n
    blob = snapshots.encode(session.state)
    assert snapshots.decode(blob, state_hash(session.state)).rng_shift == head + 1 - n
    draws = [Txn(s).rng.below(2**60) for s in (session.state, at_n)]
    assert draws[0] == draws[1] != Rng(at_n.seed, head + 1).below(2**60)
    player = waiting_players(session.state)[0]
    action = legal_actions(session.state, player)[0]
    assert [dump(e) for e in decide(session.state, action)] == [
        dump(e) for e in decide(at_n, action)]

    # the next commands are decided against the state at N, and the version continues
    made_now = session.execute(action)
    assert made_now and session.state.version == head + 1 + len(made_now)
    session.run_engine()
    assert store.stream_version(GAME) == session.state.version
    reloaded = GameSession.load(store, GAME, use_snapshot=False)
    assert state_hash(reloaded.state) == state_hash(session.state)

    # the check: signature, hash at N, state at N; `replay --check`'s walk passes
    found, problem = check_corrections(store, GAME, JUDGES)
    assert problem is None
    assert [(c.version, c.at, c.judge, c.signed) for c in found] == [
        (head + 1, n, "judge-1", True)]
    assert found[0].describe().startswith(f"corrected at {n} by judge-1")
    stored = store.read_stream(GAME)
    log = [from_stored(e) for e in stored]
    states = LogStates(log)
    engine = [e.metadata.get("command") == "RunEngineWork" for e in stored]
    assert walk(log, engine, fold=lambda s, e: fold(s, e, states))[1] is None
    assert store.verify(GAME).ok


def test_corrections_that_cannot_be_made_are_refused(store: EventStore) -> None:
    play_bot_game(store, GAME, 2, 4, "two_player")
    head = store.stream_version(GAME)
    for at in (0, head, head + 5):
        with pytest.raises(CorrectionError):
            correct(store, GAME, at, "judge-1", "why", KEY)
    states = StoreStates(store, GAME)
    busy = next(v for v in range(head - 1, 0, -1) if owed_marker(states(v)) is not None)
    with pytest.raises(CorrectionError, match="engine's work"):
        correct(store, GAME, busy, "judge-1", "why", KEY)
    with pytest.raises(CorrectionError, match="reason"):
        correct(store, GAME, 40, "judge-1", "   ", KEY)
    assert store.stream_version(GAME) == head  # nothing appended


def forged(store: EventStore, resign: bool, **changes: str) -> None:
    """A genuine correction, then one with a changed field appended after it, the chain
    intact (a writer who can append); `resign`: signed again with the judge's key (one
    who also holds the credential: the state hash and the hash at N still tell)."""
    head = store.stream_version(GAME)
    states = StoreStates(store, GAME)
    at = next(v for v in range(60, head) if owed_marker(states(v)) is None)
    made = correct(store, GAME, at, "judge-1", "backup", KEY)
    data = {**made.payload, "type": made.type, "rule": made.rule, **changes}
    if resign:
        data["signature"] = signature_of(KEY, GAME, head + 2, data["at"], data["at_hash"],
                                         data["state_hash"], data["judge"], data["reason"])
    event = GameCorrected.model_validate(data)
    store.append(GAME, head + 1, [to_new_event(event, {"command": "CorrectGame"})])


@pytest.mark.parametrize(("resign", "changes", "why"), [
    (False, {"signature": "0" * 64}, "signature"),
    (False, {"judge": "judge-2"}, "signature"),
    (True, {"state_hash": "f" * 64}, "state hash"),
    (True, {"at_hash": "0" * 64}, "hash the chain does not have")])
def test_a_forged_correction_is_broken_at_its_event(
        store: EventStore, resign: bool, changes: dict[str, str], why: str) -> None:
    play_bot_game(store, GAME, 2, 3, "two_player")
    head = store.stream_version(GAME)
    forged(store, resign, **changes)
    found, problem = check_corrections(store, GAME, {**JUDGES, "judge-2": "another key"})
    assert problem is not None and problem.version == head + 2, problem
    assert why in problem.reason
    assert [c.signed for c in found] == [True, resign]
    assert store.verify(GAME).ok  # the chain itself holds: only the correction is bad
