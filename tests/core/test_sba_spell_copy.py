"""CR 704.5e: a copy of a spell in a zone other than the stack ceases to exist. No card
of the pool moves a copy off the stack except by resolving or countering it (which end
it at once, 707.10a), so the state is constructed here: a copy in a hand, a library."""

from __future__ import annotations

from dataclasses import replace

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import PlayerSetup, StartGame
from arbiter_core.kernel.decide import decide
from arbiter_core.kernel.evolve import apply, empty_state
from arbiter_core.kernel.state import GameState
from arbiter_core.sba.conditions import found, needs_check
from arbiter_runtime.decks import deck_for_seat


def started() -> GameState:
    s = empty_state()
    for e in decide(s, StartGame(game_id="sba-copy", variant="two_player", seed=3,
                                 players=[PlayerSetup(name=n, deck=deck_for_seat(i))
                                          for i, n in enumerate(("P1", "P2"))])):
        apply(s, e)
    return s


def _ceasing(s: GameState) -> list[tuple[str, int, str]]:
    return [a for a in found(s)[1] if a[0] == "cease"]


def test_a_copy_of_a_spell_in_a_hand_or_library_ceases_to_exist() -> None:
    s = started()
    assert _ceasing(s) == [] and not needs_check(s)
    in_hand = s.zone("P1", "hand")[0]
    s.objects[in_hand] = replace(s.objects[in_hand], spell_copy=True)
    library = s.zone_for_update("P2", "library")  # a new list: the library changed
    in_library = library[0]
    s.objects[in_library] = replace(s.objects[in_library], spell_copy=True)
    assert sorted(_ceasing(s)) == sorted([("cease", in_hand, "704.5e"),
                                          ("cease", in_library, "704.5e")])
    apply(s, ev.ObjectCeasedToExist(obj=in_hand, rule="704.5e"))
    assert in_hand not in s.objects and in_hand not in s.zone("P1", "hand")


def test_an_ordinary_card_in_a_hand_does_not_cease_to_exist() -> None:
    s = started()
    card = s.zone("P1", "hand")[0]
    assert not s.objects[card].spell_copy and s.objects[card].token is None
    assert all(a[1] != card for a in found(s)[1])
