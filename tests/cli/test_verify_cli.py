"""`arbiter verify` over games `arbiter play` stored (issue 14): what it says with and
without `ARBITER_ANCHOR_KEY`, `--strict`, a forged snapshot, and `play` anchoring every
ANCHOR_EVERY events and at the end."""

from __future__ import annotations

import dataclasses
import shutil
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arbiter_cli.main import app
from arbiter_core.kernel.hashing import state_hash
from arbiter_runtime import snapshots
from arbiter_runtime.session import GameSession
from arbiter_store import open_store
from arbiter_store.anchoring import ANCHOR_EVERY

GAME = "two_player-2p-seed5"
KEY = "verify-cli-key"
runner = CliRunner()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 2-player game played with the key set (anchored every ANCHOR_EVERY events and at
    the end; snapshots sealed)."""
    path = tmp_path_factory.mktemp("verify") / "game.sqlite"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ARBITER_ANCHOR_KEY", KEY)
        result = runner.invoke(app, ["play", "--players", "2", "--seed", "5", "--variant",
                                     "two_player", "--db", str(path)])
    assert result.exit_code == 0, result.output
    assert "(final)" in result.output
    return path


@pytest.fixture
def db(played: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "copy.sqlite"
    shutil.copyfile(played, copy)
    return copy


def verify(db: Path, *args: str, key: str | None = KEY) -> tuple[int, str]:
    env = {"ARBITER_ANCHOR_KEY": key or ""}
    result = runner.invoke(app, ["verify", "--db", str(db), *args], env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.output


def test_play_anchors_every_n_events_and_at_the_end(played: Path) -> None:
    with open_store(played, read_only=True) as store:
        version = store.stream_version(GAME)
        anchors = store.anchors(GAME)
        assert len(store.snapshots(GAME)) >= 1
    periodic = list(range(ANCHOR_EVERY, version + 1, ANCHOR_EVERY))
    assert [a.version for a in anchors if not a.final] == periodic
    assert [(a.version, a.prev_version) for a in anchors if a.final] == [
        (version, periodic[-1])]
    code, out = verify(played, "--strict")
    assert code == 0, out
    assert "verified:" in out and "signatures checked" in out and "not covered" not in out


def test_without_the_key_verify_says_what_is_not_covered(db: Path) -> None:
    code, out = verify(db, key=None)
    assert code == 0 and "signatures NOT checked" in out and "need the key" in out
    code, out = verify(db, "--strict", key=None)
    assert code == 1 and "--strict" in out


def test_strict_fails_on_an_unanchored_game(tmp_path: Path) -> None:
    path = tmp_path / "unanchored.sqlite"
    result = runner.invoke(app, ["play", "--players", "2", "--seed", "3", "--variant",
                                 "two_player", "--db", str(path)],
                           env={"ARBITER_ANCHOR_KEY": ""})
    assert result.exit_code == 0 and "not anchored" in result.output
    code, out = verify(path)
    assert code == 0 and "not anchored" in out
    code, out = verify(path, "--strict")
    assert code == 1, out


def test_deleting_the_final_anchor_fails_strict(db: Path) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM anchors WHERE final = 1")
    code, out = verify(db)
    assert code == 0 and "not closed by a final anchor" in out
    assert verify(db, "--strict")[0] == 1


def _forge(db: Path) -> int:
    """Rewrite the newest snapshot: P1 at 987 life, its state hash recomputed (what anyone
    with write access to the file can do); returns its version."""
    with sqlite3.connect(db) as conn:
        version, blob, digest = conn.execute(
            "SELECT version, state, state_hash FROM snapshots ORDER BY version DESC").fetchone()
        state = snapshots.decode(blob, digest)
        state.players["P1"] = dataclasses.replace(state.players["P1"], life=987)
        conn.execute("UPDATE snapshots SET state = ?, state_hash = ? WHERE version = ?",
                     (snapshots.encode(state), state_hash(state), version))
    return int(version)


def test_a_forged_snapshot_is_detected_without_the_key(db: Path) -> None:
    version = _forge(db)
    code, out = verify(db, key=None)  # the replay to the snapshot's version tells
    assert code == 1 and "BROKEN" in out, out
    assert f"the snapshot at version {version} does not hold the state the events make" in out
    code, out = verify(db, key=KEY)  # and with the key, its seal does
    assert code == 1 and f"the snapshot at version {version} has an invalid seal" in out


def test_a_forged_snapshot_is_not_loaded_as_real_state(db: Path) -> None:
    _forge(db)
    with open_store(db, anchor_key=KEY) as store:  # as the services open it, with the key
        state = GameSession.load(store, GAME).state
    assert all(p.life != 987 for p in state.players.values())
    with open_store(db, read_only=True) as store:
        assert state_hash(state) == state_hash(GameSession.load(store, GAME,
                                                                use_snapshot=False).state)
