"""Issue 14, input robustness over HTTP: every hostile input gets a clear 4xx and a
bounded cost (long-polls, nesting, sizes, rates)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable

import httpx

from arbiter_store import open_store

from .harness import System, memory_system, security
from .helpers import auth, create_body, new_game, staff

Scenario = Callable[[System], Awaitable[None]]


def run(scenario: Scenario, **settings: object) -> None:
    async def go() -> None:
        with open_store(":memory:") as store:
            async with memory_system(store, settings=security(**settings)) as system:
                await asyncio.wait_for(scenario(system), 120)
    asyncio.run(go())


def gauge(text: str, name: str) -> float:
    m = re.search(rf"^{name} (\S+)$", text, re.MULTILINE)
    assert m, f"no {name} in /metrics"
    return float(m.group(1))


def test_long_poll_waits_are_finite_and_end_with_their_client() -> None:
    """The hole: `wait=nan` never returned (and abandoned polls kept reading)."""
    async def scenario(system: System) -> None:
        async with httpx.AsyncClient(base_url=system.base_url, timeout=30) as http:
            judge, seats = await new_game(http, "polls")
            for wait in ("nan", "inf", "-inf", "-1", "11", "1e308", "x"):
                for path in ("/games/polls/events?from_version=999999&wait=",
                             "/games/polls/commands/some-command?wait="):
                    r = await http.get(path + wait, headers=auth(judge), timeout=5)
                    assert r.status_code == 422, (path, wait, r.text)
                    assert "wait" in r.json()["error"]
            r = await http.post("/games/polls/commands?wait=nan", headers=auth(seats["P1"]),
                                json={"command": {"type": "PassPriority", "player": "P1"}})
            assert r.status_code == 422
            # a poll whose client goes away stops reading the store
            assert gauge((await http.get("/metrics")).text,
                         "arbiter_gateway_polls_active") == 0
        async with httpx.AsyncClient(base_url=system.base_url, timeout=30) as quitter:
            poll = asyncio.create_task(quitter.get(
                "/games/polls/events?from_version=999999&wait=10", headers=auth(judge)))
            async with httpx.AsyncClient(base_url=system.base_url, timeout=30) as http:
                for _ in range(100):  # bounded: until the poll is being served
                    text = (await http.get("/metrics")).text
                    if gauge(text, "arbiter_gateway_polls_active") == 1:
                        break
                    await asyncio.sleep(0.02)
                assert gauge(text, "arbiter_gateway_polls_active") == 1
                poll.cancel()
        async with httpx.AsyncClient(base_url=system.base_url, timeout=30) as http:
            active = 1.0
            for _ in range(40):  # the poll had 10 s to go; it ends within a poll interval
                active = gauge((await http.get("/metrics")).text,
                               "arbiter_gateway_polls_active")
                if active == 0:
                    break
                await asyncio.sleep(0.1)
            assert active == 0, "an abandoned poll is still being served"
    run(scenario)


def test_deep_or_huge_json_is_refused_with_a_reason() -> None:
    """The hole: JSON nested 7,000 deep answered 500 (RecursionError); 200,000 deep
    reset the connection."""
    async def scenario(system: System) -> None:
        async with httpx.AsyncClient(base_url=system.base_url, timeout=30) as http:
            _, seats = await new_game(http, "nested")
            organiser, _ = await staff(http)
            json_type = {"content-type": "application/json"}
            for depth in (40, 7_000, 200_000):
                deep = b"[" * depth + b"]" * depth
                for path, token in (("/games", organiser), ("/games", None),
                                    ("/games/nested/commands", seats["P1"]),
                                    ("/auth/token", None)):
                    headers = {**json_type, **(auth(token) if token else {})}
                    r = await http.post(path, content=deep, headers=headers)
                    expected = 413 if len(deep) > 16 * 1024 and path != "/games" else 400
                    assert r.status_code == expected, (path, depth, r.status_code, r.text)
                    assert r.json()["error"]
            wrapped = (b'{"command": {"type": "PassPriority", "player": "P1", "x": '
                       + b"[" * 5000 + b"]" * 5000 + b"}}")
            r = await http.post("/games/nested/commands", content=wrapped,
                                headers={**json_type, **auth(seats["P1"])})
            assert r.status_code == 400
            long_int = b'{"variant": "free_for_all", "seed": ' + b"9" * 5000 + \
                b', "players": [{"name": "A"}]}'
            r = await http.post("/games", content=long_int,
                                headers={**json_type, **auth(organiser)})
            assert r.status_code in (400, 422), r.text
            r = await http.post("/games", content=b"[" * (1024 * 1024 + 1),
                                headers={**json_type, **auth(organiser)})
            assert r.status_code == 413
            r = await http.post("/games", content=b"\xff\xfe{", headers={
                **json_type, **auth(organiser)})
            assert r.status_code == 400, r.text
            r = await http.post("/games", json={**create_body("seedy"), "seed": -1},
                                headers=auth(organiser))
            assert r.status_code == 422
    run(scenario)


def test_game_creation_is_rate_limited() -> None:
    async def scenario(system: System) -> None:
        async with httpx.AsyncClient(base_url=system.base_url, timeout=30) as http:
            organiser, _ = await staff(http)
            codes = []
            for i in range(4):
                r = await http.post("/games", json=create_body(f"rated-{i}"),
                                    headers=auth(organiser))
                codes.append(r.status_code)
            assert codes == [202, 202, 429, 429], codes
            assert int(r.headers["retry-after"]) >= 1
            assert "too many games created" in r.json()["error"]
            assert system.store.stream_version("rated-2") == 0
    run(scenario, create_per_minute=4)  # bursts of 2


def test_commands_per_seat_are_rate_limited() -> None:
    async def scenario(system: System) -> None:
        async with httpx.AsyncClient(base_url=system.base_url, timeout=30) as http:
            _, seats = await new_game(http, "chatty")
            codes = []
            for i in range(5):
                r = await http.post("/games/chatty/commands", headers=auth(seats["P2"]),
                                    json={"command": {"type": "PassPriority", "player": "P2"},
                                          "command_id": f"chatty-{i:04d}"})
                codes.append(r.status_code)
            assert codes[:2] == [202, 202] and codes[2:] == [429] * 3, codes
            assert int(r.headers["retry-after"]) >= 1
            # another seat has its own allowance
            r = await http.post("/games/chatty/commands", headers=auth(seats["P1"]),
                                json={"command": {"type": "PassPriority", "player": "P1"}})
            assert r.status_code == 202
    run(scenario, commands_per_second=1)  # bursts of 2


def test_login_attempts_are_rate_limited() -> None:
    async def scenario(system: System) -> None:
        async with httpx.AsyncClient(base_url=system.base_url, timeout=30) as http:
            codes = [(await http.post("/auth/token", json={"role": "judge"},
                                      auth=("judge-1", f"guess-{i}"))).status_code
                     for i in range(4)]
            assert codes == [401, 401, 429, 429], codes
    run(scenario, logins_per_minute=4)
