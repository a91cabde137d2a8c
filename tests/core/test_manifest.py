"""Manifest (CR 701.40) on the pure core: Soul Summons puts the top card of its
controller's library onto the battlefield face down as a 2/2 creature (701.40a, 708.3);
a manifested creature card is turned face up for its mana cost (701.40b), a manifested
card with morph either way (701.40c), and a manifested noncreature card not at all."""

from __future__ import annotations

import pytest
from tests.harness import Game, cards

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import CastSpell, PassPriority, PositionPlayer, TurnFaceUp
from arbiter_core.kernel.decide import decide
from arbiter_core.kernel.errors import InvalidCommand, RuleViolation
from arbiter_core.layers.characteristics import definition, power_toughness
from arbiter_core.views.legal import legal_actions
from arbiter_core.views.seat import FACE_DOWN_NAME, view


def manifested(top: str, lands: tuple[str, ...] = ("Plains", "Plains")) -> tuple[Game, int]:
    g = Game([PositionPlayer(name="Alice", zones={
                  "battlefield": cards(*lands),
                  "hand": cards("Soul Summons"),
                  "library": cards(top, "Plains", "Plains")}),
              PositionPlayer(name="Bob", zones={"library": cards(*["Forest"] * 5)})],
             active="Alice")
    card = g.s.zone("Alice", "hand")[0]
    g.do(CastSpell(player="Alice", card=card))
    g.do(PassPriority(player="Alice"))
    events = g.do(PassPriority(player="Bob"))
    assert [e.rule for e in events if isinstance(e, ev.TurnedFaceDown)] == ["701.40a"]
    (oid,) = [i for i in g.s.battlefield if g.s.objects[i].face_down]
    return g, oid


def test_manifest_puts_the_top_card_onto_the_battlefield_face_down() -> None:
    g, oid = manifested("Hill Giant")
    o = g.s.objects[oid]
    assert o.name == "Hill Giant" and o.manifested and o.controller == "Alice"
    assert definition(o).name == "" and power_toughness(g.s, o) == (2, 2)
    assert [g.s.objects[i].name for i in g.s.zone("Alice", "library")] == ["Plains"] * 2
    assert [p.name for p in view(g.s, "Bob").battlefield if p.id == oid] == [FACE_DOWN_NAME]
    assert [p.name for p in view(g.s, "Alice").battlefield if p.id == oid] == ["Hill Giant"]


def test_a_manifested_creature_card_is_turned_face_up_for_its_mana_cost() -> None:
    lands = ("Plains", "Plains", "Mountain", "Mountain", "Mountain", "Mountain")
    g, oid = manifested("Hill Giant", lands)  # {3}{R}, with two Plains tapped already
    assert TurnFaceUp(player="Alice", card=oid, using="manifest", marker=1) in \
        legal_actions(g.s, "Alice")
    events = g.do(TurnFaceUp(player="Alice", card=oid))
    assert [e.rule for e in events if isinstance(e, ev.TurnedFaceUp)] == ["701.40b"]
    o = g.s.objects[oid]
    assert not o.face_down and not o.manifested and power_toughness(g.s, o) == (3, 3)


def test_a_manifested_card_with_morph_may_use_either_procedure() -> None:
    lands = ("Plains", "Plains", "Mountain", "Mountain", "Mountain", "Mountain")
    g, oid = manifested("Battering Craghorn", lands)
    ways = {a.using for a in legal_actions(g.s, "Alice")
            if isinstance(a, TurnFaceUp) and a.card == oid}
    assert ways == {"manifest", "morph"}  # {2}{R}{R} or {1}{R}{R}
    events = g.do(TurnFaceUp(player="Alice", card=oid, using="morph"))
    assert [e.rule for e in events if isinstance(e, ev.TurnedFaceUp)] == ["702.37e"]
    assert sum(1 for e in events if isinstance(e, ev.PermanentTapped)) == 3


def test_a_manifested_noncreature_card_stays_face_down() -> None:
    g, oid = manifested("Shock", ("Plains", "Plains", "Mountain"))
    assert not [a for a in legal_actions(g.s, "Alice") if isinstance(a, TurnFaceUp)]
    with pytest.raises(RuleViolation) as e:
        decide(g.s, TurnFaceUp(player="Alice", card=oid))
    assert e.value.rule == "708.7" and "Shock" not in str(e.value)
    with pytest.raises(InvalidCommand) as e2:
        decide(g.s, TurnFaceUp(player="Alice", card=oid, using="disguise"))
    assert e2.value.field == "using"


def test_a_morph_only_permanent_is_not_turned_up_for_its_mana_cost() -> None:
    """Cast face down by morph, not manifested: 701.40b's procedure doesn't apply."""
    g = Game([PositionPlayer(name="Alice", zones={
                  "battlefield": [*cards("Branchsnap Lorian"), *cards(*["Forest"] * 4)]}),
              PositionPlayer(name="Bob", zones={})], active="Alice")
    oid = g.s.battlefield[0]
    g.s.objects[oid] = type(g.s.objects[oid])(**{
        **{f: getattr(g.s.objects[oid], f) for f in g.s.objects[oid].__slots__},
        "face_down": True})
    ways = {a.using for a in legal_actions(g.s, "Alice") if isinstance(a, TurnFaceUp)}
    assert ways == {"morph"}
    with pytest.raises(RuleViolation):
        decide(g.s, TurnFaceUp(player="Alice", card=oid, using="manifest"))
