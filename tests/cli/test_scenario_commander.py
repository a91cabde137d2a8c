"""The Commander keys of a scenario (issue 15): each wrong value fails the run."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbiter_scenarios.runner import run_scenario

ROOT = Path(__file__).resolve().parents[2]
DIR = ROOT / "tests" / "scenarios" / "commander"


@pytest.mark.parametrize(("file", "right", "wrong"), [
    ("third-cast-costs-four-more.yaml", "commander_tax: {player: Ann, n: 4}",
     "commander_tax: {player: Ann, n: 2}"),
    ("twenty-one-damage-loses.yaml",
     'commander_damage: {to: Ben, from: "Isamaru, Hound of Konda", n: 21}',
     'commander_damage: {to: Ben, from: "Isamaru, Hound of Konda", n: 20}'),
    ("twenty-one-damage-loses.yaml", '{"Isamaru, Hound of Konda": 19}',
     '{"Isamaru, Hound of Konda": 17}'),
    ("starting-life-and-command-zone.yaml", 'commander: "Krenko, Mob Boss"',
     'commander: "Isamaru, Hound of Konda"'),
    ("brawl-two-player-life.yaml", "{brawl: true}", "{brawl: false}"),
])
def test_a_wrong_value_fails(tmp_path: Path, file: str, right: str, wrong: str) -> None:
    text = (DIR / file).read_text(encoding="utf-8")
    assert right in text
    assert run_scenario(DIR / file).passed
    bad = tmp_path / file
    bad.write_text(text.replace(right, wrong, 1), encoding="utf-8")
    result = run_scenario(bad)
    assert not result.passed, result
