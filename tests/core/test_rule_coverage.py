"""Every multiplayer rule (CR 800-811), every rule of starting the game (103), of
Commander (903) and of the casual variants Planechase, Vanguard and Archenemy (901,
902, 904, 704.6c-f) is proven by a scenario in tests/scenarios/, and every deck
construction rule of 100.2 by a scenario or a deck-check case (tests/decks/:
a rule counts when a legal case and an illegal case cite it and the illegal one expects
a violation of it, or one the checker attributes to it: `expect: CARD: 903.5c by 903.4d`).

For each section 800-811 the test takes every rule number from the committed index
(`arbiter_core.kernel.rules_index.RULE_NUMBERS`) and fails, listing them, on any that no
scenario's `rules:` list cites. A section number alone ("807") is a heading: it counts as
cited when any rule of its section is. Every other number - a rule with subrules such as
"800.4" included - must be cited itself.

The exceptions are the rules listed in docs/rule-coverage.md: "not applicable", each
with its reason, and "not yet implemented" - the multiplayer issue's known gaps, a list
that may only shrink: a listed rule that a scenario now cites fails
`test_not_yet_implemented_rules_are_really_uncovered`, and any other uncited rule fails
here at once.

Two further, narrow ways a rule counts, each an explicit list below:

- `INTRODUCING_HEADINGS`: a rule whose CR text only introduces its lettered subrules (it
  ends by announcing "the following" rules and says nothing of its own) counts when each
  of its subrules is covered; the list is checked by hand against the CR text, since
  the committed index holds numbers only.
- `NARROWING_RULES`: a rule that only exempts something from another rule (it can
  cause no violation of its own) counts for deck cases when a legal case cites it and
  an illegal case citing it expects a violation of the rule it narrows (the legal case
  would break that rule if the exemption were not applied; the illegal one shows the
  same check still fires without the exemption).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from tests.deck_cases import deck_cases

from arbiter_core.kernel.rules_index import RULE_NUMBERS

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"
COVERAGE_DOC = ROOT / "docs" / "rule-coverage.md"
#: the multiplayer rules, Commander (903) and the casual variants of issue 17 (901
#: Planechase, 902 Vanguard, 904 Archenemy)
SECTIONS = [*(str(n) for n in range(800, 812)), "901", "902", "903", "904"]
#: rules and their subrules ("100.2": 100.2, 100.2a-d), covered like a section's; "103"
#: is the whole section (starting the game)
RULE_GROUPS = ["100.2", "103", "704.6c", "704.6d", "704.6e", "704.6f"]

#: rules whose CR text only introduces their subrules ("... subject to the following
#: ... rules."), covered when all their subrules are (see the module docstring)
INTRODUCING_HEADINGS = frozenset({"903.5"})
#: rule -> the rule it narrows: 903.4c leaves reminder text out of the color identity
#: that 903.5c checks (see the module docstring)
NARROWING_RULES = {"903.4c": "903.5c"}

NOT_APPLICABLE = "not applicable"
NOT_IMPLEMENTED = "not yet implemented"
_ROW = re.compile(r"^\|\s*(?P<rule>\d{3}(?:\.\d+[a-z]?)?)\s*\|\s*(?P<status>[^|]+?)\s*\|"
                  r"\s*(?P<reason>.*?)\s*\|\s*$")


def section_of(rule: str) -> str:
    return rule.split(".")[0]


def in_group(rule: str, group: str) -> bool:
    if "." not in group:
        return section_of(rule) == group
    return rule == group or re.fullmatch(re.escape(group) + "[a-z]", rule) is not None


def rules_in(section: str) -> list[str]:
    return sorted((r for r in RULE_NUMBERS if in_group(r, section)), key=_order)


def _order(rule: str) -> tuple[int, int, str]:
    m = re.fullmatch(r"(\d{3})(?:\.(\d+)([a-z]?))?", rule)
    assert m is not None, rule
    return int(m[1]), int(m[2] or -1), m[3] or ""


def cited_rules() -> dict[str, list[Path]]:
    """Rule number -> the scenario files whose `rules:` list cites it."""
    out: dict[str, list[Path]] = {}
    for path in sorted(SCENARIOS.rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            continue
        for rule in data.get("rules") or []:
            out.setdefault(str(rule), []).append(path)
    return out


def deck_checked_rules() -> dict[str, list[Path]]:
    """Rule number -> the deck-check cases that check it: cited by a legal case and by
    an illegal case that expects a violation of it."""
    cases = deck_cases()
    out: dict[str, list[Path]] = {}
    for rule in {r for c in cases for r in c.rules}:
        legal = [c.path for c in cases if rule in c.rules and c.expect is None]
        expected = NARROWING_RULES.get(rule, rule)
        broken = [c.path for c in cases
                  if rule in c.rules and c.expects_violation_of(expected)]
        if legal and broken:
            out[rule] = legal + broken
    return out


def covering() -> dict[str, list[Path]]:
    """Scenarios and deck-check cases by the rules they prove."""
    out = {rule: list(paths) for rule, paths in cited_rules().items()}
    for rule, paths in deck_checked_rules().items():
        out.setdefault(rule, []).extend(paths)
    for heading in INTRODUCING_HEADINGS:
        subrules = [r for r in RULE_NUMBERS if in_group(r, heading) and r != heading]
        if subrules and all(r in out for r in subrules):
            out.setdefault(heading, []).extend(p for r in subrules for p in out[r])
    return out


def coverage_rows() -> dict[str, tuple[str, str]]:
    """Rule number -> (status, reason) from the tables of docs/rule-coverage.md."""
    rows: dict[str, tuple[str, str]] = {}
    for line in COVERAGE_DOC.read_text(encoding="utf-8").splitlines():
        m = _ROW.match(line)
        if m:
            assert m["rule"] not in rows, f"{m['rule']} is listed twice in {COVERAGE_DOC.name}"
            rows[m["rule"]] = (m["status"].strip().lower(), m["reason"].strip())
    return rows


def not_applicable() -> set[str]:
    return {r for r, (status, _) in coverage_rows().items() if status == NOT_APPLICABLE}


def uncovered(section: str) -> list[str]:
    cited = covering()
    exempt = not_applicable()
    missing = []
    for rule in rules_in(section):
        if rule == section and "." not in section:  # the section heading
            if not any(section_of(r) == section for r in cited):
                missing.append(rule)
            continue
        if rule not in cited and rule not in exempt:
            missing.append(rule)
    return missing


@pytest.mark.parametrize("section", [*SECTIONS, *RULE_GROUPS])
def test_every_rule_of_the_section_is_cited_by_a_scenario(section: str) -> None:
    rows = coverage_rows()
    missing = [r for r in uncovered(section) if rows.get(r, ("", ""))[0] != NOT_IMPLEMENTED]
    assert not missing, (
        f"CR {section}: no scenario in tests/scenarios cites {', '.join(missing)} (nor a "
        "legal and an illegal deck-check case in tests/decks), and docs/rule-coverage.md "
        "doesn't list it as a known gap")


def test_deck_cases_count_only_when_they_check_the_rule() -> None:
    """A citation without a legal case and an illegal case expecting the rule is none."""
    checked = deck_checked_rules()
    assert {"100.2", "100.2a", "100.2d", "100.4a"} <= set(checked)
    cited_only = {r for c in deck_cases() for r in c.rules} - set(checked)
    assert "702.139a" in cited_only  # cited by an illegal case only


def test_introducing_headings_count_only_with_all_their_subrules() -> None:
    """903.5 counts through 903.5a-e; a heading with an uncovered subrule would not."""
    cited = covering()
    for heading in INTRODUCING_HEADINGS:
        subrules = [r for r in RULE_NUMBERS if in_group(r, heading) and r != heading]
        assert subrules, f"{heading} has no subrules: it can't be an introducing heading"
        assert (heading in cited) == all(r in cited for r in subrules)
    assert "903.5" in cited


def test_narrowing_rules_need_an_illegal_case_of_the_narrowed_rule() -> None:
    for rule, narrowed in NARROWING_RULES.items():
        assert rule in RULE_NUMBERS and narrowed in RULE_NUMBERS
        checked = deck_checked_rules()
        if rule in checked:
            assert any(c.expects_violation_of(narrowed) and rule in c.rules
                       for c in deck_cases())


def test_coverage_doc_rows_are_well_formed() -> None:
    rows = coverage_rows()
    assert rows, "docs/rule-coverage.md lists no rules"
    for rule, (status, reason) in rows.items():
        assert rule in RULE_NUMBERS, f"{rule} is not a rule number of the committed index"
        assert section_of(rule) in SECTIONS or any(in_group(rule, g) for g in RULE_GROUPS), \
            f"{rule} is not a rule this test covers (800-811, {', '.join(RULE_GROUPS)})"
        assert status in (NOT_APPLICABLE, NOT_IMPLEMENTED), f"{rule}: unknown status {status!r}"
        assert len(reason) >= 20, f"{rule}: give the reason"


def test_not_applicable_rules_are_not_also_cited() -> None:
    """An exception that a scenario now proves is stale: remove it from the list."""
    cited = covering()
    stale = sorted((r for r in not_applicable() if r in cited), key=_order)
    assert not stale, f"cited by scenarios but listed as not applicable: {stale}"


def test_not_yet_implemented_rules_are_really_uncovered() -> None:
    cited = covering()
    rows = coverage_rows()
    done = sorted((r for r, (status, _) in rows.items()
                   if status == NOT_IMPLEMENTED and r in cited), key=_order)
    assert not done, f"cited by scenarios but listed as not yet implemented: {done}"
