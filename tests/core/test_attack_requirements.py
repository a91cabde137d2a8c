"""`legal_actions` offers only legal attack declarations and damage assignments when
attack requirements (508.1d), a restriction on the whole attack (508.1c) and banding
(702.22) are in play - the bot decks have none of these cards, so the property tests
never meet them. Each position is set up with the scenario runner; every command offered
must be accepted by `decide`, and the offered declarations must be exactly those the
rules allow among the representative ones."""

from __future__ import annotations

from tests.harness import run_text

from arbiter_core.kernel.commands import AssignCombatDamage, DeclareAttackers, PlayerCommand
from arbiter_core.kernel.decide import decide
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.state import Decision, GameState
from arbiter_core.views.legal import legal_actions

IMP_AND_ARBITER = """
name: legal attacks under Maddening Imp and Silent Arbiter
variant: two_headed_giant
start: {turn: 3, active: A1, step: precombat_main}
players:
  - {name: A1, team: A, battlefield: [Grizzly Bears, Savannah Lions], library: ["Forest x 5"]}
  - {name: A2, team: A, battlefield: [Hill Giant], library: ["Forest x 5"]}
  - {name: B1, team: B, battlefield: [Maddening Imp], library: ["Swamp x 5"]}
  - {name: B2, team: B, battlefield: [Silent Arbiter], library: ["Swamp x 5"]}
expect: []
"""

BANDING = """
name: legal attacks and assignments with banding
variant: free_for_all
start: {turn: 5, active: Alice, step: precombat_main}
players:
  - {name: Alice, battlefield: [Benalish Hero, Grizzly Bears, Craw Wurm], library: ["Plains x 5"]}
  - {name: Bob, battlefield: [Benalish Hero, Hill Giant], library: ["Plains x 5"]}
  - {name: Carol, library: ["Plains x 5"]}
expect: []
"""


def _accepted(s: GameState, command: PlayerCommand) -> bool:
    try:
        decide(s, command)
    except RuleViolation:
        return False
    return True


def _names(s: GameState, cmd: DeclareAttackers) -> frozenset[str]:
    return frozenset(s.objects[oid].name for oid, _ in cmd.attacks)


def test_only_declarations_obeying_the_most_requirements_are_offered() -> None:
    run = run_text(IMP_AND_ARBITER, [
        {"player": "A1", "pass": True},
        {"player": "B1", "activate": "Maddening Imp", "ability": 1},
        {"pass_until": "stack_empty"},
        {"player": "B1", "choose": "A1"},
        {"pass_until": "declare_attackers"},
    ])
    s = run.state
    assert any(isinstance(m.pending, Decision) and m.pending.kind == "declare_attackers"
               for m in s.markers.values())
    offered = [a for a in legal_actions(s, "A1") if isinstance(a, DeclareAttackers)]
    assert offered
    assert all(_accepted(s, a) for a in offered)
    # 508.1c allows one attacker, 508.1d demands one of the two required creatures
    assert {_names(s, a) for a in offered} <= {frozenset({"Grizzly Bears"}),
                                              frozenset({"Savannah Lions"})}
    # the declarations left out are illegal: none, the free Hill Giant, everyone
    giant = next(o.id for o in s.permanents("A2"))
    for attacks in ([], [(giant, "B1")],
                    [(o.id, "B1") for o in s.permanents() if o.controller in ("A1", "A2")]):
        assert not _accepted(s, DeclareAttackers(player="A1", attacks=attacks))


def test_band_declarations_and_banding_assignments_are_legal() -> None:
    run = run_text(BANDING, [{"pass_until": "declare_attackers"}])
    s = run.state
    offered = [a for a in legal_actions(s, "Alice") if isinstance(a, DeclareAttackers)]
    bands = [a for a in offered if a.bands]
    assert bands, "a band of the Hero and one creature without banding is offered"
    assert all(_accepted(s, a) for a in offered)
    for band in (b for a in bands for b in a.bands):
        assert sum(s.objects[oid].name != "Benalish Hero" for oid in band) <= 1  # 702.22c
    run = run_text(BANDING, [
        {"pass_until": "declare_attackers"},
        {"player": "Alice", "attack": {"Craw Wurm": "Bob"}},
        {"pass_until": "declare_blockers"},
        {"player": "Bob", "block": {"Benalish Hero#2": "Craw Wurm", "Hill Giant": "Craw Wurm"}},
        {"pass_until": "combat_damage"},
    ])
    s = run.state
    assert not [a for a in legal_actions(s, "Alice") if isinstance(a, AssignCombatDamage)]
    offered_to_bob = [a for a in legal_actions(s, "Bob") if isinstance(a, AssignCombatDamage)]
    assert offered_to_bob  # 702.22j: the defending player assigns the Wurm's damage
    assert all(_accepted(s, a) for a in offered_to_bob)
