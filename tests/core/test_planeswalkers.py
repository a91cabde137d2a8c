"""Planeswalkers and loyalty abilities (planeswalkers.py): the rule each rejection
cites (606.3, 606.6, 508.1b, 803.1a, 801.3), the loyalty counters paid and dealt away
(606.4, 120.3c), and `legal_actions` offering loyalty abilities and attacks on
planeswalkers exactly when `decide` accepts them. Positions are set up with the
scenario runner."""

from __future__ import annotations

import pytest
from tests.harness import run_text

from arbiter_core.cards import get_card
from arbiter_core.cards.render import render_oracle
from arbiter_core.kernel.commands import ActivateAbility, DeclareAttackers, PlayerCommand
from arbiter_core.kernel.decide import decide
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.state import GameState
from arbiter_core.views.legal import legal_actions
from arbiter_scenarios import actions as act

TWO = """
name: Jace in a two-player game
variant: two_player
start: {turn: 3, active: Alice, step: precombat_main}
players:
  - {name: Alice, battlefield: [Jace Beleren, Grizzly Bears], library: ["Island x 30"]}
  - {name: Bob, battlefield: [Jace Beleren], library: ["Island x 30"]}
expect: []
"""

LEFT = """
name: attack left with planeswalkers
variant: free_for_all
options: {attack: left}
start: {turn: 5, active: Alice, step: precombat_main}
players:
  - {name: Alice, battlefield: [Grizzly Bears], library: ["Forest x 5"]}
  - {name: Bob, battlefield: [Jace Beleren], library: ["Island x 5"]}
  - {name: Carol, battlefield: [Jace Beleren], library: ["Island x 5"]}
expect: []
"""

RANGE = """
name: range of influence with planeswalkers
variant: free_for_all
options: {range_of_influence: 1}
start: {turn: 5, active: Alice, step: precombat_main}
players:
  - {name: Alice, battlefield: [Grizzly Bears], library: ["Forest x 5"]}
  - {name: Bob, battlefield: [Jace Beleren], library: ["Island x 5"]}
  - {name: Carol, battlefield: [Jace Beleren], library: ["Island x 5"]}
  - {name: Dan, library: ["Island x 5"]}
  - {name: Eve, library: ["Island x 5"]}
expect: []
"""


def _jace(s: GameState, controller: str) -> int:
    return next(o.id for o in s.permanents(controller) if o.name == "Jace Beleren")


def _rule(s: GameState, command: PlayerCommand) -> str:
    with pytest.raises(RuleViolation) as info:
        decide(s, command)
    return info.value.rule


def _accepted(s: GameState, command: PlayerCommand) -> bool:
    try:
        decide(s, command)
    except RuleViolation:
        return False
    return True


def test_jace_renders_its_loyalty_abilities_and_has_printed_loyalty() -> None:
    jace = get_card("Jace Beleren")
    assert jace.loyalty == 3
    assert render_oracle(jace) == ("[+2]: Each player draws a card.\n"
                                   "[\u22121]: Target player draws a card.\n"
                                   "[\u221210]: Target player mills twenty cards.")


def test_setup_gives_a_planeswalker_its_printed_loyalty() -> None:
    s = run_text(TWO, []).state
    assert s.objects[_jace(s, "Alice")].counter("loyalty") == 3  # 306.5b


def test_second_loyalty_activation_in_a_turn_cites_606_3() -> None:
    run = run_text(TWO, [{"player": "Alice", "activate": "Jace Beleren", "ability": 0}])
    s = run.state
    jace = _jace(s, "Alice")
    assert s.objects[jace].counter("loyalty") == 5  # 606.4: +2 paid at once
    act.perform(run, {"pass_until": "stack_empty"}, "p")
    s = run.state
    again = ActivateAbility(player="Alice", source=jace, ability=1, targets=[["p:Bob"]])
    assert _rule(s, again) == "606.3"
    assert not any(isinstance(a, ActivateAbility) and a.source == jace
                   for a in legal_actions(s, "Alice"))


def test_negative_cost_beyond_loyalty_cites_606_6() -> None:
    s = run_text(TWO, []).state
    jace = _jace(s, "Alice")
    ult = ActivateAbility(player="Alice", source=jace, ability=2, targets=[["p:Bob"]])
    assert _rule(s, ult) == "606.6"
    offered = {a.ability for a in legal_actions(s, "Alice")
               if isinstance(a, ActivateAbility) and a.source == jace}
    assert offered == {0, 1}
    assert all(_accepted(s, a) for a in legal_actions(s, "Alice")
               if isinstance(a, ActivateAbility))


def test_opponent_cannot_activate_at_instant_speed() -> None:
    run = run_text(TWO, [{"player": "Alice", "pass": True}])
    s = run.state
    bob = ActivateAbility(player="Bob", source=_jace(s, "Bob"), ability=0)
    assert _rule(s, bob) == "606.3"


def test_attacks_on_planeswalkers_offered_are_legal() -> None:
    s = run_text(TWO, [{"pass_until": "declare_attackers"}]).state
    offered = [a for a in legal_actions(s, "Alice") if isinstance(a, DeclareAttackers)]
    targets = {d for a in offered for _, d in a.attacks}
    assert f"o:{_jace(s, 'Bob')}" in targets
    assert f"o:{_jace(s, 'Alice')}" not in targets
    assert all(_accepted(s, a) for a in offered)
    bears = next(o.id for o in s.permanents("Alice") if o.name == "Grizzly Bears")
    own = DeclareAttackers(player="Alice", attacks=[(bears, f"o:{_jace(s, 'Alice')}")])
    assert _rule(s, own) == "508.1b"
    not_walker = DeclareAttackers(player="Alice", attacks=[(bears, f"o:{bears}")])
    assert _rule(s, not_walker) == "506.3"


@pytest.mark.parametrize(("text", "rule"), [(LEFT, "803.1a"), (RANGE, "801.3")])
def test_only_planeswalkers_of_attackable_players(text: str, rule: str) -> None:
    s = run_text(text, [{"pass_until": "declare_attackers"}]).state
    bears = next(o.id for o in s.permanents("Alice") if o.name == "Grizzly Bears")
    carol = DeclareAttackers(player="Alice", attacks=[(bears, f"o:{_jace(s, 'Carol')}")])
    assert _rule(s, carol) == rule
    offered = {d for a in legal_actions(s, "Alice") if isinstance(a, DeclareAttackers)
               for _, d in a.attacks}
    assert f"o:{_jace(s, 'Bob')}" in offered
    assert f"o:{_jace(s, 'Carol')}" not in offered


def test_combat_damage_to_a_planeswalker_removes_loyalty() -> None:
    run = run_text(TWO, [{"pass_until": "declare_attackers"},
                     {"player": "Alice", "attack": {"Grizzly Bears": "Jace Beleren#2"}},
                     {"pass_until": "end_of_combat"}])
    s = run.state
    walker = s.objects[_jace(s, "Bob")]
    assert walker.counter("loyalty") == 1  # 120.3c
    assert s.players["Bob"].life == 20
