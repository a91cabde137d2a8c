"""The generated index of Comprehensive Rules numbers (libs/arbiter_core/rules_index.py)."""

from __future__ import annotations

import re
from pathlib import Path

from arbiter_core.kernel.rules_index import CR_EDITION, RULE_NUMBERS, is_rule

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"

KNOWN = [
    "100",
    "100.1",
    "100.1a",
    "103.1",
    "103.1a",
    "117.3a",
    "119.1d",  # printed with a stray period after the letter
    "606.5",  # printed without the period after the number
    "613.1g",
    "704",
    "704.5",
    "704.5g",
    "704.5j",
    "807.4a",
    "807.4c",
    "810.9a",
    "810.11",
]

UNKNOWN = ["704.5l", "704.5o", "999.9z", "", "1", "704.", "704.5g.", "Glossary", "100.1 a"]


def test_known_rule_numbers_exist() -> None:
    missing = [n for n in KNOWN if not is_rule(n) or n not in RULE_NUMBERS]
    assert missing == []


def test_unknown_rule_numbers_do_not_exist() -> None:
    present = [n for n in UNKNOWN if is_rule(n)]
    assert present == []


def test_count_is_plausible() -> None:
    assert len(RULE_NUMBERS) > 2000


def test_edition() -> None:
    assert CR_EDITION == "2026-01-16"


def test_only_numbers_are_listed() -> None:
    shape = re.compile(r"\d{3}(\.\d+[a-z]?)?")
    assert all(shape.fullmatch(n) for n in RULE_NUMBERS)
    # subrule letters skip "l" and "o" in the CR
    assert not any(n[-1] in "lo" for n in RULE_NUMBERS)


def test_every_subrule_has_its_rule_and_section() -> None:
    for n in RULE_NUMBERS:
        section, _, rest = n.partition(".")
        assert section in RULE_NUMBERS, n
        if rest and rest[-1].isalpha():
            assert n[:-1] in RULE_NUMBERS, n


def test_scenario_rule_citations_exist() -> None:
    """Every number in a scenario's `rules:` list is a rule of this CR edition."""
    import yaml  # local import: only this test needs it

    bad: list[str] = []
    for path in sorted(SCENARIOS.rglob("*.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        rules = doc.get("rules", []) if isinstance(doc, dict) else []
        bad.extend(f"{path.name}: {r!r}" for r in rules if not (isinstance(r, str) and is_rule(r)))
    assert bad == []
