"""A seat's view shows nothing of hidden zones it may not see (CR 400.2); a judge's
view shows everything."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.evolve import apply, empty_state
from arbiter_core.kernel.refs import object_ref, player_ref
from arbiter_core.kernel.state import Decision, GameState, StackItem
from arbiter_core.views.seat import SeatView, judge_view, view
from arbiter_runtime.codec import from_stored
from arbiter_runtime.play import play_bot_game
from arbiter_store import open_store

# Keys whose values are object (or stack item) ids in a dumped view.
ID_KEYS = frozenset({"id", "obj", "source", "attached_to"})


@pytest.fixture(scope="module")
def events() -> list[ev.Event]:
    with open_store(":memory:") as store:
        play_bot_game(store, "view-game", players=3, seed=2)
        return [from_stored(e) for e in store.read_stream("view-game")]


@pytest.fixture(scope="module")
def discard_events() -> list[ev.Event]:
    with open_store(":memory:") as store:
        play_bot_game(store, "view-game", players=3, seed=1)  # a game with a discard decision
        return [from_stored(e) for e in store.read_stream("view-game")]


def _ids_in(data: Any) -> set[int]:
    """Every object id the dumped view mentions: id-named fields, attackers, blockers."""
    found: set[int] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            if key in ID_KEYS and isinstance(value, int):
                found.add(value)
            elif key in ("attacks", "blocks"):
                for pair in value:
                    found.update(x for x in pair if isinstance(x, int))
            else:
                found |= _ids_in(value)
    elif isinstance(data, list):
        for value in data:
            found |= _ids_in(value)
    return found


def _view_ids(state: GameState, seat: str | None) -> set[int]:
    return _dumped_ids(judge_view(state) if seat is None else view(state, seat))


def _dumped_ids(v: SeatView) -> set[int]:
    return _ids_in(json.loads(v.model_dump_json()))


def _hidden_from(state: GameState, seat: str) -> set[int]:
    """Ids `seat` may not see: other players' hands and every library (its own too)."""
    return {
        o.id for o in state.objects.values()
        if o.zone == "library" or (o.zone == "hand" and o.owner != seat)
    }


def _public(state: GameState, seat: str) -> set[int]:
    """Ids `seat` may see: public zones, its own hand, stack items, ids of objects that
    no longer exist (last known information)."""
    hidden = _hidden_from(state, seat)
    return {i for i in state.objects if i not in hidden} | set(state.stack_items)


def _replayed(events: list[ev.Event]) -> Iterator[GameState]:
    state = empty_state()
    for i, e in enumerate(events):
        apply(state, e)
        decision = any(isinstance(m.pending, Decision) for m in state.markers.values())
        if state.started and (decision or i % 6 == 0 or i == len(events) - 1):
            yield state


def _check_seat(state: GameState, seat: str) -> None:
    v = view(state, seat)
    ids = _dumped_ids(v)
    leaked = ids & _hidden_from(state, seat)
    assert not leaked, f"{seat} sees hidden objects {sorted(leaked)} at {state.version}"
    stale = ids - set(state.objects) - set(state.stack_items)
    assert ids - stale <= _public(state, seat)
    own_hand = state.zones.get((seat, "hand"), [])
    assert [c.id for c in v.hand] == own_hand
    assert set(state.battlefield) <= ids
    for p in v.players:
        assert p.library is None
        assert p.hand_size == len(state.zones.get((p.name, "hand"), []))
        assert p.library_size == len(state.zones.get((p.name, "library"), []))
        assert (p.hand is not None) == (p.name == seat)
    assert v.seed is None


def test_seat_views_never_show_hidden_cards(events: list[ev.Event]) -> None:
    checked = 0
    saw_hidden = False
    for state in _replayed(events):
        judge_ids = _view_ids(state, None)
        for seat in state.seats:
            _check_seat(state, seat)
            # the detector itself works: the judge's view does contain those ids
            hidden = _hidden_from(state, seat)
            assert hidden <= judge_ids
            saw_hidden = saw_hidden or bool(hidden)
        checked += 1
    assert checked > 400
    assert saw_hidden


def test_discard_decision_options_hidden_from_others(discard_events: list[ev.Event]) -> None:
    found = 0
    for state in _replayed(discard_events):
        for m in state.markers.values():
            d = m.pending
            if not (isinstance(d, Decision) and d.kind == "discard"):
                continue
            found += 1
            mine = view(state, d.player).markers[0].pending
            assert {c.id for c in mine.options} == {o for o in d.options
                                                    if o in state.objects}
            for seat in state.seats:
                if seat != d.player:
                    theirs = view(state, seat).markers[0].pending
                    assert theirs.options == ()
                    assert theirs.hidden_options == len(d.options)
                    assert theirs.player == d.player and theirs.decision == "discard"
    assert found >= 1


def _mid_game(events: list[ev.Event], at: int = 1500) -> GameState:
    state = empty_state()
    for e in events[:at]:
        apply(state, e)
    return state


def test_a_leak_would_be_caught(events: list[ev.Event]) -> None:
    """Force hidden ids into a decision and a stack target: the view hides both."""
    state = _mid_game(events)
    seat, other = state.seats[0], state.seats[1]
    their_hand = state.zones[(other, "hand")]
    their_library = state.zones[(other, "library")]
    assert their_hand and their_library
    m = state.markers[1]
    state.markers[1] = replace(m, pending=Decision("discard", other, tuple(their_hand), 1))
    item = StackItem(id=state.next_id, kind="triggered", controller=other, marker=1,
                     source=their_library[0], source_name="x",
                     targets=((object_ref(their_hand[0]), player_ref(seat)),))
    state.stack_items[item.id] = item
    state.markers[1] = replace(state.markers[1], stack=(*m.stack, item.id))
    assert not _view_ids(state, seat) & _hidden_from(state, seat)
    top = view(state, seat).markers[0].stack[0]
    assert top.source is None
    assert top.targets[0][0].hidden and top.targets[0][0].id is None
    assert top.targets[0][1].player == seat
    # the decider sees its own options; the judge sees everything
    assert set(their_hand) <= _view_ids(state, other)
    assert set(their_hand) | {their_library[0]} <= _view_ids(state, None)


def test_judge_view_shows_hands_and_libraries(events: list[ev.Event]) -> None:
    state = _mid_game(events)
    j = judge_view(state)
    assert j.seat is None and j.seed == state.seed and j.hand == ()
    for p in j.players:
        assert p.hand is not None and p.library is not None
        assert [c.id for c in p.hand] == state.zones.get((p.name, "hand"), [])
        assert [c.id for c in p.library] == state.zones.get((p.name, "library"), [])
        assert [c.name for c in p.hand] == [
            state.objects[i].name for i in state.zones.get((p.name, "hand"), [])]
    assert any(p.hand for p in j.players)


def test_view_of_unknown_seat_is_refused(events: list[ev.Event]) -> None:
    with pytest.raises(ValueError):
        view(_mid_game(events, 50), "nobody")
