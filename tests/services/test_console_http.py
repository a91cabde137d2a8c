"""The judge console's API over HTTP (issue 16), against the in-memory system: what each
role may read of a game (judges all of it, recorded; a seat its own and a Two-Headed
Giant teammate's hand, 810.5; a spectator no hidden information), the board and the
cause chain of a game written by `arbiter play`, the filters, the hash chain of a
tampered log, the scenario export, and nothing on a page from outside the gateway."""

from __future__ import annotations

import asyncio
import re
import shutil
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from arbiter_runtime.play import team_names
from arbiter_store import open_store

from .console_games import died_of_lethal_damage, play_game
from .harness import System, memory_system, security
from .helpers import auth, create_body, settle, staff

API = "/console/api/games"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    db = tmp_path_factory.mktemp("console") / "played.sqlite"
    return db, play_game(db)


def on_store(db: str, scenario: Callable[[System, httpx.AsyncClient], Awaitable[None]],
             **settings: object) -> None:
    async def go() -> None:
        with open_store(db) as store:
            async with memory_system(store, settings=security(**settings)) as system, \
                    httpx.AsyncClient(base_url=system.base_url, timeout=60) as http:
                await asyncio.wait_for(scenario(system, http), 180)
    asyncio.run(go())


async def get(http: httpx.AsyncClient, path: str, token: str, **params: Any) -> Any:
    r = await http.get(path, params=params, headers=auth(token))
    assert r.status_code == 200, (path, r.status_code, r.text)
    return r.json()


def hands(board: dict[str, Any]) -> dict[str, bool]:
    return {p["name"]: p["hand"] is not None for p in board["view"]["players"]}


def test_each_role_sees_what_the_rules_let_it(tmp_path: Path) -> None:
    """Two-Headed Giant over HTTP: a seat sees its own hand and its teammate's (810.5),
    never the other team's nor any library; a spectator sees no hand; a judge sees
    everything and each console read is in the game's access records."""
    async def scenario(system: System, http: httpx.AsyncClient) -> None:
        organiser, judge = await staff(http)
        body = create_body("console-2hg", 4, seed=7, deck_size=20, variant="two_headed_giant")
        for p, team in zip(body["players"], team_names("two_headed_giant", 4), strict=True):
            p["team"] = team
        r = await http.post("/games?wait=10", json=body, headers=auth(organiser))
        assert r.json()["outcome"]["status"] == "applied", r.text
        await settle(http, "console-2hg", judge)
        seats = {}
        for p in ("P1", "P2", "P3", "P4"):
            j = await http.post("/games/console-2hg/join", json={"seat": p},
                                headers=auth(organiser))
            seats[p] = j.json()["token"]
        spectator = (await http.post("/games/console-2hg/spectators",
                                     headers=auth(organiser))).json()["token"]
        board = f"{API}/console-2hg/board"
        everything = await get(http, board, judge)
        teams = {p["name"]: p["team"] for p in everything["view"]["players"]}
        assert all(hands(everything).values())
        assert all(p["library"] is not None for p in everything["view"]["players"])
        for seat, token in seats.items():
            mine = await get(http, board, token)
            assert mine["view"]["viewer"] == "seat" and mine["view"]["seed"] is None
            assert hands(mine) == {p: teams[p] == teams[seat] for p in teams}, seat
            assert all(p["library"] is None for p in mine["view"]["players"])
            # the timeline: types and rules, no lines (they name hidden cards)
            page = await get(http, f"{API}/console-2hg/timeline", token, limit=50)
            assert page["rows"] and all(r["summary"] is None for r in page["rows"])
            r = await http.get(f"{API}/console-2hg/timeline", params={"card": "Forest"},
                               headers=auth(token))
            assert r.status_code == 403
            for judges_only in ("why?at=1", "scenario?at=5"):
                r = await http.get(f"{API}/console-2hg/{judges_only}", headers=auth(token))
                assert r.status_code == 403, judges_only
        public = await get(http, board, spectator)
        assert not any(hands(public).values()) and public["view"]["seed"] is None
        other = await http.get(f"{API}/other-game/board", headers=auth(seats["P1"]))
        assert other.status_code == 403
        assert (await http.get(board)).status_code == 401
        reads = await get(http, "/games/console-2hg/access", judge)
        what = [r["what"] for r in reads if r["type"] == "JudgeRead"]
        assert "console board at end" in what
        assert "console timeline from 0" not in what  # only the judge's reads are recorded
        await get(http, f"{API}/console-2hg/timeline", judge)
        reads = await get(http, "/games/console-2hg/access", judge)
        assert "console timeline from 0" in [r.get("what") for r in reads]
    on_store(":memory:", scenario)


def test_board_why_filters_and_export_of_a_played_game(played: tuple[Path, str],
                                                       tmp_path: Path) -> None:
    db = tmp_path / "copy.sqlite"
    shutil.copy(played[0], db)
    game = played[1]
    with open_store(str(db), read_only=True) as store:
        died, card, owner = died_of_lethal_damage(store, game)
        total = store.stream_version(game)

    async def scenario(system: System, http: httpx.AsyncClient) -> None:
        organiser, judge = await staff(http)
        listed = await get(http, API, judge)
        (row,) = listed["games"]
        assert row == {**row, "game_id": game, "variant": "two_player", "events": total,
                       "status": "finished", "players": ["P1", "P2"]}
        assert (await get(http, API, organiser, q="nothing-like-it"))["total"] == 0
        before = await get(http, f"{API}/{game}/board", judge, at=died - 1)
        after = await get(http, f"{API}/{game}/board", judge, at=died)

        def graveyard(b: dict[str, Any]) -> list[int]:
            (p,) = [p for p in b["view"]["players"] if p["name"] == owner]
            return [c["id"] for c in p["graveyard"]]

        assert card not in graveyard(before) and card in graveyard(after)
        assert after["event"]["rule"] == "704.5g" and "dies" in after["event"]["summary"]
        # stepping back and forth gives the same boards as a fresh read
        again = await get(http, f"{API}/{game}/board", judge, at=died - 1)
        assert again == before
        why = await get(http, f"{API}/{game}/why", judge, at=died)
        chain = why["chain"]
        assert chain[0]["rule"] == "704.5g" and chain[0]["version"] == died
        assert chain[1]["kind"] == "work" and chain[1]["type"] == "check_sba"
        assert chain[-1]["kind"] == "command" and chain[-1]["actor"] in ("P1", "P2")
        assert all(c["rule_url"] is None for c in chain)  # no CR address configured
        # filters: rule (and its subrules), kind, player, card name
        by_rule = await get(http, f"{API}/{game}/timeline", judge, rule="704.5g")
        for _ in range(100):
            if by_rule["complete"]:
                break
            await asyncio.sleep(0.1)
            by_rule = await get(http, f"{API}/{game}/timeline", judge, rule="704.5g")
        assert by_rule["complete"] and by_rule["matching"] >= 1
        assert {r["rule"] for r in by_rule["rows"]} == {"704.5g"}
        assert died in [r["version"] for r in by_rule["rows"]]
        sba = await get(http, f"{API}/{game}/timeline", judge, rule="704")
        assert sba["matching"] >= by_rule["matching"]
        assert all(r["rule"].startswith("704.") for r in sba["rows"])
        spells = await get(http, f"{API}/{game}/timeline", judge, kind="SpellCast",
                           player="P1")
        assert spells["rows"] and all(r["type"] == "SpellCast" and r["actor"] == "P1"
                                      for r in spells["rows"])
        name = after["event"]["summary"].split(" (#")[0]
        cards = await get(http, f"{API}/{game}/timeline", judge, card=name, limit=500)
        assert died in [r["version"] for r in cards["rows"]]
        page = await get(http, f"{API}/{game}/timeline", judge, offset=died - 1, limit=3)
        assert [r["version"] for r in page["rows"]] == [died, died + 1, died + 2]
        chain_status = await get(http, f"{API}/{game}/chain", judge)
        assert chain_status["verified"] and chain_status["broken_at"] is None
        export = await get(http, f"{API}/{game}/scenario", judge, at=died)
        assert export["yaml"].startswith("#") or "players" in export["yaml"]
        assert name in export["yaml"]
    on_store(str(db), scenario)


def test_a_tampered_log_shows_broken_at_its_first_bad_event(played: tuple[Path, str],
                                                            tmp_path: Path) -> None:
    db = tmp_path / "tampered.sqlite"
    shutil.copy(played[0], db)
    game = played[1]
    with sqlite3.connect(db) as conn:  # an operator's "fix": P2 made P1 in two events
        found = conn.execute(
            "SELECT version FROM events WHERE stream_id = ? AND version >= 50 AND "
            "CAST(payload AS TEXT) LIKE '%\"P2\"%' ORDER BY version LIMIT 2",
            (game,)).fetchall()
        first, second = found[0][0], found[1][0]
        conn.execute("UPDATE events SET payload = replace(payload, '\"P2\"', '\"P1\"') "
                     "WHERE stream_id = ? AND version IN (?, ?)", (game, first, second))

    async def scenario(system: System, http: httpx.AsyncClient) -> None:
        _, judge = await staff(http)
        status = await get(http, f"{API}/{game}/chain", judge)
        assert not status["verified"] and status["broken_at"] == first, status
    on_store(str(db), scenario)


#: an address: scheme-relative or absolute, but the gateway's own (`location.host`)
OUTSIDE = re.compile(r"""(?:https?:|wss?:)?//(?!\$\{location\.host\})[^\s"'`)<>]+""")


def test_pages_and_assets_stay_inside_the_gateway_and_cr_links_are_configured(
        played: tuple[Path, str], tmp_path: Path) -> None:
    """No page or asset names an address outside the gateway; CR links appear only when
    ARBITER_CR_BASE is set."""
    db = tmp_path / "copy.sqlite"
    shutil.copy(played[0], db)
    game = played[1]

    async def unset(system: System, http: httpx.AsyncClient) -> None:
        _, judge = await staff(http)
        assert (await get(http, "/console/api/config", judge)) == {"cr_base": None}
        pages = ["/console", f"/console/games/{game}"]
        assets: set[str] = set()
        for page in pages:
            r = await http.get(page)
            assert r.status_code == 200 and "text/html" in r.headers["content-type"]
            assert "default-src 'self'" in r.headers["content-security-policy"]
            assets |= set(re.findall(r'(?:src|href)="(/console/static/[^"]+)"', r.text))
            assert not OUTSIDE.findall(r.text), page
        # the API's docs page: Swagger UI from the gateway itself
        docs = await http.get("/docs")
        assert docs.status_code == 200 and not OUTSIDE.findall(docs.text)
        docs_assets = re.findall(r"""['"](/docs/static/[^'"]+)['"]""", docs.text)
        assert len(docs_assets) >= 3
        for path in docs_assets:
            assert (await http.get(path)).status_code == 200, path
        assert (await http.get("/redoc")).status_code == 404
        seen = set()
        while assets:
            path = assets.pop()
            seen.add(path)
            r = await http.get(path)
            assert r.status_code == 200, path
            text = r.text.replace("http://www.w3.org/2000/svg", "")  # a namespace name
            assert not OUTSIDE.findall(text), (path, OUTSIDE.findall(text))
            for module in re.findall(r'from "\./([^"]+)"', text):
                if f"/console/static/{module}" not in seen:
                    assets.add(f"/console/static/{module}")
        assert {"/console/static/game.js", "/console/static/board.js",
                "/console/static/common.js", "/console/static/console.css"} <= seen
        why = await get(http, f"{API}/{game}/why", judge, at=3)
        assert all(c["rule_url"] is None for c in why["chain"])

    async def configured(system: System, http: httpx.AsyncClient) -> None:
        _, judge = await staff(http)
        config = await get(http, "/console/api/config", judge)
        assert config == {"cr_base": "https://rules.example/cr/{rule}"}
        why = await get(http, f"{API}/{game}/why", judge, at=3)
        assert why["chain"][0]["rule_url"] == \
            f"https://rules.example/cr/{why['chain'][0]['rule']}"
    on_store(str(db), unset)
    on_store(str(db), configured, cr_base="https://rules.example/cr/{rule}")


def test_hostile_queries_get_typed_answers(played: tuple[Path, str], tmp_path: Path) -> None:
    """Out-of-range events, malformed filters and unknown games: 404 or 422 naming the
    field, never a 500."""
    db = tmp_path / "copy.sqlite"
    shutil.copy(played[0], db)
    game = played[1]

    async def scenario(system: System, http: httpx.AsyncClient) -> None:
        _, judge = await staff(http)
        cases: list[tuple[str, dict[str, Any], int]] = [
            (f"{API}/{game}/board", {"at": 10**9}, 404),
            (f"{API}/{game}/board", {"at": -1}, 422),
            (f"{API}/{game}/board", {"at": "x"}, 422),
            (f"{API}/{game}/why", {"at": 0}, 422),
            (f"{API}/{game}/why", {"at": 10**9}, 404),
            (f"{API}/{game}/scenario", {}, 422),
            (f"{API}/{game}/timeline", {"rule": "'; drop"}, 422),
            (f"{API}/{game}/timeline", {"kind": "K" * 100}, 422),
            (f"{API}/{game}/timeline", {"kind": ["A"] * 50}, 422),
            (f"{API}/{game}/timeline", {"limit": 10**6}, 422),
            (f"{API}/{game}/timeline", {"offset": 10**9}, 200),
            (f"{API}/no-such-game/board", {}, 404),
            (f"{API}/no-such-game/timeline", {}, 404),
            (f"{API}/bad%20id/board", {}, 404),
            (f"{API}", {"status": "sideways"}, 422),
        ]
        for path, params, status in cases:
            r = await http.get(path, params=params, headers=auth(judge))
            assert r.status_code == status, (path, params, r.status_code, r.text)
            assert "error" in r.json() or status == 200
        page = (await http.get(f"{API}/{game}/timeline", params={"offset": 10**9},
                               headers=auth(judge))).json()
        assert page["rows"] == []
    on_store(str(db), scenario)
