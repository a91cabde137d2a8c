"""A Commander game's own record (`GameState.commander`, `composed`) survives a snapshot
(issue 15), and a game of another variant's snapshot has neither key (so snapshots of
games before the fields decode, and hash, as they did)."""

from __future__ import annotations

import zlib

import msgspec

from arbiter_core.kernel.evolve import apply, empty_state
from arbiter_core.kernel.hashing import state_hash
from arbiter_runtime import snapshots
from arbiter_runtime.codec import from_stored
from arbiter_runtime.play import play_bot_game
from arbiter_store import open_store


def _final_state(variant: str, players: int, seed: int):  # type: ignore[no-untyped-def]
    with open_store(":memory:") as store:
        play_bot_game(store, "g", players, seed, variant)
        stored = store.read_stream("g")
    s = empty_state()
    for e in stored:
        apply(s, from_stored(e))
    return s


def test_a_commander_state_round_trips() -> None:
    s = _final_state("commander", 2, 11)
    assert s.commander is not None and s.commander.damage
    for commands in (None, {"c/P1/1": 1}):
        back = snapshots.decode(snapshots.encode(s, commands), state_hash(s))
        assert back.commander == s.commander and back.composed == s.composed


def test_other_games_have_no_commander_keys() -> None:
    s = _final_state("two_player", 2, 3)
    data = msgspec.json.decode(zlib.decompress(snapshots.encode(s)))
    assert "commander" not in data and "composed" not in data
    assert snapshots.decode(snapshots.encode(s), state_hash(s)).commander is None
