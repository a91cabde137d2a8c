"""A judge following a live game in the console (issue 16's note): the board moves with
every event, and the access record covers the follow once a minute instead of one
record per board; an ordinary board read is still recorded each time."""

from __future__ import annotations

import asyncio

import httpx

from arbiter_store import open_store

from .harness import memory_system
from .helpers import auth, new_game, settle

API = "/console/api/games"


def test_a_live_follow_is_recorded_once_not_per_board() -> None:
    async def scenario(http: httpx.AsyncClient) -> None:
        judge, _ = await new_game(http, "follow-me")
        version = (await settle(http, "follow-me", judge))["version"]
        assert version >= 4

        async def board(**params: str | int) -> None:
            r = await http.get(f"{API}/follow-me/board", params=params, headers=auth(judge))
            assert r.status_code == 200, r.text

        for at in range(1, 5):
            await board(at=at, follow="true")
        await board(at=2)
        await board(at=3)
        reads = (await http.get("/games/follow-me/access", headers=auth(judge))).json()
        what = [r["what"] for r in reads if r["type"] == "JudgeRead"]
        assert [w for w in what if "followed live" in w] == [
            "console boards followed live from event 1 (for up to 60 s)"]
        assert what.count("console board at 2") == 1 and what.count("console board at 3") == 1

    async def go() -> None:
        with open_store(":memory:") as store:
            async with memory_system(store) as system, \
                    httpx.AsyncClient(base_url=system.base_url, timeout=60) as http:
                await asyncio.wait_for(scenario(http), 120)
    asyncio.run(go())
