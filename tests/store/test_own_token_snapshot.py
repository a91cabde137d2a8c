"""A token that is a copy until end of turn keeps its own token values aside
(`Obj.own_token`, Cytoshape): they survive a snapshot as a `TokenSpec`, and a state
without such a token hashes as it did before the field existed."""

from __future__ import annotations

from dataclasses import replace

from arbiter_core.cards.model import TokenSpec
from arbiter_core.kernel.evolve import apply, empty_state
from arbiter_core.kernel.hashing import state_hash
from arbiter_runtime import snapshots
from arbiter_runtime.codec import from_stored
from arbiter_runtime.play import play_bot_game
from arbiter_store import open_store

GOBLIN = TokenSpec(name="Goblin Token", colors=("R",), types=("Creature",),
                   subtypes=("Goblin",), power=1, toughness=1)


def test_own_token_round_trips() -> None:
    with open_store(":memory:") as store:
        play_bot_game(store, "g", 2, 3, "two_player")
        stored = store.read_stream("g")
    s = empty_state()
    for e in stored:
        apply(s, from_stored(e))
    before = state_hash(s)
    oid = next(iter(s.objects))
    s.objects[oid] = replace(s.objects[oid], printed="Goblin Token", own_token=GOBLIN)
    assert state_hash(s) != before  # the field is hashed once set
    back = snapshots.decode(snapshots.encode(s), state_hash(s))
    assert back.objects[oid].own_token == GOBLIN
    assert isinstance(back.objects[oid].own_token, TokenSpec)
    s.objects[oid] = replace(s.objects[oid], printed=None, own_token=None)
    assert state_hash(s) == before
