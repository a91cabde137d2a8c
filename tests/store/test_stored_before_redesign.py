"""Stored games are forever: games stored by the engine before the core was reorganised
by CR chapter (issue 11) still verify, anchors and signatures included, and re-decide
with today's engine without a divergence (`arbiter replay --check`).

The fixture `tests/fixtures/stored/before-core-redesign.sqlite.gz` was written by
`arbiter play` at commit 23bc8a9 with `ARBITER_ANCHOR_KEY=stored-before-redesign`:
two-player (seed 2), Two-Headed Giant (seed 2) and Team vs. Team (seed 1). It is never
rewritten; a change that makes these games diverge changes how the engine rules, and
must say so (and be an upcaster, not an edit of the fixture) if it is meant.
"""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arbiter_cli.main import app

FIXTURE = Path(__file__).parent.parent / "fixtures" / "stored" / "before-core-redesign.sqlite.gz"
GAMES = {"pre-two_player": 2842, "pre-two_headed_giant": 1429, "pre-team_vs_team": 4266}
KEY = "stored-before-redesign"
runner = CliRunner()


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("stored") / "before.sqlite"
    with gzip.open(FIXTURE, "rb") as src, path.open("wb") as dst:
        shutil.copyfileobj(src, dst)
    return path


def test_old_games_verify_with_their_signed_anchors(db: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARBITER_ANCHOR_KEY", KEY)
    result = runner.invoke(app, ["verify", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert f"{len(GAMES)} game(s), {sum(GAMES.values())} events" in result.output
    assert f"{len(GAMES)} anchor(s) (signatures checked)" in result.output


def test_a_wrong_key_fails_their_verification(db: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARBITER_ANCHOR_KEY", "not-the-key")
    result = runner.invoke(app, ["verify", "--db", str(db)])
    assert result.exit_code != 0, result.output


@pytest.mark.parametrize("game", sorted(GAMES))
def test_old_games_re_decide_without_divergence(db: Path, game: str) -> None:
    result = runner.invoke(app, ["replay", "--db", str(db), "--game", game, "--check",
                                 "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["divergence"] is None
    assert report["engine_batches_checked"] > 100
