"""Targets of triggered abilities chosen as they are put on the stack (CR 603.3d), on
the pure core: Astral Slide's "you may exile target creature" trigger. One legal
target is chosen by the engine, several are a `choose_targets` decision for the
controller (answered with `ChooseObjects`, by a bot with its seeded choice), and none
removes the ability from the stack.
"""

from __future__ import annotations

import pytest
from tests.harness import Game, cards

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseObjects, PassPriority, PositionPlayer
from arbiter_core.kernel.decide import decide
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.evolve import apply
from arbiter_core.kernel.state import Priority
from arbiter_core.views.legal import legal_actions
from arbiter_runtime.bots import RandomBot


def slide_triggers(*bob_creatures: str) -> tuple[Game, list[ev.Event]]:
    """Alice controls Astral Slide; Bob controls `bob_creatures`. The trigger waits and
    the engine is to put it on the stack before Alice receives priority."""
    g = Game([PositionPlayer(name="Alice", zones={"battlefield": cards("Astral Slide"),
                                                   "library": cards(*["Plains"] * 5)}),
              PositionPlayer(name="Bob", zones={"battlefield": cards(*bob_creatures),
                                                 "library": cards(*["Forest"] * 5)})],
             active="Alice")
    slide = g.named("Astral Slide")
    for e in (ev.AbilityTriggered(source=slide, source_name="Astral Slide", controller="Alice",
                                  ability=0, marker=1, rule="603.2"),
              ev.WorkQueued(marker=1, kind="put_triggers", then_priority="Alice",
                            rule="117.5")):
        apply(g.s, e)
    return g, g.settle()


def test_a_single_legal_target_is_chosen_by_the_engine() -> None:
    g, events = slide_triggers("Grizzly Bears")
    bears = g.named("Grizzly Bears")
    chosen = [e for e in events if isinstance(e, ev.TriggerTargetsChosen)]
    assert [(e.player, e.targets, e.rule) for e in chosen] == [
        ("Alice", [f"o:{bears}"], "603.3d")]
    item = g.s.stack_items[g.s.markers[1].stack[-1]]
    assert item.targets == ((f"o:{bears}",),)
    assert g.s.markers[1].pending == Priority("Alice")


def test_no_legal_target_removes_the_ability_from_the_stack() -> None:
    g, events = slide_triggers()
    assert [e.rule for e in events if isinstance(e, ev.TriggerRemoved)] == ["603.3d"]
    assert not g.s.markers[1].stack and not g.s.stack_items
    assert g.s.markers[1].pending == Priority("Alice")


def test_several_legal_targets_are_the_controllers_decision() -> None:
    g, _ = slide_triggers("Grizzly Bears", "Hill Giant")
    d = g.pending()
    bears, giant = g.named("Grizzly Bears"), g.named("Hill Giant")
    assert (d.kind, d.player, d.rule, d.count) == ("choose_targets", "Alice", "603.3d", 1)
    assert set(d.options) == {bears, giant}
    # the ability is already on the stack; nobody has priority yet
    assert len(g.s.markers[1].stack) == 1
    with pytest.raises(RuleViolation):
        decide(g.s, ChooseObjects(player="Alice", choices=[bears, giant]))
    with pytest.raises(RuleViolation):
        decide(g.s, ChooseObjects(player="Bob", choices=[bears]))
    g.do(ChooseObjects(player="Alice", choices=[giant]))
    item = g.s.stack_items[g.s.markers[1].stack[-1]]
    assert item.targets == ((f"o:{giant}",),)
    assert g.s.markers[1].pending == Priority("Alice")  # 117.3b-c after the triggers
    g.do(PassPriority(player="Alice"))
    g.do(PassPriority(player="Bob"))
    assert g.pending().kind == "you_may"  # 603.5, on resolution


def test_a_bot_chooses_one_of_the_legal_targets() -> None:
    g, _ = slide_triggers("Grizzly Bears", "Hill Giant")
    legal = legal_actions(g.s, "Alice")
    assert {tuple(c.choices) for c in legal if isinstance(c, ChooseObjects)} == {
        (g.named("Grizzly Bears"),), (g.named("Hill Giant"),)}
    answers = [RandomBot(seed).choose(g.s, "Alice") for seed in range(6)]
    assert all(isinstance(a, ChooseObjects) for a in answers)
    for a in answers:
        assert a is not None
        decide(g.s, a)  # accepted
