"""Cycling (CR 702.29) on the pure core: Desert Cerodon's "Cycling {R}" is an activated
ability of the card in its owner's hand (702.29a): the mana and the discard are its
costs, the ability uses the stack and draws a card as it resolves; the discard is
cycling, which triggers Astral Slide (702.29c-d), whose target is chosen as it goes on
the stack (603.3d).
"""

from __future__ import annotations

import pytest
from tests.harness import Game, cards

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ActivateAbility, PassPriority, PositionPlayer
from arbiter_core.kernel.decide import decide
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.views.legal import legal_actions


def game(bob_battlefield: tuple[str, ...] = ("Mountain",)) -> Game:
    return Game([PositionPlayer(name="Alice", zones={"battlefield": cards("Astral Slide"),
                                                      "hand": cards("Desert Cerodon"),
                                                      "library": cards(*["Plains"] * 5)}),
                 PositionPlayer(name="Bob", zones={"battlefield": cards(*bob_battlefield),
                                                    "hand": cards("Desert Cerodon"),
                                                    "library": cards(*["Forest"] * 5)})],
                active="Bob")


def bobs_cerodon(g: Game) -> int:
    return next(o for o in g.s.zone("Bob", "hand"))


def test_cycling_is_offered_from_the_hand_when_its_cost_can_be_paid() -> None:
    g = game()
    card = bobs_cerodon(g)
    assert ActivateAbility(player="Bob", source=card, ability=0, marker=1) in legal_actions(
        g.s, "Bob")
    g2 = game(("Forest",))  # no red mana: not offered
    assert not [c for c in legal_actions(g2.s, "Bob") if isinstance(c, ActivateAbility)
                and c.source == bobs_cerodon(g2)]


def test_cycling_discards_as_a_cost_and_draws_on_resolution() -> None:
    g = game()
    card = bobs_cerodon(g)
    events = g.do(ActivateAbility(player="Bob", source=card, ability=0))
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("AbilityActivated") < kinds.index("ObjectMoved") < kinds.index(
        "CardCycled")
    assert [e.rule for e in events if isinstance(e, ev.CardCycled)] == ["702.29a"]
    # cycled: in the graveyard; the Astral Slide trigger has no creature to target (603.3d)
    assert [e.rule for e in events if isinstance(e, ev.TriggerRemoved)] == ["603.3d"]
    assert g.s.zone("Bob", "hand") == [] and len(g.s.zone("Bob", "graveyard")) == 1
    assert len(g.s.markers[1].stack) == 1  # the cycling ability uses the stack
    g.do(PassPriority(player="Bob"))
    events = g.do(PassPriority(player="Alice"))
    assert [e.player for e in events if isinstance(e, ev.CardDrawn)] == ["Bob"]
    assert not g.s.markers[1].stack


def test_cycling_triggers_astral_slide_which_targets_the_only_creature() -> None:
    g = game(("Mountain", "Grizzly Bears"))
    g.do(ActivateAbility(player="Bob", source=bobs_cerodon(g), ability=0))
    top = g.s.stack_items[g.s.markers[1].stack[-1]]
    assert (top.source_name, top.targets) == (
        "Astral Slide", ((f"o:{g.named('Grizzly Bears')}",),))


def test_only_the_owner_cycles_a_card_and_only_from_the_hand() -> None:
    g = game()
    alices = next(iter(g.s.zone("Alice", "hand")))
    with pytest.raises(RuleViolation) as e:
        decide(g.s, ActivateAbility(player="Bob", source=alices, ability=0))
    assert e.value.rule in ("117.1", "602.2")
    g2 = game(("Mountain", "Desert Cerodon"))
    with pytest.raises(RuleViolation) as e2:
        decide(g2.s, ActivateAbility(player="Bob", source=g2.named("Desert Cerodon"),
                                     ability=0))
    assert e2.value.rule == "602.1"
