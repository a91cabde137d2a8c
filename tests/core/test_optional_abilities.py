"""Optional ("you may") triggered abilities, CR 603.5 and 608.2d, on the pure core.

The ability goes on the stack when it triggers, whether or not its controller will do
it; as it resolves, the controller answers a yes/no decision (`you_may`). Rhystic Study
("you may draw a card unless that player pays {1}") asks the caster first (118.12a),
then its controller only if the {1} wasn't paid. Astral Slide ("you may exile target
creature. If you do, return ...") asks before exiling; here its trigger is put on a
stack by its events, with the target written into the stack item (a real cycle, with
the target chosen as it goes on the stack: tests/core/test_cycling.py).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from tests.harness import Game, cards

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import CastSpell, ChooseOption, PassPriority, PositionPlayer
from arbiter_core.kernel.decide import decide
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.evolve import apply
from arbiter_core.kernel.refs import object_ref
from arbiter_core.views.legal import legal_actions
from arbiter_runtime.bots import RandomBot
from arbiter_scenarios.model import load
from arbiter_scenarios.runner import run_scenario

SCENARIOS = Path(__file__).parent.parent / "scenarios" / "triggers"


def rhystic() -> Game:
    """Bob's turn: Bob casts Shock at Alice, who controls Rhystic Study; then both pass."""
    g = Game([PositionPlayer(name="Alice", zones={"battlefield": cards("Rhystic Study"),
                                                   "library": cards(*["Island"] * 5)}),
              PositionPlayer(name="Bob", zones={"battlefield": cards("Mountain", "Mountain"),
                                                 "hand": cards("Shock"),
                                                 "library": cards(*["Mountain"] * 5)})],
             active="Bob")
    g.do(CastSpell(player="Bob", card=g.named("Shock", "hand"), targets=[["p:Alice"]]))
    # 603.5: on the stack above Shock before anyone has chosen anything
    assert len(g.s.markers[1].stack) == 2
    g.do(PassPriority(player="Bob"))
    g.do(PassPriority(player="Alice"))
    return g


def test_the_caster_answers_first_then_the_controller_is_asked_yes_or_no() -> None:
    g = rhystic()
    assert g.pending().kind == "pay_or_not" and g.pending().player == "Bob"  # 118.12a
    g.do(ChooseOption(player="Bob", option="decline"))
    d = g.pending()
    assert (d.kind, d.player, d.choices, d.rule) == ("you_may", "Alice", ("yes", "no"), "603.5")
    assert len(g.s.markers[1].stack) == 2  # still resolving
    assert {(c.player, c.option) for c in legal_actions(g.s, "Alice")
            if isinstance(c, ChooseOption)} == {("Alice", "yes"), ("Alice", "no")}
    assert not [c for c in legal_actions(g.s, "Bob") if isinstance(c, ChooseOption)]


def test_yes_draws_the_card() -> None:
    g = rhystic()
    g.do(ChooseOption(player="Bob", option="decline"))
    events = g.do(ChooseOption(player="Alice", option="yes"))
    chosen = [e for e in events if isinstance(e, ev.OptionalActionChosen)]
    assert [(e.player, e.accepted, e.rule) for e in chosen] == [("Alice", True, "603.5")]
    assert [e.player for e in events if isinstance(e, ev.CardDrawn)] == ["Alice"]
    assert len(g.s.zone("Alice", "hand")) == 1 and len(g.s.zone("Alice", "library")) == 4
    assert len(g.s.markers[1].stack) == 1  # the ability resolved; Shock is left


def test_no_draws_nothing_and_the_ability_still_resolves() -> None:
    g = rhystic()
    g.do(ChooseOption(player="Bob", option="decline"))
    events = g.do(ChooseOption(player="Alice", option="no"))
    assert [e.accepted for e in events if isinstance(e, ev.OptionalActionChosen)] == [False]
    assert not [e for e in events if isinstance(e, ev.CardDrawn)]
    assert any(isinstance(e, ev.StackItemResolved) for e in events)
    assert g.s.zone("Alice", "hand") == [] and len(g.s.markers[1].stack) == 1


def test_a_paid_cost_leaves_nothing_to_choose() -> None:
    g = rhystic()
    events = g.do(ChooseOption(player="Bob", option="pay"))
    assert not [e for e in events if isinstance(e, ev.DecisionRequested)
                and e.kind == "you_may"]
    assert g.s.zone("Alice", "hand") == [] and len(g.s.markers[1].stack) == 1


def test_only_the_controller_answers_and_only_yes_or_no() -> None:
    g = rhystic()
    g.do(ChooseOption(player="Bob", option="decline"))
    with pytest.raises(RuleViolation):
        decide(g.s, ChooseOption(player="Bob", option="yes"))
    with pytest.raises(RuleViolation) as e:
        decide(g.s, ChooseOption(player="Alice", option="pay"))
    assert e.value.rule == "603.5"


def test_a_bot_answers_with_its_seeded_choice() -> None:
    g = rhystic()
    g.do(ChooseOption(player="Bob", option="decline"))
    answers = [RandomBot(seed).choose(g.s, "Alice") for seed in range(20)]
    assert all(isinstance(a, ChooseOption) and a.option in ("yes", "no") for a in answers)
    assert {a.option for a in answers if isinstance(a, ChooseOption)} == {"yes", "no"}
    assert answers == [RandomBot(seed).choose(g.s, "Alice") for seed in range(20)]
    for a in answers[:2]:
        assert a is not None
        decide(g.s, a)  # accepted


def slide_on_the_stack() -> tuple[Game, int]:
    """Alice's Astral Slide trigger on the stack, targeting Bob's Grizzly Bears."""
    g = Game([PositionPlayer(name="Alice", zones={"battlefield": cards("Astral Slide"),
                                                   "library": cards(*["Plains"] * 5)}),
              PositionPlayer(name="Bob", zones={"battlefield": cards("Grizzly Bears"),
                                                 "library": cards(*["Forest"] * 5)})],
             active="Alice")
    slide, bears = g.named("Astral Slide"), g.named("Grizzly Bears")
    for e in (ev.AbilityTriggered(source=slide, source_name="Astral Slide", controller="Alice",
                                  ability=0, marker=1, rule="603.2"),
              ev.TriggerPutOnStack(index=0, item=g.s.next_id, marker=1, rule="603.3b")):
        apply(g.s, e)
    g.s.next_id += 1
    item = g.s.stack_items[g.s.markers[1].stack[-1]]
    g.s.stack_items[item.id] = replace(item, targets=((object_ref(bears),),))
    return g, bears


def astral_slide(answer: str) -> tuple[Game, list[ev.Event]]:
    """Alice's Astral Slide trigger resolves; she answers."""
    g, bears = slide_on_the_stack()
    g.do(PassPriority(player="Alice"))
    g.do(PassPriority(player="Bob"))
    d = g.pending()
    assert (d.kind, d.player) == ("you_may", "Alice")  # asked before anything is exiled
    assert g.s.objects[bears].zone == "battlefield"
    return g, g.do(ChooseOption(player="Alice", option=answer))


def test_astral_slide_yes_exiles_and_creates_the_return() -> None:
    g, events = astral_slide("yes")
    assert [o.name for o in g.s.objects.values() if o.zone == "exile"] == ["Grizzly Bears"]
    assert [e.kind for e in events if isinstance(e, ev.DelayedTriggerCreated)] == [
        "return_from_exile"]
    assert not g.s.markers[1].stack


def test_astral_slide_no_exiles_nothing_and_creates_no_return() -> None:
    g, events = astral_slide("no")
    assert g.named("Grizzly Bears") in g.s.battlefield
    assert not g.s.delayed and not g.s.markers[1].stack
    assert not [e for e in events if isinstance(e, ev.ObjectMoved)]


def test_no_question_when_the_ability_does_not_resolve() -> None:
    """608.2b: with its only target gone the ability doesn't resolve; nothing to ask."""
    g, bears = slide_on_the_stack()
    apply(g.s, ev.ObjectMoved(obj=bears, new_id=g.s.next_id, to_zone="hand",
                              to_player="Bob", rule="608.2c"))
    g.do(PassPriority(player="Alice"))
    events = g.do(PassPriority(player="Bob"))
    assert [e.rule for e in events if isinstance(e, ev.StackItemCountered)] == ["608.2b"]
    assert not [e for e in events if isinstance(e, ev.DecisionRequested)]
    assert not g.s.markers[1].stack and not g.s.delayed


def test_a_scenario_answers_with_unquoted_yes_and_no() -> None:
    """The spec's `choose: yes` / `choose: no`, which YAML reads as booleans."""
    for name in ("rhystic-study-you-may-draw-yes.yaml", "rhystic-study-you-may-draw-no.yaml"):
        path = SCENARIOS / name
        assert any(isinstance(a.get("choose"), bool) for a in load(path).actions)
        result = run_scenario(path)
        assert result.passed, result.failures
