"""Small HTTP helpers for gateway tests."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from arbiter_runtime.botgame import start_command


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


async def new_game(http: httpx.AsyncClient, game_id: str, seed: int = 3,
                   deck_size: int = 12) -> tuple[str, dict[str, str]]:
    """Create a 2-player game, join both seats; returns (judge token, seat tokens)."""
    start = start_command(game_id, 2, seed, deck_size=deck_size)
    body = {"game_id": game_id, "variant": start.variant, "seed": start.seed,
            "players": [p.model_dump(mode="json") for p in start.players]}
    r = await http.post("/games?wait=10", json=body)
    assert r.status_code == 202, r.text
    assert r.json()["outcome"]["status"] == "applied", r.text
    judge = r.json()["judge_token"]
    seats = {}
    for p in start.players:
        j = await http.post(f"/games/{game_id}/join", json={"seat": p.name})
        assert j.status_code == 200, j.text
        seats[p.name] = j.json()["token"]
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
