"""Small HTTP helpers for gateway tests."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from arbiter_gateway.logins import Login, StaffLogins
from arbiter_runtime.botgame import start_command

from .harness import LOGINS


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


async def login(http: httpx.AsyncClient, role: str, who: Login) -> str:
    r = await http.post("/auth/token", json={"role": role}, auth=(who.name, who.password))
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


async def staff(http: httpx.AsyncClient, logins: StaffLogins = LOGINS) -> tuple[str, str]:
    """(organiser token, judge token)."""
    return (await login(http, "organiser", logins.organiser),
            await login(http, "judge", logins.judge))


def create_body(game_id: str, players: int = 2, seed: int = 3, deck_size: int | None = 12,
                variant: str = "free_for_all") -> dict[str, Any]:
    start = start_command(game_id, players, seed, variant, deck_size=deck_size)
    # these tests drive the first seat's priority: no random start, mulligans or
    # trigger ordering (the gateway's defaults, tested in test_gateway_start.py)
    return {"game_id": game_id, "variant": start.variant, "seed": start.seed,
            "players": [p.model_dump(mode="json") for p in start.players],
            "random_start": False, "mulligans": False, "order_triggers": False}


async def new_game(http: httpx.AsyncClient, game_id: str, seed: int = 3,
                   deck_size: int = 12, logins: StaffLogins = LOGINS
                   ) -> tuple[str, dict[str, str]]:
    """Create a 2-player game as the organiser and get both seats' tokens; returns
    (judge token, seat tokens)."""
    organiser, judge = await staff(http, logins)
    r = await http.post("/games?wait=10", json=create_body(game_id, 2, seed, deck_size),
                        headers=auth(organiser))
    assert r.status_code == 202, r.text
    assert r.json()["outcome"]["status"] == "applied", r.text
    seats = {}
    for p in ("P1", "P2"):
        j = await http.post(f"/games/{game_id}/join", json={"seat": p},
                            headers=auth(organiser))
        assert j.status_code == 200, j.text
        seats[p] = j.json()["token"]
    return judge, seats


async def settle(http: httpx.AsyncClient, game_id: str, judge: str,
                 timeout: float = 30) -> dict[str, Any]:
    """Wait (bounded) until the engine owes no work; returns the judge view."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        v = (await http.get(f"/games/{game_id}/view", headers=auth(judge))).json()
        if v["game_over"] or all(m["pending"]["kind"] != "work" for m in v["markers"]):
            return dict(v)
        if loop.time() > deadline:
            raise TimeoutError("the engine did not settle")
        await http.get(f"/games/{game_id}/events?from_version={v['version'] + 1}&wait=1",
                       headers=auth(judge))


def probes(seat: str, oid: int) -> list[dict[str, Any]]:
    """Commands naming object `oid` in every way a command can."""
    return [
        {"type": "PlayLand", "player": seat, "card": oid},
        {"type": "CastSpell", "player": seat, "card": oid},
        {"type": "CastSpell", "player": seat, "card": oid, "targets": [[f"o:{oid}"]]},
        {"type": "ActivateAbility", "player": seat, "source": oid, "ability": 0},
        {"type": "ChooseObjects", "player": seat, "choices": [oid]},
        {"type": "DeclareAttackers", "player": seat, "attacks": [[oid, "P1"]]},
        {"type": "DeclareBlockers", "player": seat, "blocks": [[oid, oid]]},
        {"type": "AssignCombatDamage", "player": seat, "assignments": {str(oid): {"p:P1": 1}}},
    ]
