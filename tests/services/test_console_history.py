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
