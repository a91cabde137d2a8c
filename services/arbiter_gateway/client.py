"""A client of the gateway, and the bot game played through it.

`play_through_gateway` plays the bot game of `play_bot_game` over HTTP: it creates the
game, joins every seat, rebuilds the full state from the judge's event feed, and when
the engine owes no work lets the bot the embedded loop would pick act, through that
seat's token. The same seed gives the same event log as the embedded default.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import httpx

from arbiter_core.commands import PlayerCommand, StartGame
from arbiter_runtime.botgame import engine_idle, make_bots, next_action
from arbiter_runtime.projection import GameProjection
from arbiter_store import StoredEvent

RESUBMIT_S = 5.0  # a command still pending this long is sent again (same id: once)


class GatewayError(RuntimeError):
    pass


class GatewayClient:
    def __init__(self, http: httpx.AsyncClient, retries: int = 30) -> None:
        self.http = http
        self.retries = retries

    async def call(self, method: str, url: str, token: str | None = None,
                   **kw: Any) -> Any:
        """A request, retried on connection errors and 5xx answers (a gateway restart, a
        broker that is away); commands carry ids, so a retried submission is applied
        once."""
        headers = {"authorization": f"Bearer {token}"} if token else {}
        for attempt in range(self.retries):
            try:
                r = await self.http.request(method, url, headers=headers, **kw)
            except httpx.TransportError:
                if attempt + 1 == self.retries:
                    raise
                await _sleep(0.2 * (attempt + 1))
                continue
            if r.status_code >= 500 and attempt + 1 < self.retries:
                await _sleep(0.2 * (attempt + 1))
                continue
            if r.status_code >= 400:
                raise GatewayError(f"{method} {url}: {r.status_code} {r.text}")
            return r.json()
        raise AssertionError("unreachable")

    async def create(self, start: StartGame, wait: float = 10) -> dict[str, Any]:
        body = {"game_id": start.game_id, "variant": start.variant, "seed": start.seed,
                "players": [p.model_dump(mode="json") for p in start.players],
                "random_seating": start.random_seating}
        return dict(await self.call("POST", f"/games?wait={wait}", json=body))

    async def join(self, game_id: str, seat: str) -> str:
        return str((await self.call("POST", f"/games/{game_id}/join",
                                    json={"seat": seat}))["token"])

    async def submit(self, game_id: str, token: str, command: PlayerCommand,
                     command_id: str, expected_version: int | None = None,
                     wait: float = 10) -> dict[str, Any]:
        body = {"command": command.model_dump(mode="json"), "command_id": command_id,
                "expected_version": expected_version}
        return dict(await self.call("POST", f"/games/{game_id}/commands?wait={wait}",
                                    token, json=body))

    async def status(self, game_id: str, token: str, command_id: str,
                     wait: float = 10) -> dict[str, Any]:
        return dict(await self.call(
            "GET", f"/games/{game_id}/commands/{command_id}?wait={wait}", token))

    async def events(self, game_id: str, token: str, from_version: int,
                     wait: float = 5) -> list[dict[str, Any]]:
        return list(await self.call(
            "GET", f"/games/{game_id}/events?from_version={from_version}&wait={wait}", token))

    async def view(self, game_id: str, token: str) -> dict[str, Any]:
        return dict(await self.call("GET", f"/games/{game_id}/view", token))


@dataclass
class DistributedGame:
    game_id: str
    judge_token: str
    seat_tokens: dict[str, str]
    projection: GameProjection
    actions: int
    seconds: float


def stored(game_id: str, e: dict[str, Any]) -> StoredEvent:
    return StoredEvent(stream_id=game_id, version=e["version"], position=e["position"],
                       type=e["type"], schema_version=e["schema_version"],
                       payload=e["payload"], rule=e["rule"], metadata=e["metadata"])


async def play_through_gateway(client: GatewayClient, start: StartGame,
                               deadline_s: float = 600) -> DistributedGame:
    t0 = time.monotonic()
    gid = start.game_id
    created = await client.create(start)
    judge = created["judge_token"]
    outcome = created.get("outcome") or await client.status(gid, judge, created["command_id"])
    while outcome["status"] == "pending":
        _check_deadline(t0, deadline_s)
        outcome = await client.status(gid, judge, created["command_id"])
    if outcome["status"] != "applied":
        raise GatewayError(f"the game did not start: {outcome}")
    tokens = {p.name: await client.join(gid, p.name) for p in start.players}
    proj = GameProjection(gid)
    bots = make_bots(start)
    actions = 0
    while not proj.state.game_over:
        _check_deadline(t0, deadline_s)
        idle = proj.version > 0 and engine_idle(proj.state)
        new = await client.events(gid, judge, proj.version + 1, wait=0 if idle else 5)
        proj.apply_all(stored(gid, e) for e in new)
        if new or not engine_idle(proj.state) or proj.state.game_over:
            continue
        action = next_action(proj.state, bots)
        if action is None:
            continue
        player = getattr(action, "player", "")
        cid = f"{gid}.{proj.version}.{player}"
        out = await client.submit(gid, tokens[player], action, cid, proj.version)
        sent = time.monotonic()
        while out["status"] == "pending":
            _check_deadline(t0, deadline_s)
            if time.monotonic() - sent > RESUBMIT_S:  # lost with a broker restart?
                out = await client.submit(gid, tokens[player], action, cid, proj.version,
                                          wait=0)
                sent = time.monotonic()
            out = await client.status(gid, tokens[player], cid, wait=2)
        if out["status"] != "applied":
            raise GatewayError(f"the engine refused a legal bot action: {out}")
        actions += 1
    return DistributedGame(gid, judge, tokens, proj, actions, time.monotonic() - t0)


def _check_deadline(t0: float, deadline_s: float) -> None:
    if time.monotonic() - t0 > deadline_s:
        raise TimeoutError(f"the game did not finish in {deadline_s}s")


async def _sleep(s: float) -> None:
    import asyncio
    await asyncio.sleep(s)


def several_markers(variant: str, players: int) -> bool:
    """Grand Melee with two or more turn markers (one per four players, CR 807.4a)."""
    return variant == "grand_melee" and players >= 8
