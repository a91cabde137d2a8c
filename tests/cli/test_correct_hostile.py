"""Hostile arguments to `arbiter correct` (issue 16), the one command that appends to a
store it is given: a clear error, exit code 2, no traceback, and a file that is not an
Arbiter store (another application's SQLite database, an empty file, a text file) is
refused and left byte for byte as it was, even by a judge who proves the role."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arbiter_cli.main import app
from arbiter_gateway.passwords import hash_password

runner = CliRunner()
JUDGE, PASSWORD = "judge-1", "judge-password-1"
HOSTILE_IDS = ["[/]", "[link=file:///etc/passwd]x[/link]", "x" * 100_000, "a\x1b[31mb",
               "\x00", "line\nbreak", ""]
HOSTILE_DBS = ["", "sqlite://relative", "sqlite://", "nosuch://x", "\x00",
               "/nonexistent/x.db", "postgresql://nobody@127.0.0.1:1/none?connect_timeout=1"]


ENV = {"ARBITER_JUDGES": f"{JUDGE}={hash_password(PASSWORD, n=2**10)}",
       "ARBITER_JUDGE_PASSWORD": PASSWORD, "ARBITER_ANCHOR_KEY": ""}


def run(db: str, game: str = "g", judge: str = JUDGE, to: str = "3") -> tuple[int, str]:
    result = runner.invoke(app, ["correct", "--db", db, "--game", game, "--to", to,
                                 "--judge", judge, "--reason", "hostile"], env=ENV)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        repr(result.exception))
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def test_a_foreign_file_is_refused_and_left_unchanged(foreign: list[Path]) -> None:
    for path in foreign:
        before = hashlib.sha256(path.read_bytes()).hexdigest()
        code, out = run(str(path))
        assert code == 2 and "not an Arbiter event store" in out, out
        assert hashlib.sha256(path.read_bytes()).hexdigest() == before


@pytest.mark.parametrize("db", HOSTILE_DBS, ids=repr)
def test_hostile_store_urls(db: str) -> None:
    code, out = run(db)
    assert code == 2 and "error" in out, out


@pytest.mark.parametrize("game", HOSTILE_IDS, ids=lambda g: repr(g[:20]))
def test_hostile_game_ids(tmp_path: Path, game: str) -> None:
    code, out = run(str(tmp_path / "x.sqlite"), game=game)
    assert code == 2 and len(out) < 2000, out[:300]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    path = tmp_path_factory.mktemp("hostile-correct") / "game.sqlite"
    result = runner.invoke(app, ["play", "--players", "2", "--seed", "2", "--variant",
                                 "two_player", "--db", str(path), "--game", "g"],
                           env={"ARBITER_ANCHOR_KEY": ""})
    assert result.exit_code == 0, result.output
    return str(path), hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("judge", ["", "[bold]j[/bold]", "j" * 100_000, "a\nb", "judge-2"])
def test_hostile_judge_names(played: tuple[str, str], judge: str) -> None:
    code, out = run(played[0], judge=judge)
    assert code == 2 and len(out) < 2000, out[:300]
    assert "not a judge" in out, out[:300]
    assert hashlib.sha256(Path(played[0]).read_bytes()).hexdigest() == played[1]


@pytest.mark.parametrize("to", ["-1", "nan", "99999999999999999999999"])
def test_hostile_numbers(played: tuple[str, str], to: str) -> None:
    code, out = run(played[0], to=to)
    assert code in (1, 2) and "Traceback" not in out and len(out) < 2000, out
    assert hashlib.sha256(Path(played[0]).read_bytes()).hexdigest() == played[1]
