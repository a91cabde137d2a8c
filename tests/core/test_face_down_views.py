"""Who may look at a face-down spell or permanent (CR 708.5): its controller and judges;
every other seat and a spectator see a 2/2 face-down creature named "face-down card",
with its id (to tell face-down objects apart, 708.6) and nothing that leads to its card -
on the battlefield, on the stack, as a target, and in a rejection's reason. At the end
of the game everything is revealed (708.9)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.harness import Game, cards

from arbiter_core.kernel.commands import (
    CastFaceDown,
    CastSpell,
    PassPriority,
    PositionPlayer,
    TurnFaceUp,
)
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.state import GameState
from arbiter_core.views import seat as seat_views
from arbiter_core.views.seat import (
    FACE_DOWN_NAME,
    face_name,
    judge_view,
    spectator_view,
    view,
)
from arbiter_runtime.audit import CommandRejected
from arbiter_runtime.screening import NOT_A_LEGAL_CHOICE, render_rejection, screened_decide

CRAGHORN = "Battering Craghorn"


def game() -> Game:
    return Game([PositionPlayer(name="Alice", zones={
                     "battlefield": cards(*["Mountain"] * 6),
                     "hand": cards(CRAGHORN, "Shock"),
                     "graveyard": cards(CRAGHORN),  # the same name, face up
                     "library": cards(*["Plains"] * 5)}),
                 PositionPlayer(name="Bob", zones={"battlefield": cards("Mountain"),
                                                    "hand": cards("Shock"),
                                                    "library": cards(*["Forest"] * 5)})],
                active="Alice")


def in_hand(g: Game, player: str, name: str) -> int:
    return next(i for i in g.s.zone(player, "hand") if g.s.objects[i].name == name)


def face_down_ids(s: GameState) -> set[int]:
    return {o.id for o in s.objects.values() if o.face_down}


def named_entries(data: Any, ids: set[int]) -> list[tuple[int, str]]:
    """(id, name) of every entry of a dumped view that names one of `ids`."""
    out: list[tuple[int, str]] = []
    if isinstance(data, dict):
        oid = data.get("obj", data.get("id"))
        if oid in ids and "name" in data:
            out.append((oid, data["name"]))
        for v in data.values():
            out += named_entries(v, ids)
    elif isinstance(data, list):
        for v in data:
            out += named_entries(v, ids)
    return out


def leaks(s: GameState, reader: str | None) -> list[str]:
    """A face-down object not controlled by `reader` shown by any name but
    FACE_DOWN_NAME (the check of tests/services/test_hidden_info.py, in small)."""
    v = judge_view(s) if reader is None else (
        spectator_view(s) if reader == "*" else view(s, reader))
    data = json.loads(v.model_dump_json())
    hidden = {oid for oid in face_down_ids(s) if s.objects[oid].controller != reader}
    return [f"{reader} sees {oid} as {name}" for oid, name in named_entries(data, hidden)
            if name != FACE_DOWN_NAME]


@pytest.fixture
def on_stack() -> Game:
    g = game()
    g.do(CastFaceDown(player="Alice", card=in_hand(g, "Alice", CRAGHORN)))
    return g


def test_a_face_down_spell_shows_only_to_its_controller(on_stack: Game) -> None:
    s = on_stack.s
    (oid,) = face_down_ids(s)

    def stack_names(v: seat_views.SeatView) -> list[str]:
        return [it.name for m in v.markers for it in m.stack if it.obj == oid]

    assert stack_names(view(s, "Alice")) == [CRAGHORN]
    assert stack_names(judge_view(s)) == [CRAGHORN]
    assert stack_names(view(s, "Bob")) == [FACE_DOWN_NAME]
    assert stack_names(spectator_view(s)) == [FACE_DOWN_NAME]
    assert not leaks(s, "Bob") and not leaks(s, "*")
    # the card's name is on the table (the graveyard's Craghorn), but not on this spell
    text = view(s, "Bob").model_dump_json()
    assert text.count(CRAGHORN) == 1


def test_a_face_down_permanent_and_a_target_show_only_to_the_controller(
        on_stack: Game) -> None:
    g = on_stack
    g.do(PassPriority(player="Alice"))
    g.do(PassPriority(player="Bob"))
    (oid,) = face_down_ids(g.s)
    assert oid in g.s.battlefield
    g.do(PassPriority(player="Alice"))  # Bob, holding priority, targets it with Shock
    g.do(CastSpell(player="Bob", card=in_hand(g, "Bob", "Shock"), targets=[[f"o:{oid}"]]))
    bob = view(g.s, "Bob")
    (perm,) = [p for p in bob.battlefield if p.id == oid]
    assert (perm.name, perm.power, perm.toughness) == (FACE_DOWN_NAME, 2, 2)
    targets = [t for m in bob.markers for it in m.stack for spec in it.targets for t in spec]
    assert [(t.id, t.name) for t in targets] == [(oid, FACE_DOWN_NAME)]
    assert [p.name for p in view(g.s, "Alice").battlefield if p.id == oid] == [CRAGHORN]
    assert not leaks(g.s, "Bob") and not leaks(g.s, "*")


def test_turned_face_up_everyone_sees_it() -> None:
    g = game()
    g.do(CastFaceDown(player="Alice", card=in_hand(g, "Alice", CRAGHORN)))
    g.do(PassPriority(player="Alice"))
    g.do(PassPriority(player="Bob"))
    (oid,) = face_down_ids(g.s)
    g.do(TurnFaceUp(player="Alice", card=oid))
    assert [p.name for p in view(g.s, "Bob").battlefield if p.id == oid] == [CRAGHORN]


def test_everything_is_revealed_at_the_end_of_the_game(on_stack: Game) -> None:
    s = on_stack.s
    (oid,) = face_down_ids(s)
    s.game_over = True  # 708.9
    assert [it.name for m in view(s, "Bob").markers for it in m.stack if it.obj == oid] \
        == [CRAGHORN]


def test_face_name() -> None:
    g = game()
    g.do(CastFaceDown(player="Alice", card=in_hand(g, "Alice", CRAGHORN)))
    o = g.s.objects[next(iter(face_down_ids(g.s)))]
    assert face_name(o, "Bob") == FACE_DOWN_NAME
    assert face_name(o, seat_views.SPECTATOR) == FACE_DOWN_NAME
    assert face_name(o, "Alice") == CRAGHORN and face_name(o, None) == CRAGHORN
    assert face_name(o, "Bob", revealed=True) == CRAGHORN


def test_the_check_fails_when_face_name_ignores_face_down(
        on_stack: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """The leak check can fail: with a `face_name` that shows every name (what it did
    before face-down objects existed), the face-down spell leaks to Bob and the
    spectator."""
    monkeypatch.setattr(seat_views, "face_name",
                        lambda o, seat, revealed=False: o.name)
    assert leaks(on_stack.s, "Bob") and leaks(on_stack.s, "*")
    assert not leaks(on_stack.s, "Alice")


def test_a_rejection_never_names_a_face_down_card_to_others(on_stack: Game) -> None:
    """The reason of a rejected command is rendered through the reader's view: it names
    no face-down card the reader may not look at, even when an object of the same name
    is in plain sight (the graveyard's Craghorn), since the reason would tie the name to
    the face-down object's id."""
    s = on_stack.s
    (oid,) = face_down_ids(s)
    reason = f"{CRAGHORN} can't do that"
    rejection = CommandRejected(command_id="x", seat="Alice", command_type="CastSpell",
                                code="rule_violation", rule="601.2", reason=reason)
    assert render_rejection(s, "Bob", rejection).reason == NOT_A_LEGAL_CHOICE
    assert render_rejection(s, seat_views.SPECTATOR, rejection).reason == \
        NOT_A_LEGAL_CHOICE
    assert render_rejection(s, "Alice", rejection).reason == reason
    assert render_rejection(s, None, rejection).reason == reason
    with pytest.raises(RuleViolation) as e:  # Bob may refer to it: he sees the object
        screened_decide(s, "Bob", TurnFaceUp(player="Bob", card=oid))
    assert CRAGHORN not in str(e.value)
