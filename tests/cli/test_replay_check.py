"""`arbiter replay --check`: a replay with a different engine reports the first event
where it diverges (issue 3), with the recorded engine version, rules edition and card
data hash next to the current ones."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from arbiter_cli import check_cmd
from arbiter_cli.main import app
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import Command
from arbiter_core.kernel.decide import decide as real_decide
from arbiter_core.kernel.shell_loop import LOOP
from arbiter_core.kernel.state import GameState
from arbiter_core.kernel.version import ENGINE_VERSION

GAME = "free_for_all-2p-seed5"
runner = CliRunner()


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("check") / "game.sqlite"
    result = runner.invoke(app, ["play", "--players", "2", "--seed", "5", "--db", str(path)])
    assert result.exit_code == 0, result.output
    return path


def check(db: Path, *extra: str) -> Any:
    return runner.invoke(app, ["replay", "--db", str(db), "--check", *extra])


def test_same_engine_finds_no_divergence(db: Path) -> None:
    result = check(db)
    assert result.exit_code == 0, result.output
    assert "no divergence" in result.stdout
    report = json.loads(check(db, "--json").stdout)
    assert report["divergence"] is None
    assert report["engine_batches_checked"] > 100
    assert all(row["same"] for row in report["provenance"])


def test_other_engine_reports_first_divergent_event(db: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine that deals one more damage than the one that played the game."""
    def other_engine(state: GameState, command: Command) -> Sequence[ev.Event]:
        return [e.model_copy(update={"amount": e.amount + 1})
                if isinstance(e, ev.DamageDealt) else e for e in real_decide(state, command)]

    monkeypatch.setattr(LOOP, "decide", other_engine)  # the shared shell loop's
    monkeypatch.setattr(check_cmd, "ENGINE_VERSION", "9.9.9")
    result = check(db, "--json")
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    d = report["divergence"]
    assert d["stored"]["type"] == "DamageDealt"
    assert d["engine"]["amount"] == d["stored"]["amount"] + 1
    engine_version = report["provenance"][0]
    assert engine_version == {"what": "engine version", "recorded": ENGINE_VERSION,
                              "current": "9.9.9", "same": False}
    # the first DamageDealt of the log is where it diverges
    first = runner.invoke(app, ["replay", "--db", str(db), "--explain", "--json"])
    rows = json.loads(first.stdout)
    assert d["event"] == next(r["version"] for r in rows if r["type"] == "DamageDealt")
    text = check(db)
    assert text.exit_code == 1
    assert f"diverges at event {d['event']}" in text.stdout


def test_check_up_to_an_event_and_bad_options(db: Path) -> None:
    report = json.loads(check(db, "--to", "50", "--json").stdout)
    assert report["events"] == 50 and report["divergence"] is None
    refused = check(db, "--explain")
    assert refused.exit_code == 2 and "cannot be used together" in refused.output
    assert "Traceback" not in refused.output
