"""`legal_actions` and CR 807.5b: a spell that targets a spell on a stack can only be put
on that stack. A player with priority on two Grand Melee stacks (807.5a) is offered a
Counterspell at each spell only on the stack that spell is on, and every spell offered
is accepted by `decide` (a 100-player bot game, seed 1, was once offered a Counterspell
for the wrong stack and stopped with a RuleViolation)."""

from __future__ import annotations

from pathlib import Path

from arbiter_core.kernel.commands import CastSpell
from arbiter_core.kernel.decide import decide
from arbiter_core.views.legal import legal_actions
from arbiter_scenarios import actions as act
from arbiter_scenarios.model import load
from arbiter_scenarios.runner import _setup

SCENARIO = (Path(__file__).parent.parent / "scenarios" / "grand_melee"
            / "counterspell-goes-on-its-targets-stack.yaml")


def test_a_counterspell_is_offered_only_on_its_targets_stack() -> None:
    sc = load(SCENARIO)
    run = _setup(sc)
    for i, action in enumerate(sc.actions):
        if "check" in action:
            continue
        if action.get("cast") == "Counterspell":
            break  # P3 now has priority on stacks 1 and 2, with Bolt on 1, Shock on 2
        act.perform(run, action, f"actions[{i}]")
    s = run.state
    stack_of = {f"o:{item.obj}": item.marker for item in s.stack_items.values()
                if item.obj is not None}
    casts = [c for c in legal_actions(s, "P3") if isinstance(c, CastSpell)]
    assert {c.marker for c in casts} == {1, 2}  # priority on both stacks
    for c in casts:
        assert [stack_of[t] for group in c.targets for t in group] == [c.marker]
        decide(s, c)  # accepted
    assert len(casts) == 2  # the Bolt from stack 1, the Shock from stack 2
