"""`arbiter scenario run` on hostile files (issue 14): each gets a FAIL line naming the
file and the field or place, the cost is bounded (size, depth, integers, aliases, card
copies, time), and the batch goes on to the next file."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arbiter_cli import scenario_cmd
from arbiter_cli.main import app

runner = CliRunner()

LEGAL = """name: {name}
variant: two_player
seed: 1
start: {{turn: 3, active: Alice, step: precombat_main}}
players:
  - name: Alice
    battlefield: [{battlefield}]
    library: ["{library}"]
  - name: Bob
    library: ["Island x 10"]
expect:
  - {{life: {{Bob: 20}}}}
"""


def legal(name: str = "Bob is at 20", battlefield: str = "Grizzly Bears",
          library: str = "Plains x 10") -> str:
    return LEGAL.format(name=name, battlefield=battlefield, library=library)


BOMB = "\n".join(["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"] + [
    f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, "
    f"*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}]" for i in range(1, 10)]) + "\n"

#: file name -> (content, what its FAIL line must say)
HOSTILE: dict[str, tuple[bytes, str]] = {
    "deep.yaml": (("name: " + "[" * 50_000 + "]" * 50_000 + "\n").encode(),
                  "nested more than 32 levels deep"),
    "digits.yaml": (legal().replace("seed: 1", "seed: " + "9" * 4300).encode(),
                    "an integer of 4300 digits; at most 18"),
    "utf16.yaml": (legal().encode("utf-16"), "UTF-16 or UTF-32 text; scenarios are UTF-8"),
    "utf16-nobom.yaml": (legal().encode("utf-16-le"), "NUL bytes"),
    "binary.yaml": (bytes(range(256)) * 8, "NUL bytes"),
    "latin1.yaml": (legal(name="Caf\xe9").encode("latin-1"), "not UTF-8 text"),
    "bomb.yaml": (BOMB.encode(), "expands to more than 100000 values"),
    "copies.yaml": (legal(library="Island x 1000000000").encode(),
                    "players[0].library: Value error, 'Island x 1000000000': at most "
                    "1000 copies of a card"),
    "many-copies.yaml": (legal(library="Island x 999", battlefield=", ".join(
        ['"Island x 999"'] * 30)).encode(), "players: the zones list more than 20000 cards"),
    "duplicate.yaml": (("name: one\n" + legal(name="two")).encode(), "duplicate key 'name'"),
    "negative.yaml": (legal(battlefield='{card: Grizzly Bears, counters: {"+1/+1": -1}}'
                            ).encode(), "counters.+1/+1: Input should be greater than or "
                                        "equal to 0"),
    "huge.yaml": (b"name: x\n" + b"# padding\n" * 30_000, "a scenario file is at most"),
    "listkey.yaml": (b"? [a, b]\n: 1\n", "a mapping key must be a plain value"),
}


@pytest.fixture
def batch(tmp_path: Path) -> Path:
    for name, (content, _) in HOSTILE.items():
        (tmp_path / name).write_bytes(content)
    (tmp_path / "zz-legal.yaml").write_text(legal(), encoding="utf-8")
    (tmp_path / "zz-markup.yaml").write_text(legal(name="'[/] [bold red]x[/bold red'"),
                                             encoding="utf-8")
    return tmp_path


def test_each_hostile_file_fails_alone_and_the_batch_goes_on(batch: Path) -> None:
    result = runner.invoke(app, ["scenario", "run", str(batch)])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code == 1 and "Traceback" not in result.output
    lines = result.output.splitlines()
    for name, (_, reason) in HOSTILE.items():
        line = next((ln for ln in lines if str(batch / name) in ln), None)
        assert line is not None and line.startswith("FAIL"), (name, result.output[-3000:])
        assert reason in line, (name, line[:500])
    assert "PASS Bob is at 20" in lines
    assert "PASS [/] [bold red]x[/bold red" in lines  # markup shown, not interpreted
    assert lines[-1] == f"scenarios: 2 passed, {len(HOSTILE)} failed"


def test_json_output_for_hostile_files(batch: Path) -> None:
    result = runner.invoke(app, ["scenario", "run", str(batch), "--json"])
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert len(rows) == len(HOSTILE) + 2
    assert sum(row["passed"] for row in rows) == 2


def test_a_scenario_that_runs_too_long_is_stopped(batch: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    def slow(path: Path) -> object:
        time.sleep(30)
        raise AssertionError("not stopped")

    monkeypatch.setattr(scenario_cmd, "run_scenario", slow)
    result = scenario_cmd.run_one(batch / "zz-legal.yaml", seconds=0.2)
    assert not result.passed and "stopped after 0.2 s" in result.failures[0]
