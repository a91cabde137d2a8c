"""`arbiter correct` (issue 16), on SQLite and on PostgreSQL: a judge who proves the role
(an `ARBITER_JUDGES` entry and its password, asked hidden or read from
`ARBITER_JUDGE_PASSWORD` / `ARBITER_JUDGE_LOGIN`) appends a signed correction, after which
`arbiter verify` reports "corrected at N by J" with the signature checked and `arbiter
replay --check` passes; a wrong password, an unknown judge, a missing `ARBITER_JUDGES` and
an N the game cannot back up to are refused with nothing appended (exit 2, or 1 when the
game refuses the correction), in one line and without a traceback."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from arbiter_cli.main import app as cli
from arbiter_core.kernel.shell_loop import owed_marker
from arbiter_gateway.passwords import hash_password
from arbiter_runtime.fold import StoreStates
from arbiter_runtime.play import play_bot_game
from arbiter_store import open_store

GAME = "cli-backup-2p"
JUDGE, PASSWORD = "judge-1", "judge-password-1"
REASON = "a wrong block was allowed"
runner = CliRunner()


@dataclass(frozen=True)
class Played:
    url: str
    head: int
    n: int  # an event after which a player was to act


@pytest.fixture(params=["sqlite", "postgresql"])
def played(request: pytest.FixtureRequest, tmp_path: Path,
           monkeypatch: pytest.MonkeyPatch) -> Iterator[Played]:
    if request.param == "sqlite":
        url = str(tmp_path / "games.sqlite")
    else:
        schemas: Callable[[], str] = request.getfixturevalue("pg_schemas")
        url = schemas()
    for name in ("ARBITER_ANCHOR_KEY", "ARBITER_JUDGE_PASSWORD", "ARBITER_JUDGE_LOGIN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ARBITER_JUDGES", f"{JUDGE}={hash_password(PASSWORD, n=2**10)},"
                                         f"judge-2={hash_password('other', n=2**10)}")
    with open_store(url, auto_migrate=True) as store:
        play_bot_game(store, GAME, 2, 4, "two_player")
        head = store.stream_version(GAME)
        states = StoreStates(store, GAME)
        n = head // 2
        while owed_marker(states(n)) is not None:
            n -= 1
    yield Played(url, head, n)


def correct(p: Played, *extra: str, to: int | None = None, judge: str = JUDGE,
            typed: str | None = None) -> Result:
    args = ["correct", "--db", p.url, "--game", GAME, "--to", str(p.n if to is None else to),
            "--judge", judge, "--reason", REASON, *extra]
    result = runner.invoke(cli, args, input=typed)
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        repr(result.exception))
    return result


def events(p: Played) -> list[str]:
    with open_store(p.url, read_only=True) as store:
        return [e.type for e in store.read_stream(GAME)]


def test_a_judge_corrects_and_verify_and_replay_check_agree(played: Played) -> None:
    made = correct(played, typed=PASSWORD + "\n")  # the password asked, hidden
    assert made.exit_code == 0, made.output
    assert PASSWORD not in made.output
    assert f"corrected at {played.n} by {JUDGE}" in made.output
    kinds = events(played)
    assert len(kinds) == played.head + 1 and kinds[-1] == "GameCorrected"
    with open_store(played.url, read_only=True) as store:
        last = store.read_stream(GAME, played.head + 1)[0]
        assert last.payload["at"] == played.n and last.payload["judge"] == JUDGE
        assert last.metadata["actor"] == f"judge:{JUDGE}"
        state = StoreStates(store, GAME)(played.head + 1)
        assert state.zones == StoreStates(store, GAME)(played.n).zones

    verified = runner.invoke(cli, ["verify", "--db", played.url, "--game", GAME])
    assert verified.exit_code == 0, verified.output
    assert (f"corrected at {played.n} by {JUDGE} (event {played.head + 1}: {REASON}; "
            "signature checked)") in verified.output
    checked = runner.invoke(cli, ["replay", "--check", "--db", played.url, "--game", GAME])
    assert checked.exit_code == 0 and "no divergence" in checked.output, checked.output


def test_a_wrong_password_is_refused(played: Played,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    typed = correct(played, typed="not-the-password\n")
    assert typed.exit_code == 2 and "wrong password" in typed.output, typed.output
    monkeypatch.setenv("ARBITER_JUDGE_PASSWORD", "other")  # judge-2's, not judge-1's
    scripted = correct(played)
    assert scripted.exit_code == 2 and "wrong password" in scripted.output
    assert "GameCorrected" not in events(played) and len(events(played)) == played.head


def test_an_unknown_judge_or_no_judges_are_refused(played: Played,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARBITER_JUDGE_PASSWORD", PASSWORD)
    unknown = correct(played, judge="judge-9")
    assert unknown.exit_code == 2 and "'judge-9' is not a judge" in unknown.output
    assert "password" not in unknown.output  # refused before any password is asked
    monkeypatch.delenv("ARBITER_JUDGES")
    unset = correct(played)
    assert unset.exit_code == 2 and "ARBITER_JUDGES is not set" in unset.output
    assert len(events(played)) == played.head


@pytest.mark.parametrize("where", ["last", "beyond", "zero"])
def test_an_n_out_of_range_is_refused(played: Played, where: str,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARBITER_JUDGE_PASSWORD", PASSWORD)
    to = {"last": played.head, "beyond": played.head + 5, "zero": 0}[where]
    refused = correct(played, to=to)
    assert refused.exit_code == 1, refused.output
    assert f"back up to event {to}" in refused.output
    assert f"events 1-{played.head}" in refused.output
    assert len(events(played)) == played.head


def test_the_judge_login_of_the_clients_is_accepted(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    played: Played) -> None:
    monkeypatch.setenv("ARBITER_JUDGE_LOGIN", f"{JUDGE}:{PASSWORD}")
    made = correct(played)
    assert made.exit_code == 0, made.output
    missing = tmp_path / "missing.sqlite"
    refused = runner.invoke(cli, ["correct", "--db", str(missing), "--game", GAME, "--to",
                                  "1", "--judge", JUDGE, "--reason", REASON])
    assert refused.exit_code == 2 and "file not found" in refused.output
    assert not missing.exists()
