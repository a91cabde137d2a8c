"""Morph (CR 702.37) and face-down spells and permanents (CR 708) on the pure core:
Battering Craghorn ("First strike / Morph {1}{R}{R}") cast face down for {3} is a 2/2
creature spell with no name, no text, no subtypes, no mana cost and no colour (702.37c,
708.2a, 708.4), resolves into a face-down permanent (702.37c) without first strike,
is turned face up by a special action paying its morph cost (702.37e, 116.2b) as the same
object (708.8), and is revealed when it leaves the battlefield (708.9). Who may look at
it is `tests/core/test_face_down_views.py`.
"""

from __future__ import annotations

import pytest
from tests.harness import Game, cards, run_text

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import (
    CastFaceDown,
    CastSpell,
    ChooseObjects,
    PassPriority,
    PositionPlayer,
    TurnFaceUp,
)
from arbiter_core.kernel.decide import decide
from arbiter_core.kernel.errors import InvalidCommand, RuleViolation
from arbiter_core.kernel.hashing import state_hash
from arbiter_core.layers.characteristics import (
    colors,
    definition,
    is_creature,
    keywords,
    power_toughness,
)
from arbiter_core.views.legal import legal_actions
from arbiter_core.views.seat import view
from arbiter_scenarios.runner import ScenarioFailed

LANDS = ("Mountain", "Mountain", "Mountain", "Mountain")


def game(hand: tuple[str, ...] = ("Battering Craghorn",), lands: tuple[str, ...] = LANDS,
         bob_battlefield: tuple[str, ...] = ()) -> Game:
    return Game([PositionPlayer(name="Alice", zones={"battlefield": cards(*lands),
                                                      "hand": cards(*hand),
                                                      "library": cards(*["Plains"] * 5)}),
                 PositionPlayer(name="Bob", zones={"battlefield": cards(*bob_battlefield),
                                                    "library": cards(*["Forest"] * 5)})],
                active="Alice")


def in_hand(g: Game, name: str = "Battering Craghorn") -> int:
    return next(i for i in g.s.zone("Alice", "hand") if g.s.objects[i].name == name)


def cast_and_resolve(g: Game) -> int:
    g.do(CastFaceDown(player="Alice", card=in_hand(g)))
    g.do(PassPriority(player="Alice"))
    g.do(PassPriority(player="Bob"))
    return next(i for i in g.s.battlefield if g.s.objects[i].face_down)


def test_cast_face_down_is_offered_and_costs_three() -> None:
    g = game()
    card = in_hand(g)
    legal = legal_actions(g.s, "Alice")
    assert CastFaceDown(player="Alice", card=card, marker=1) in legal
    assert any(isinstance(a, CastSpell) and a.card == card for a in legal)  # or face up
    events = g.do(CastFaceDown(player="Alice", card=card))
    kinds = [type(e).__name__ for e in events]
    # 708.4: turned face down before it is put onto the stack
    assert kinds.index("TurnedFaceDown") < kinds.index("SpellCast")
    assert [e.rule for e in events if isinstance(e, ev.SpellCast)] == ["702.37c"]
    assert sum(1 for e in events if isinstance(e, ev.PermanentTapped)) == 3  # {3}
    item = g.s.stack_items[g.s.markers[1].stack[-1]]
    assert item.obj is not None
    spell = g.s.objects[item.obj]
    assert spell.face_down and spell.zone == "stack"
    d = definition(spell)  # 708.2a, 702.37c
    assert (d.name, d.types, d.subtypes, d.mana_cost, d.colors, d.abilities,
            d.power, d.toughness) == ("", ("Creature",), (), "", (), (), 2, 2)


def test_not_offered_without_three_mana_or_off_sorcery_timing() -> None:
    g = game(lands=("Mountain", "Mountain"))
    assert not [a for a in legal_actions(g.s, "Alice") if isinstance(a, CastFaceDown)]
    with pytest.raises(RuleViolation) as e:
        decide(g.s, CastFaceDown(player="Alice", card=in_hand(g)))
    assert e.value.rule == "601.2g"
    g2 = game(hand=("Battering Craghorn", "Shock"))
    g2.do(CastSpell(player="Alice", card=in_hand(g2, "Shock"), targets=[["p:Bob"]]))
    with pytest.raises(RuleViolation) as e2:  # 708.4: a creature spell, sorcery timing
        decide(g2.s, CastFaceDown(player="Alice", card=in_hand(g2)))
    assert e2.value.rule == "117.1a"


def test_a_card_without_morph_cannot_be_cast_face_down() -> None:
    g = game(hand=("Grizzly Bears",))
    assert not [a for a in legal_actions(g.s, "Alice") if isinstance(a, CastFaceDown)]
    with pytest.raises(RuleViolation) as e:
        decide(g.s, CastFaceDown(player="Alice", card=in_hand(g, "Grizzly Bears")))
    assert e.value.rule == "702.37d"


def test_it_resolves_into_a_face_down_2_2_without_its_abilities() -> None:
    g = game()
    oid = cast_and_resolve(g)
    o = g.s.objects[oid]
    assert o.face_down and o.name == "Battering Craghorn"  # its controller may look
    assert is_creature(o) and power_toughness(g.s, o) == (2, 2)
    assert colors(o) == () and "first_strike" not in keywords(g.s, o)  # 708.2a


def test_turning_it_face_up_is_a_special_action_paying_the_morph_cost() -> None:
    g = game(lands=(*LANDS, "Mountain", "Mountain"))
    oid = cast_and_resolve(g)
    legal = legal_actions(g.s, "Alice")
    assert TurnFaceUp(player="Alice", card=oid, using="morph", marker=1) in legal
    stack_before = g.s.markers[1].stack
    events = g.do(TurnFaceUp(player="Alice", card=oid))
    assert [e.rule for e in events if isinstance(e, ev.TurnedFaceUp)] == ["702.37e"]
    assert sum(1 for e in events if isinstance(e, ev.PermanentTapped)) == 3  # {1}{R}{R}
    assert g.s.markers[1].stack == stack_before  # 116.2b: it doesn't use the stack
    o = g.s.objects[oid]  # 708.8: the same object, its own characteristics
    assert not o.face_down and power_toughness(g.s, o) == (3, 1)
    assert "first_strike" in keywords(g.s, o) and colors(o) == ("R",)
    assert not [e for e in events if isinstance(e, ev.ObjectMoved)]  # nothing entered
    p = g.s.markers[1].pending
    assert getattr(p, "player", None) == "Alice"  # 116.3: priority again


def test_turning_face_up_needs_the_morph_cost_and_the_controller() -> None:
    g = game()  # four Mountains: three tapped for {3}, one left
    oid = cast_and_resolve(g)
    assert not [a for a in legal_actions(g.s, "Alice") if isinstance(a, TurnFaceUp)]
    with pytest.raises(RuleViolation) as e:
        decide(g.s, TurnFaceUp(player="Alice", card=oid))
    assert e.value.rule == "702.37e" and "Craghorn" not in str(e.value)
    g.do(PassPriority(player="Alice"))  # Bob holds priority
    with pytest.raises((RuleViolation, InvalidCommand)) as e2:
        decide(g.s, TurnFaceUp(player="Bob", card=oid))
    assert "Craghorn" not in str(e2.value)  # a rejection names no face-down card (708.5)


def test_a_face_down_permanent_leaving_the_battlefield_is_revealed() -> None:
    g = game(hand=("Battering Craghorn", "Shock"), lands=(*LANDS, "Mountain"))
    oid = cast_and_resolve(g)
    g.do(CastSpell(player="Alice", card=in_hand(g, "Shock"), targets=[[f"o:{oid}"]]))
    g.do(PassPriority(player="Alice"))
    g.do(PassPriority(player="Bob"))
    assert oid not in g.s.objects
    dead = [g.s.objects[i] for i in g.s.zone("Alice", "graveyard")]
    craghorn = next(o for o in dead if o.name == "Battering Craghorn")
    assert not craghorn.face_down  # 708.9: a new object, face up


def test_face_down_status_leaves_the_state_hash_of_face_up_objects_alone() -> None:
    g = game()
    o = g.s.objects[in_hand(g)]
    assert "face_down" not in repr(o)  # records.shown_when_set: same text as before
    oid = cast_and_resolve(g)
    assert "face_down=True" in repr(g.s.objects[oid])
    before = state_hash(g.s)
    g.s.objects[oid] = type(o)(**{**{f: getattr(g.s.objects[oid], f)
                                     for f in g.s.objects[oid].__slots__},
                                  "face_down": False})
    assert state_hash(g.s) != before


def test_the_scenario_key_face_down_is_refused_off_the_battlefield() -> None:
    """A card in a hand is never face down (a spell is cast face down, 702.37c): the
    runner names the zone instead of ignoring the key."""
    text = """name: hand
variant: two_player
seed: 1
start: {turn: 3, active: Alice, step: precombat_main}
players:
  - {name: Alice, hand: [{card: Battering Craghorn, face_down: true}]}
  - {name: Bob}
expect:
  - {life: {Alice: 20}}
"""
    with pytest.raises(ScenarioFailed) as e:
        run_text(text, [])
    assert "players.Alice.hand: face_down is for permanents on the battlefield" in str(
        e.value)


def test_a_copy_of_a_face_down_permanent_is_a_nameless_2_2() -> None:
    """708.10, 707.2: Clone copying a face-down Battering Craghorn copies the face-down
    values - a 2/2 creature with no name or abilities - never the card's name."""
    g = Game([PositionPlayer(name="Alice", zones={
                  "battlefield": cards(*["Island"] * 4), "hand": cards("Clone"),
                  "library": cards(*["Plains"] * 5)}),
              PositionPlayer(name="Bob", zones={
                  "battlefield": cards("Battering Craghorn"),
                  "library": cards(*["Forest"] * 5)})],
             active="Alice")
    craghorn = g.s.battlefield[-1]
    g.s.objects[craghorn] = type(g.s.objects[craghorn])(**{
        **{f: getattr(g.s.objects[craghorn], f) for f in g.s.objects[craghorn].__slots__},
        "face_down": True})
    g.do(CastSpell(player="Alice", card=in_hand(g, "Clone")))
    g.do(PassPriority(player="Alice"))
    g.do(PassPriority(player="Bob"))
    assert g.pending().kind == "choose_copy"
    g.do(ChooseObjects(player="Alice", choices=[craghorn]))
    clone = next(o for o in g.s.permanents("Alice") if o.printed == "Clone")
    assert clone.name == "" and not clone.face_down
    assert power_toughness(g.s, clone) == (2, 2) and keywords(g.s, clone) == frozenset()
    assert "Craghorn" not in view(g.s, "Alice").model_dump_json()
