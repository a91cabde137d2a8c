"""A judge's correction through the gateway (issue 16: "back up to event N"), on a game
written by `arbiter play`: only a judge may append it (a seat and an organiser get 403
with the error), the game plays on from the state at N (a creature that died after N is
back on the battlefield, and the seats' next commands are decided against that state),
`arbiter verify` reports "corrected at N by J", `arbiter replay --check` passes, the
replays show the correction, and an event edited after it shows as broken there."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from arbiter_cli.main import app as cli
from arbiter_core.kernel.shell_loop import owed_marker
from arbiter_runtime.fold import StoreStates
from arbiter_store import open_store

from .console_games import play_game
from .harness import memory_system, security
from .helpers import auth, staff

API = "/console/api/games"
runner = CliRunner()


def backup_point(db: Path, game: str) -> tuple[int, int, int]:
    """(N, the creature, its death): N is the last event before the first death of lethal
    damage (704.5g) after which a player was to act, the creature on the battlefield."""
    with open_store(str(db), read_only=True) as store:
        died = next(e for e in store.read_stream(game)
                    if e.rule == "704.5g" and e.payload.get("to_zone") == "graveyard")
        creature = int(died.payload["obj"])
        states = StoreStates(store, game)
        n = died.version - 1
        while owed_marker(s := states(n)) is not None or creature not in s.battlefield:
            n -= 1
    return n, creature, died.version


def battlefield(board: dict[str, Any]) -> set[int]:
    return {p["id"] for p in board["view"]["battlefield"]}


def test_a_judge_backs_a_game_up_and_it_plays_on(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ARBITER_ANCHOR_KEY", raising=False)
    db = tmp_path / "played.sqlite"
    game = play_game(db)
    n, creature, died_at = backup_point(db, game)
    with open_store(str(db), read_only=True) as store:
        head = store.stream_version(game)
    settings = security()
    made: dict[str, Any] = {}

    async def scenario(http: httpx.AsyncClient) -> None:
        organiser, judge = await staff(http)
        seats = {p: (await http.post(f"/games/{game}/join", json={"seat": p},
                                     headers=auth(organiser))).json()["token"]
                 for p in ("P1", "P2")}
        url = f"{API}/{game}/corrections"
        body = {"at": n, "reason": "a wrong block was allowed"}
        assert (await http.post(url, json=body)).status_code == 401
        for token in (seats["P1"], organiser):
            r = await http.post(url, json=body, headers=auth(token))
            assert r.status_code == 403 and "judge" in r.json()["error"], r.text
        r = await http.post(url, json={"at": head, "reason": "x"}, headers=auth(judge))
        assert r.status_code == 409 and "before the last" in r.json()["error"], r.text
        dead = (await http.get(f"{API}/{game}/board", headers=auth(judge))).json()
        assert creature not in battlefield(dead)
        r = await http.post(url, json=body, headers=auth(judge))
        assert r.status_code == 200, r.text
        made.update(r.json())
        assert made == {"game_id": game, "version": head + 1, "at": n, "judge": "judge-1",
                        "reason": "a wrong block was allowed"}
        board = (await http.get(f"{API}/{game}/board", headers=auth(judge))).json()
        assert board["at"] == head + 1 and creature in battlefield(board)
        assert not board["view"]["game_over"]
        assert board["event"]["type"] == "GameCorrected"
        before = (await http.get(f"{API}/{game}/board", params={"at": died_at},
                                 headers=auth(judge))).json()
        assert creature not in battlefield(before)  # history is as it was
        chain = (await http.get(f"{API}/{game}/chain", headers=auth(judge))).json()
        assert chain["verified"] and chain["corrections"][0].startswith(
            f"corrected at {n} by judge-1"), chain
        # the seats play on against the state at N
        played = 0
        for seat, token in seats.items():
            legal = (await http.get(f"/games/{game}/legal", headers=auth(token))).json()
            assert legal["version"] >= head + 1
            actions = [a for a in legal["actions"] if a["type"] != "Concede"]
            if not actions:
                continue
            r = await http.post(f"/games/{game}/commands?wait=10",
                                json={"command": actions[0]}, headers=auth(token))
            assert r.json()["status"] == "applied", (seat, r.text)
            assert r.json()["version"] > head + 1
            played += 1
        assert played

    async def go() -> None:
        with open_store(str(db)) as store:
            async with memory_system(store, settings=settings) as system, \
                    httpx.AsyncClient(base_url=system.base_url, timeout=60) as http:
                await asyncio.wait_for(scenario(http), 180)
    asyncio.run(go())

    monkeypatch.setenv("ARBITER_JUDGES", settings.judges)
    verified = runner.invoke(cli, ["verify", "--db", str(db)])
    assert verified.exit_code == 0, verified.output
    assert (f"corrected at {n} by judge-1 (event {head + 1}: a wrong block was allowed; "
            "signature checked)") in verified.output
    checked = runner.invoke(cli, ["replay", "--check", "--db", str(db), "--game", game])
    assert checked.exit_code == 0 and "no divergence" in checked.output, checked.output
    shown = runner.invoke(cli, ["replay", "--explain", "--from", str(head + 1), "--to",
                                str(head + 1), "--db", str(db), "--game", game, "--json"])
    assert shown.exit_code == 0, shown.output
    assert "GameCorrected" in shown.output
    assert f"judge judge-1 backed the game up to event {n}" in shown.output

    tampered = tmp_path / "tampered.sqlite"  # an event after the correction edited
    shutil.copy(db, tampered)
    with sqlite3.connect(tampered) as conn:
        conn.execute("UPDATE events SET payload = CAST(replace(CAST(payload AS TEXT), "
                     "'P1', 'P2') AS BLOB) WHERE stream_id = ? AND version = ?",
                     (game, head + 2))
        assert conn.total_changes == 1
    broken = runner.invoke(cli, ["verify", "--db", str(tampered)])
    assert broken.exit_code == 1 and f"version {head + 2}" in broken.output, broken.output
