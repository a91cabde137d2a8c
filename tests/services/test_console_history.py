"""The console's states at any event (`arbiter_gateway.console.history`): from
checkpoints, the store's snapshots or the last state asked for, always the state a
replay from event 1 makes; and the rule filter's matching."""

from __future__ import annotations

import random

import pytest

from arbiter_core.kernel.evolve import apply, empty_state
from arbiter_core.kernel.hashing import state_hash
from arbiter_gateway.console import history
from arbiter_gateway.console.history import History, rule_matches
from arbiter_runtime.codec import from_stored
from arbiter_runtime.play import play_bot_game
from arbiter_store import open_store


@pytest.mark.parametrize(("rule", "wanted", "ok"), [
    ("704.5g", "704.5g", True), ("704.5g", "704", True), ("704.5g", "704.5", True),
    ("702.10a", "702.1", False), ("702.1a", "702.1", True), ("702.1", "702.1", True),
    ("117.3d", "117.3d", True), ("117.3", "117.3d", False), ("704.5g", "", False),
])
def test_rule_filter_matches_the_rule_and_its_subrules(rule: str, wanted: str,
                                                       ok: bool) -> None:
    assert rule_matches(rule, wanted) is ok


def test_states_at_any_event_are_the_replayed_states(monkeypatch: pytest.MonkeyPatch
                                                     ) -> None:
    monkeypatch.setattr(history, "CHECKPOINT_EVERY", 97)
    monkeypatch.setattr(history, "READ_PAGE", 250)
    with open_store(":memory:") as store:
        # snapshots every 200 events, as `arbiter play` writes them for large games
        monkeypatch.setattr("arbiter_runtime.play.snapshot_every", lambda players: 200)
        played = play_bot_game(store, "g", 3, 5, "free_for_all")
        assert len(store.snapshots("g")) >= 2
        stored = store.read_stream("g")
        truth, state = {0: state_hash(empty_state())}, empty_state()
        for e in stored:
            apply(state, from_stored(e))
            truth[state.version] = state_hash(state)
        h = History(store, "g")
        rng = random.Random(3)
        asked = [played.events, played.events - 1, 0, 1, 96, 97, 98, 450, 449, 451, 1000]
        asked += [rng.randrange(played.events + 1) for _ in range(25)]
        for n in asked:
            n = min(n, played.events)
            assert state_hash(h.state_at(n)) == truth[n], n
        # a state handed out is the caller's: changing it changes nothing kept
        s = h.state_at(300)
        apply(s, from_stored(stored[300]))
        assert state_hash(h.state_at(300)) == truth[300]
        with pytest.raises(LookupError):
            h.state_at(played.events + 1)
        # the index pass leaves the same checkpoints and names every object
        while h.index_step():
            pass
        assert len(h.index.entries) == played.events
        assert all(state_hash(s) == truth[v] for v, s in h.checkpoints.items())
        assert h.ids_named("Forest")


def test_the_index_makes_each_events_line_as_a_replay_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A filtered page's lines come from the index (no replay per line): each is the line
    `reads._lines` makes from the state before its event, objects made by the event named
    - also across a judge's correction, which makes object ids anew."""
    from arbiter_core.kernel.shell_loop import owed_marker
    from arbiter_gateway.console.reads import _lines
    from arbiter_runtime.bots import RandomBot
    from arbiter_runtime.fold import StoreStates, correct
    from arbiter_runtime.play import waiting_players
    from arbiter_runtime.session import GameSession

    monkeypatch.setattr(history, "READ_PAGE", 250)
    with open_store(":memory:") as store:
        play_bot_game(store, "g", 2, 4, "two_player")
        states = StoreStates(store, "g")
        at = next(v for v in range(300, 1, -1) if owed_marker(states(v)) is None)
        correct(store, "g", at, "judge-1", "backup", "key")
        corrected = store.stream_version("g")
        session = GameSession.load(store, "g")  # plays on: new objects reuse the ids
        bots = {p: RandomBot(i) for i, p in enumerate(session.state.seats)}
        while store.stream_version("g") < corrected + 300 and not session.state.game_over:
            session.run_engine()
            for player in waiting_players(session.state):
                action = bots[player].choose(session.state, player)
                if action is not None and action.type != "Concede":
                    session.execute(action)
                    break
        session_moves = store.stream_version("g")
        indexed = History(store, "g")
        while indexed.index_step():
            pass
        assert len(indexed.index.entries) == session_moves
        versions = list(range(1, session_moves + 1))
        replayed = _lines(History(store, "g"), versions)
        lines = {e.version: e.line for e in indexed.index.entries}
        assert lines == replayed
        assert sum("(#" in line for line in lines.values()) > 100  # objects are named
        assert "judge judge-1 backed the game up" in lines[corrected]
        assert session_moves > corrected + 100
