"""Transforming double-faced cards (CR 701.27, 712; layers/transform.py): the back face's
characteristics and text, the same object through a transform, 701.27c/f, and a
transformed permanent that leaves the battlefield coming back as its front face."""

from __future__ import annotations

from tests.harness import Game, cards

from arbiter_core.cards.facts import BACK_FACES as BACK_FACTS
from arbiter_core.cards.render import render_oracle
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import (
    ActivateAbility,
    ChooseObjects,
    PassPriority,
    PositionPlayer,
)
from arbiter_core.kernel.edits import move
from arbiter_core.layers.characteristics import BACK_FACES, definition
from arbiter_core.layers.transform import SCHOLAR, Transformed

HAND = ("Grizzly Bears",)


def game(hand: tuple[str, ...] = HAND) -> Game:
    return Game([PositionPlayer(name="Alice", zones={"battlefield": cards(SCHOLAR),
                                                      "hand": cards(*hand),
                                                      "library": cards(*["Plains"] * 5)}),
                 PositionPlayer(name="Bob", zones={"library": cards(*["Forest"] * 5)})],
                active="Alice")


def scholar(g: Game) -> int:
    return next(i for i in g.s.battlefield if g.s.objects[i].name == SCHOLAR)


def loot(g: Game, discard: str | None) -> list[ev.Event]:
    g.do(ActivateAbility(player="Alice", source=scholar(g), ability=0))
    g.do(PassPriority(player="Alice"))
    events = list(g.do(PassPriority(player="Bob")))
    if discard is not None:
        card = next(i for i in g.s.zone("Alice", "hand") if g.s.objects[i].name == discard)
        events += g.do(ChooseObjects(player="Alice", choices=[card]))
    return events


def test_the_back_face_renders_as_its_oracle_text() -> None:
    back = BACK_FACES[SCHOLAR]
    assert back.name == "Homicidal Brute" and back.colors == ("R",)  # color indicator
    assert render_oracle(back) == BACK_FACTS[SCHOLAR].oracle_text


def test_discarding_a_creature_transforms_the_same_object() -> None:
    g = game()
    oid = scholar(g)
    events = loot(g, "Grizzly Bears")
    assert [e.rule for e in events if isinstance(e, Transformed)] == ["701.27a"]
    o = g.s.objects[oid]  # 712.18: not a new object
    assert o.transformed and not o.tapped
    d = definition(o)  # 712.8e
    assert (d.name, d.colors, d.power, d.toughness) == ("Homicidal Brute", ("R",), 5, 1)


def test_discarding_a_land_does_not_transform() -> None:
    g = game(("Island",))
    oid = scholar(g)
    events = loot(g, "Island")
    assert not [e for e in events if isinstance(e, Transformed)]
    assert not g.s.objects[oid].transformed and g.s.objects[oid].tapped


def test_a_transformed_permanent_that_moves_is_a_new_front_face_object() -> None:
    g = game()
    oid = scholar(g)
    loot(g, "Grizzly Bears")
    assert g.s.objects[oid].transformed
    s = g.s  # the zone change as the kernel's applier makes it (`edits.move`)
    new_id = s.next_id
    move(s, oid, new_id, "hand", None)
    new = s.objects[new_id]
    assert not new.transformed and definition(new).name == SCHOLAR  # 712.8a, 400.7
