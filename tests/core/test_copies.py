"""Entering as a copy (CR 707.5, 614.1c) on the pure core: Clone. The choice is made as
Clone resolves, before it enters (a `choose_copy` decision: a creature or none); the copy
has the original's copiable values (707.2; 707.3 for a copy of a copy), and a new object
after a zone change is no longer a copy (400.7). With nothing copied it is a 0/0 (704.5f).
"""

from __future__ import annotations

import pytest
from tests.harness import Game, cards

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import CastSpell, ChooseObjects, PassPriority, PositionPlayer
from arbiter_core.kernel.decide import decide
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.evolve import apply
from arbiter_core.kernel.state import Priority
from arbiter_core.layers.characteristics import definition
from arbiter_core.views.legal import legal_actions


def clone_resolving(bob: tuple[str, ...] = ("Grizzly Bears",), clones: int = 1) -> Game:
    g = Game([PositionPlayer(name="Alice", zones={"battlefield": cards(*["Island"] * 8),
                                                   "hand": cards(*["Clone"] * clones),
                                                   "library": cards(*["Island"] * 5)}),
              PositionPlayer(name="Bob", zones={"battlefield": cards(*bob),
                                                 "library": cards(*["Forest"] * 5)})],
             active="Alice")
    g.do(CastSpell(player="Alice", card=g.s.zone("Alice", "hand")[0]))
    g.do(PassPriority(player="Alice"))
    g.do(PassPriority(player="Bob"))
    return g


def alices_creature(g: Game) -> int:
    return next(o for o in g.s.battlefield if g.s.objects[o].controller == "Alice"
                and "Creature" in definition(g.s.objects[o]).types)


def test_the_copy_is_chosen_before_clone_enters() -> None:
    g = clone_resolving()
    d = g.pending()
    assert (d.kind, d.player, d.rule, d.min_count) == ("choose_copy", "Alice", "707.5", 0)
    assert d.options == (g.named("Grizzly Bears"),)
    assert len(g.s.markers[1].stack) == 1  # still resolving: not on the battlefield yet
    assert {tuple(c.choices) for c in legal_actions(g.s, "Alice")
            if isinstance(c, ChooseObjects)} == {(g.named("Grizzly Bears"),), ()}


def test_clone_is_a_2_2_named_grizzly_bears() -> None:
    g = clone_resolving()
    events = g.do(ChooseObjects(player="Alice", choices=[g.named("Grizzly Bears")]))
    assert [e.rule for e in events if isinstance(e, ev.BecameCopy)] == ["707.5"]
    o = g.s.objects[alices_creature(g)]
    d = definition(o)
    assert (o.name, d.power, d.toughness, d.mana_cost) == ("Grizzly Bears", 2, 2, "{1}{G}")
    assert o.printed == "Clone"


def test_declining_leaves_a_0_0_clone_that_dies() -> None:
    g = clone_resolving()
    g.do(ChooseObjects(player="Alice", choices=[]))
    assert [g.s.objects[o].name for o in g.s.zone("Alice", "graveyard")] == ["Clone"]  # 704.5f


def test_no_creature_no_decision() -> None:
    g = clone_resolving(bob=())
    assert g.s.markers[1].pending == Priority("Alice")  # nothing was asked
    assert [g.s.objects[o].name for o in g.s.zone("Alice", "graveyard")] == ["Clone"]


def test_only_an_offered_creature_may_be_copied() -> None:
    g = clone_resolving(bob=("Grizzly Bears", "Island"))
    with pytest.raises(RuleViolation) as e:
        decide(g.s, ChooseObjects(player="Alice", choices=[g.named("Island")]))
    assert e.value.rule == "707.5"


def test_a_copy_that_leaves_the_battlefield_is_clone_again() -> None:
    g = clone_resolving()
    g.do(ChooseObjects(player="Alice", choices=[g.named("Grizzly Bears")]))
    copy = alices_creature(g)
    apply(g.s, ev.ObjectMoved(obj=copy, new_id=g.s.next_id, to_zone="graveyard",
                              to_player="Alice", rule="701.8a"))
    card = g.s.objects[g.s.zone("Alice", "graveyard")[0]]
    assert (card.name, card.printed) == ("Clone", None)  # 400.7


def test_a_copy_of_a_copy_copies_what_it_copied() -> None:
    g = clone_resolving(clones=2)
    g.do(ChooseObjects(player="Alice", choices=[g.named("Grizzly Bears")]))
    first = alices_creature(g)
    g.do(CastSpell(player="Alice", card=g.s.zone("Alice", "hand")[0]))
    g.do(PassPriority(player="Alice"))
    g.do(PassPriority(player="Bob"))
    g.do(ChooseObjects(player="Alice", choices=[first]))
    names = sorted(g.s.objects[o].name for o in g.s.battlefield
                   if g.s.objects[o].controller == "Alice" and o != first
                   and "Creature" in definition(g.s.objects[o]).types)
    assert names == ["Grizzly Bears"]  # 707.3
