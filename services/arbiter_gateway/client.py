"""A client of the gateway, and the bot game played through it.

`play_through_gateway` plays the bot game of `play_bot_game` over HTTP: as an organiser
it creates the game and gets every seat's token, as a judge it rebuilds the full state
from the event feed, and when the engine owes no work it lets the bot the embedded loop
would pick act, through that seat's token. The gateway derives the game's seed from the
client's (HMAC with its seed secret); the driver reads it as a judge and seeds its bots
with it, so the game's log is the embedded default's for that seed
(`DistributedGame.seed`).

A judge may back the game up meanwhile (`GameCorrected`, docs/console.md): the driver
folds the correction with the log up to its event N, read back through the same feed
(`follow`), and plays on from the state at N; a command of its own that the correction
made stale (`stale_version`) is dropped, and the bot acts again on the new state.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import httpx

from arbiter_core.kernel.commands import PlayerCommand, StartGame
from arbiter_core.kernel.events import Event
from arbiter_core.variants.base import get_variant
from arbiter_gateway.logins import StaffLogins
from arbiter_runtime.botgame import engine_idle, make_bots, next_action
from arbiter_runtime.codec import from_stored
from arbiter_runtime.corrections import CORRECTION
from arbiter_runtime.fold import LogStates
from arbiter_runtime.projection import GameProjection
from arbiter_store import StoredEvent

RESUBMIT_S = 5.0  # a command still pending this long is sent again (same id: once)


class GatewayError(RuntimeError):
    pass


class GatewayClient:
    def __init__(self, http: httpx.AsyncClient, logins: StaffLogins | None = None,
                 retries: int = 30) -> None:
        self.http = http
        self.logins = logins
        self.retries = retries
        self._staff: dict[str, str] = {}

    async def staff(self, role: str) -> str:
        """A judge's or organiser's token (logged in once)."""
        if role not in self._staff:
            if self.logins is None:
                raise GatewayError("no staff logins given to the client")
            login = self.logins.judge if role == "judge" else self.logins.organiser
            out = await self.call("POST", "/auth/token", json={"role": role},
                                  auth=(login.name, login.password))
            self._staff[role] = str(out["token"])
        return self._staff[role]

    async def call(self, method: str, url: str, token: str | None = None,
                   **kw: Any) -> Any:
        """A request, retried on connection errors, 5xx answers (a gateway restart, a
        broker that is away) and 429 (after its Retry-After); commands carry ids, so a
        retried submission is applied once."""
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
            if r.status_code == 429 and attempt + 1 < self.retries:
                await _sleep(min(10.0, float(r.headers.get("retry-after", "1"))))
                continue
            if r.status_code >= 400:
                raise GatewayError(f"{method} {url}: {r.status_code} {r.text}")
            return r.json()
        raise AssertionError("unreachable")

    async def create(self, start: StartGame, wait: float = 10) -> dict[str, Any]:
        """Create the game as an organiser (`start.seed` is the client's seed)."""
        body = {"game_id": start.game_id, "variant": start.variant, "seed": start.seed,
                "players": [p.model_dump(mode="json") for p in start.players],
                "random_seating": start.random_seating, "random_start": start.random_start,
                "mulligans": start.mulligans, "order_triggers": start.order_triggers}
        return dict(await self.call("POST", f"/games?wait={wait}",
                                    await self.staff("organiser"), json=body))

    async def join(self, game_id: str, seat: str) -> str:
        """The seat's token, from the organiser."""
        return str((await self.call("POST", f"/games/{game_id}/join",
                                    await self.staff("organiser"),
                                    json={"seat": seat}))["token"])

    async def started(self, start: StartGame, deadline: float) -> StartGame:
        """Create the game, wait until it has started, and return its StartGame with
        the seed the gateway gave it (read as a judge)."""
        gid = start.game_id
        created = await self.create(start)
        judge = await self.staff("judge")
        outcome = created.get("outcome") or await self.status(gid, judge,
                                                              created["command_id"])
        while outcome["status"] == "pending":
            if time.monotonic() > deadline:
                raise TimeoutError(f"game {gid} did not start")
            outcome = await self.status(gid, judge, created["command_id"])
        if outcome["status"] != "applied":
            raise GatewayError(f"the game did not start: {outcome}")
        view = await self.view(gid, judge)
        return start.model_copy(update={"seed": int(view["seed"])})

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

    async def log(self, game_id: str, token: str, to_version: int) -> list[Event]:
        """Events 1 to `to_version` (a judge's token), page by page."""
        out: list[Event] = []
        while len(out) < to_version:
            page = await self.events(game_id, token, len(out) + 1, wait=0)
            if not page:
                raise GatewayError(f"{game_id} has no event {len(out) + 1}")
            out.extend(from_stored(stored(game_id, e)) for e in page
                       if e["version"] <= to_version)
        return out


@dataclass
class DistributedGame:
    game_id: str
    seed: int  # the game's seed (derived by the gateway from the client's)
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
    start = await client.started(start, t0 + deadline_s)
    judge = await client.staff("judge")
    tokens = {p.name: await client.join(gid, p.name) for p in start.players}
    proj = GameProjection(gid)
    bots = make_bots(start)
    actions = 0
    while not proj.state.game_over:
        _check_deadline(t0, deadline_s, f" (last event read: version {proj.version}, "
                        f"engine idle: {engine_idle(proj.state)})")
        idle = proj.version > 0 and engine_idle(proj.state)
        new = await client.events(gid, judge, proj.version + 1, wait=0 if idle else 5)
        await follow(client, judge, proj, new)
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
            _check_deadline(t0, deadline_s, f" (command {cid} still pending)")
            if time.monotonic() - sent > RESUBMIT_S:  # lost with a broker restart?
                out = await client.submit(gid, tokens[player], action, cid, proj.version,
                                          wait=0)
                sent = time.monotonic()
            out = await client.status(gid, tokens[player], cid, wait=2)
        if out["status"] == "rejected" and out.get("code") == "stale_version":
            continue  # the game moved on (a judge's correction): read it, act again
        if out["status"] != "applied":
            raise GatewayError(f"the engine refused a legal bot action: {out}")
        actions += 1
    return DistributedGame(gid, start.seed, judge, tokens, proj, actions,
                           time.monotonic() - t0)


async def follow(client: GatewayClient, judge: str, proj: GameProjection,
                 new: list[dict[str, Any]]) -> None:
    """Apply events read from the judge's feed to `proj`. A judge's correction restores
    the state at its event N, folded from the log up to N read back through the feed."""
    gid = proj.game_id
    for e in new:
        if e["version"] <= proj.version:
            continue
        if e["type"] == CORRECTION:
            proj.states = LogStates(await client.log(gid, judge, int(e["payload"]["at"])))
        try:
            proj.apply(stored(gid, e))
        finally:
            proj.states = None


def _check_deadline(t0: float, deadline_s: float, where: str = "") -> None:
    if time.monotonic() - t0 > deadline_s:
        raise TimeoutError(f"the game did not finish in {deadline_s}s{where}")


async def _sleep(s: float) -> None:
    import asyncio
    await asyncio.sleep(s)


def several_markers(variant: str, players: int) -> bool:
    """Grand Melee with two or more turn markers (one per four players, CR 807.4a)."""
    return get_variant(variant).grand_melee and players >= 8
