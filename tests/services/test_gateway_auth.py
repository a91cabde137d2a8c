"""Issue 14, over HTTP and WebSocket against the in-memory system: nobody is a judge
without a judge's credentials, seats read only their own outcomes, judges' reads of
hidden information are recorded, the stream authenticates before it sends anything."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json

import httpx
import websockets

from arbiter_gateway.access import derive_seed
from arbiter_store import open_store

from .harness import LOGINS, SECRET, SEED_SECRET, System, memory_system
from .helpers import auth, create_body, login, new_game, settle, staff


def run(scenario: object) -> None:
    async def go() -> None:
        with open_store(":memory:") as store:
            async with memory_system(store) as system:
                await asyncio.wait_for(scenario(system), 120)  # type: ignore[operator]
    asyncio.run(go())


def first_format_token(game_id: str) -> str:
    """A judge token as the gateway used to hand out with every game it created."""
    body = json.dumps({"g": game_id, "r": "judge", "s": None, "n": "00"},
                      separators=(",", ":")).encode()
    sig = hmac.new(SECRET, body, hashlib.sha256).digest()
    b64 = base64.urlsafe_b64encode
    return f"{b64(body).rstrip(b'=').decode()}.{b64(sig).rstrip(b'=').decode()}"


def test_creating_a_game_makes_nobody_a_judge() -> None:
    """The hole: POST /games (even a rejected one, for an existing game id) returned a
    judge token that read every hand, the library order and the seed."""
    async def scenario(system: System) -> None:
        async with httpx.AsyncClient(base_url=system.base_url, timeout=30) as http:
            judge, seats = await new_game(http, "victim", seed=3)
            body = create_body("victim", seed=1)
            anonymous = await http.post("/games?wait=5", json=body)
            assert anonymous.status_code == 401, anonymous.text
            assert "judge_token" not in anonymous.text
            as_seat = await http.post("/games?wait=5", json=body, headers=auth(seats["P1"]))
            assert as_seat.status_code == 403
            as_judge = await http.post("/games?wait=5", json=body, headers=auth(judge))
            assert as_judge.status_code == 403  # judges do not create games
            organiser, _ = await staff(http)
            again = await http.post("/games?wait=5", json=body, headers=auth(organiser))
            assert again.status_code == 409 and "token" not in again.text
            fresh = await http.post("/games?wait=5", json=create_body("mine"),
                                    headers=auth(organiser))
            assert fresh.status_code == 202 and set(fresh.json()) == {
                "game_id", "command_id", "outcome"}
            # the old judge token format, signed with the same secret, is refused
            old = first_format_token("victim")
            assert (await http.get("/games/victim/view", headers=auth(old))).status_code \
                == 401
            # what a seat sees: its own hand, no seed, no library
            mine = (await http.get("/games/victim/view", headers=auth(seats["P1"]))).json()
            assert mine["seed"] is None
            assert all(p["library"] is None for p in mine["players"])
            assert [p["name"] for p in mine["players"] if p["hand"] is not None] == ["P1"]
            # wrong credentials, or an organiser's credential used as a judge's
            for role, name, password in (("judge", LOGINS.judge.name, "wrong"),
                                         ("judge", "nobody", LOGINS.judge.password),
                                         ("judge", LOGINS.organiser.name,
                                          LOGINS.organiser.password),
                                         ("organiser", LOGINS.judge.name,
                                          LOGINS.judge.password)):
                r = await http.post("/auth/token", json={"role": role},
                                    auth=(name, password))
                assert r.status_code == 401, (role, name)
            # a judge's token is for every game: it reads the seed and every hand
            full = (await http.get("/games/victim/view", headers=auth(judge))).json()
            assert all(p["hand"] is not None and p["library"] is not None
                       for p in full["players"])
            assert full["seed"] == derive_seed(SEED_SECRET.encode(), "victim", 3) != 3
            other = (await http.get("/games/mine/view", headers=auth(judge))).json()
            assert other["seed"] is not None
            # the creation is recorded for judges (both seeds), not for organisers
            created = (await http.get("/games/victim/access", headers=auth(judge))).json()
            made = [r for r in created if r["type"] == "GameCreated"]
            assert [(r["client_seed"], r["seed"], r["by"]) for r in made] == [
                (3, full["seed"], LOGINS.organiser.name)]
            seen = (await http.get("/games/victim/access", headers=auth(organiser))).json()
            assert seen and all(r["type"] == "JudgeRead" for r in seen)
            assert "seed" not in json.dumps(seen)
            # a spectator sees no hand, library or seed
            spec = await http.post("/games/victim/spectators", headers=auth(organiser))
            sview = (await http.get("/games/victim/view",
                                    headers=auth(spec.json()["token"]))).json()
            assert sview["viewer"] == "spectator" and sview["seed"] is None
            assert all(p["hand"] is None and p["library"] is None for p in sview["players"])
            assert sview["hand"] == []
            denied = await http.post("/games/victim/spectators", headers=auth(seats["P1"]))
            assert denied.status_code == 403
            # seats come from the organiser only
            assert (await http.post("/games/mine/join", json={"seat": "P1"})).status_code \
                == 401
            assert (await http.post("/games/mine/join", json={"seat": "P1"},
                                    headers=auth(judge))).status_code == 403
    run(scenario)


def test_a_seat_reads_only_its_own_command_outcomes() -> None:
    """The hole: any seat read another seat's outcomes (GET /games/{id}/commands/{cid}),
    rejection reasons included."""
    async def scenario(system: System) -> None:
        async with httpx.AsyncClient(base_url=system.base_url, timeout=30) as http:
            judge, seats = await new_game(http, "outcomes")
            view = await settle(http, "outcomes", judge)
            holder = view["markers"][0]["pending"]["player"]
            other = next(s for s in seats if s != holder)
            url = "/games/outcomes/commands?wait=10"
            bad = await http.post(url, headers=auth(seats[other]), json={
                "command": {"type": "PassPriority", "player": other},
                "command_id": "other-out-of-turn"})
            assert bad.json()["status"] == "rejected"
            good = await http.post(url, headers=auth(seats[holder]), json={
                "command": {"type": "PassPriority", "player": holder},
                "command_id": "holder-passes"})
            assert good.json()["status"] == "applied"
            for cid, sender, reader in (("other-out-of-turn", other, holder),
                                        ("holder-passes", holder, other)):
                theirs = await http.get(f"/games/outcomes/commands/{cid}",
                                        headers=auth(seats[reader]))
                assert theirs.status_code == 200
                assert theirs.json() == {"command_id": cid, "status": "pending"}
                own = await http.get(f"/games/outcomes/commands/{cid}",
                                     headers=auth(seats[sender]))
                assert own.json()["status"] in ("applied", "rejected")
                judged = await http.get(f"/games/outcomes/commands/{cid}",
                                        headers=auth(judge))
                assert judged.json() == own.json()
            organiser, _ = await staff(http)
            assert (await http.get("/games/outcomes/commands/holder-passes",
                                   headers=auth(organiser))).status_code == 403
    run(scenario)


def test_judge_reads_of_hidden_information_are_recorded() -> None:
    async def scenario(system: System) -> None:
        async with httpx.AsyncClient(base_url=system.base_url, timeout=30) as http:
            judge, seats = await new_game(http, "audited")
            organiser, _ = await staff(http)
            before = (await http.get("/games/audited/access", headers=auth(organiser))).json()
            for path in ("/games/audited/view", "/games/audited/events",
                         "/games/audited/audit", "/games/audited/commands/none-such-1"):
                assert (await http.get(path, headers=auth(judge))).status_code == 200
            await http.get("/games/audited/view", headers=auth(seats["P1"]))  # not a judge
            ws_url = system.base_url.replace("http", "ws") + "/games/audited/stream"
            async with websockets.connect(ws_url) as ws:
                await ws.send(json.dumps({"token": judge}))
                assert json.loads(await ws.recv())["kind"] == "hello"
            after = (await http.get("/games/audited/access", headers=auth(organiser))).json()
            new = [r for r in after if r["position"] not in {b["position"] for b in before}]
            assert [r["what"] for r in new] == ["view", "events", "audit", "command",
                                                "stream"]
            assert all(r["type"] == "JudgeRead" and r["by"] == LOGINS.judge.name
                       and r["at"] > 0 for r in new)
            assert (await http.get("/games/audited/access",
                                   headers=auth(seats["P1"]))).status_code == 403
    run(scenario)


def test_the_stream_sends_nothing_before_a_good_token() -> None:
    """The hole: a bad token got a data frame (an error message) before the close."""
    async def scenario(system: System) -> None:
        async with httpx.AsyncClient(base_url=system.base_url, timeout=30) as http:
            _, seats = await new_game(http, "streamed")
            _, elsewhere = await new_game(http, "elsewhere")
        base = system.base_url.replace("http", "ws")
        for first, code in (({"token": "not.a.token"}, 4401), ("[" * 5000, 4401),
                            ({"token": first_format_token("streamed")}, 4401),
                            ({"token": elsewhere["P1"]}, 4403), ({}, 4401)):
            async with websockets.connect(base + "/games/streamed/stream") as ws:
                await ws.send(first if isinstance(first, str) else json.dumps(first))
                try:
                    got = await asyncio.wait_for(ws.recv(), 10)
                except websockets.ConnectionClosed as e:
                    assert e.rcvd is not None and e.rcvd.code == code, e
                else:
                    raise AssertionError(f"sent {got!r} before authenticating")
        async with websockets.connect(base + "/games/streamed/stream") as ws:
            await ws.send(json.dumps({"token": seats["P1"]}))
            hello = json.loads(await ws.recv())
            assert hello == {"kind": "hello", "role": "seat", "seat": "P1"}
    run(scenario)


def test_logins_are_checked_against_hashes_only() -> None:
    """Judge and organiser credentials are configured as scrypt hashes."""
    async def scenario(system: System) -> None:
        gw = system.extra["gateway"]
        for book in (gw.judges, gw.organisers):
            assert all(h.startswith("scrypt:") for h in book.entries.values())
            assert LOGINS.judge.password not in repr(gw.settings)
        async with httpx.AsyncClient(base_url=system.base_url, timeout=30) as http:
            assert await login(http, "judge", LOGINS.judge)
    run(scenario)


def test_credential_settings_take_hashes_only(capsys: object) -> None:
    import io
    import sys

    import pytest
    from pydantic import ValidationError

    from arbiter_gateway.__main__ import main
    from arbiter_gateway.settings import GatewaySettings
    old = sys.stdin
    sys.stdin = io.StringIO("a long password\n")
    try:
        assert main(["hash-password", "--name", "alice"]) == 0
    finally:
        sys.stdin = old
    entry = capsys.readouterr().out.strip()  # type: ignore[attr-defined]
    assert entry.startswith("alice=scrypt:") and "a long password" not in entry
    s = GatewaySettings(judges=entry, organisers=entry)
    from arbiter_gateway.passwords import Credentials
    assert Credentials(s.judge_entries()).verify("alice", "a long password")
    assert not Credentials(s.judge_entries()).verify("alice", "a long passwore")
    for bad in ("alice=a long password", "alice:scrypt:1", "alice=plain,bob=x"):
        with pytest.raises(ValidationError):
            GatewaySettings(judges=bad)
