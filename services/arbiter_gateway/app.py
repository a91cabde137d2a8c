"""The gateway: HTTP (FastAPI) and WebSocket for players and judges.

It authenticates, checks the shape of what it is sent, publishes commands to the topic
of the one service that consumes their kind, and reads views from the store. It never
decides rules (a rules violation comes back from the service as `CommandRejected`,
recorded in the game's audit stream) and keeps no state of its own: tokens are signed,
seats are claimed in the store, so any number of gateways can run.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from contextlib import asynccontextmanager
from typing import Any

import anyio
from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse, Response
from faststream.kafka import KafkaBroker
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from pydantic import BaseModel, ValidationError

from arbiter_core.commands import COMMAND_ADAPTER, StartGame
from arbiter_gateway.auth import Principal, Tokens, bearer
from arbiter_gateway.feed import Feed
from arbiter_gateway.models import MAX_BODY, MAX_CREATE_BODY, CreateGame, Join, Submit
from arbiter_gateway.reads import Reads
from arbiter_gateway.ws import add_stream_route
from arbiter_runtime.audit import valid_game_id
from arbiter_services.core import ORGANIZER
from arbiter_services.liveness import BrokerLink
from arbiter_services.messages import CommandEnvelope
from arbiter_services.observability import Metrics, log
from arbiter_services.recovery import TopicKeeper
from arbiter_services.topics import command_consumer, command_key, command_topic

MAX_WAIT_S = 10.0
POLL_S = 0.25


class Gateway:
    def __init__(self, reads: Reads, broker: KafkaBroker, tokens: Tokens, feed: Feed,
                 metrics: Metrics, publishers: dict[str, Any]) -> None:
        self.publishers = publishers
        self.reads = reads
        self.broker = broker
        self.tokens = tokens
        self.feed = feed
        self.metrics = metrics
        self.ready = False
        self.keeper: TopicKeeper | None = None
        self.link = BrokerLink(60.0)  # when the broker was last reached (liveness.py)

    def principal(self, request: Request, game_id: str) -> Principal:
        token = bearer(request.headers.get("authorization"))
        p = self.tokens.check(token) if token else None
        if p is None:
            raise HTTPException(401, "a valid bearer token is required")
        if p.game_id != game_id:
            raise HTTPException(403, "this token is for another game")
        return p

    async def publish(self, env: CommandEnvelope, ctype: str, marker: int | None) -> None:
        service = command_consumer(ctype)
        await self.publishers[command_topic(service)].publish(
            env, key=command_key(env.game_id, service, marker),
            correlation_id=env.correlation_id)

    async def outcome(self, game_id: str, command_id: str, wait: float) -> dict[str, Any]:
        deadline = anyio.current_time() + min(max(wait, 0.0), MAX_WAIT_S)
        while True:
            ev = self.feed.watch(game_id)
            st = await anyio.to_thread.run_sync(self.reads.status, game_id, command_id)
            left = deadline - anyio.current_time()
            if st.status != "pending" or left <= 0:
                return st.model_dump(exclude_none=True)
            await self.feed.wait(ev, min(POLL_S, left))


async def read_json(request: Request, model: type[BaseModel], limit: int = MAX_BODY) -> Any:
    """The body as `model`: 413 if over `limit` bytes, 400 if not JSON, 422 if the wrong
    shape."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > limit:
        raise HTTPException(413, f"request body over {limit} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise HTTPException(413, f"request body over {limit} bytes")
    try:
        data = json.loads(body)
    except ValueError as e:
        raise HTTPException(400, f"malformed JSON: {e}") from None
    try:
        return model.model_validate(data)
    except ValidationError as e:
        raise HTTPException(422, _reasons(e)) from None


def _reasons(e: ValidationError) -> str:
    return "; ".join(f"{'.'.join(str(x) for x in err['loc'])}: {err['msg']}"
                     for err in e.errors()[:5])


def _check_game(game_id: str) -> None:
    if not valid_game_id(game_id):
        raise HTTPException(404, "no such game")


async def deck_lists(start: StartGame, lists: dict[str, str]) -> StartGame:
    """Each listed player's deck from its deck list (docs/decks.md); 422 if unplayable."""
    from arbiter_decks.check import with_deck_lists  # the index loads on the first list

    try:
        return await anyio.to_thread.run_sync(with_deck_lists, start, lists)
    except ValueError as e:
        raise HTTPException(422, f"deck_lists: {e}") from None


def create_app(gw: Gateway, start_broker: bool = True) -> FastAPI:
    @asynccontextmanager
    async def lifespan(_: FastAPI) -> Any:
        if gw.keeper is not None:
            gw.keeper.start()
        starting = None
        if start_broker:  # patiently: the gateway answers /health/* meanwhile
            starting = asyncio.create_task(gw.link.start(gw.broker))
        else:
            gw.link.connected = True
        gw.ready = True
        yield
        gw.ready = False
        if starting is not None:
            starting.cancel()
            await gw.link.stop()
            if gw.link.connected:
                await gw.broker.stop()
        if gw.keeper is not None:
            await gw.keeper.stop()

    app = FastAPI(title="Arbiter gateway", lifespan=lifespan)

    @app.post("/games", status_code=202)
    async def create_game(request: Request, wait: float = 0) -> dict[str, Any]:
        body: CreateGame = await read_json(request, CreateGame, MAX_CREATE_BODY)
        game_id = body.game_id or f"g-{uuid.uuid4().hex[:16]}"
        raw = {**body.options, "type": "StartGame", "game_id": game_id,
               "variant": body.variant, "seed": body.seed, "players": body.players,
               "random_seating": body.random_seating}
        try:
            start = COMMAND_ADAPTER.validate_python(raw)
        except ValidationError as e:
            raise HTTPException(422, _reasons(e)) from None
        assert isinstance(start, StartGame)
        if body.deck_lists:
            start = await deck_lists(start, body.deck_lists)
        cid = f"start-{uuid.uuid4().hex}"
        env = CommandEnvelope(game_id=game_id, command_id=cid, actor=ORGANIZER,
                              command=start.model_dump(mode="json"), correlation_id=cid)
        await gw.publish(env, "StartGame", None)
        log().info("game created", game_id=game_id, command_id=cid)
        out: dict[str, Any] = {"game_id": game_id, "command_id": cid,
               "judge_token": gw.tokens.issue(game_id, "judge")}
        if wait > 0:
            out["outcome"] = await gw.outcome(game_id, cid, wait)
        return out

    @app.post("/games/{game_id}/join")
    async def join(game_id: str, request: Request) -> dict[str, Any]:
        _check_game(game_id)
        body: Join = await read_json(request, Join)
        started, seats = await anyio.to_thread.run_sync(gw.reads.started, game_id)
        if not started:
            raise HTTPException(409, "the game has not started yet")
        if body.seat not in seats:
            raise HTTPException(404, f"no seat {body.seat!r} in this game")
        if not await anyio.to_thread.run_sync(gw.reads.claim, game_id, body.seat):
            raise HTTPException(409, f"seat {body.seat!r} is already taken")
        log().info("seat joined", game_id=game_id, seat=body.seat)
        return {"game_id": game_id, "seat": body.seat,
                "token": gw.tokens.issue(game_id, "seat", body.seat)}

    @app.post("/games/{game_id}/commands", status_code=202)
    async def submit(game_id: str, request: Request, wait: float = 0) -> dict[str, Any]:
        _check_game(game_id)
        who = gw.principal(request, game_id)
        body: Submit = await read_json(request, Submit)
        if who.role != "seat":
            raise HTTPException(403, "judges do not play: only a seat sends commands")
        try:
            command = COMMAND_ADAPTER.validate_python(body.command)
        except ValidationError as e:
            raise HTTPException(422, _reasons(e)) from None
        player = getattr(command, "player", None)
        if player is None:
            raise HTTPException(422, f"{command.type} is not a player command")
        if player != who.seat:
            raise HTTPException(403, f"this token is for seat {who.seat}, not {player}")
        cid = body.command_id or f"c-{uuid.uuid4().hex}"
        env = CommandEnvelope(game_id=game_id, command_id=cid, actor=player,
                              command=command.model_dump(mode="json"),
                              expected_version=body.expected_version, correlation_id=cid)
        await gw.publish(env, command.type, getattr(command, "marker", None))
        gw.metrics.handled.labels("gateway", "command", "published").inc()
        log().info("command published", game_id=game_id, command_id=cid,
                   command=command.type, seat=player)
        if wait > 0:
            return await gw.outcome(game_id, cid, wait)
        return {"command_id": cid, "status": "pending"}

    @app.get("/games/{game_id}/commands/{command_id}")
    async def command_status(game_id: str, command_id: str, request: Request,
                             wait: float = 0) -> dict[str, Any]:
        _check_game(game_id)
        gw.principal(request, game_id)
        return await gw.outcome(game_id, command_id, wait)

    @app.get("/games/{game_id}/view")
    async def get_view(game_id: str, request: Request) -> dict[str, Any]:
        _check_game(game_id)
        who = gw.principal(request, game_id)
        seat = who.seat if who.role == "seat" else None
        return await anyio.to_thread.run_sync(gw.reads.view, game_id, seat)

    @app.get("/games/{game_id}/legal")
    async def get_legal(game_id: str, request: Request) -> list[dict[str, Any]]:
        _check_game(game_id)
        who = gw.principal(request, game_id)
        if who.role != "seat" or who.seat is None:
            raise HTTPException(403, "legal actions are per seat")
        return await anyio.to_thread.run_sync(gw.reads.legal, game_id, who.seat)

    @app.get("/games/{game_id}/events")
    async def get_events(game_id: str, request: Request, from_version: int = 1,
                         wait: float = 0) -> list[dict[str, Any]]:
        """Events from `from_version` (long-poll up to `wait` s). Seats get (version,
        type, rule) only; judges get payloads and metadata."""
        _check_game(game_id)
        who = gw.principal(request, game_id)
        judge = who.role == "judge"
        deadline = anyio.current_time() + min(max(wait, 0.0), MAX_WAIT_S)
        while True:
            ev = gw.feed.watch(game_id)
            out = await anyio.to_thread.run_sync(gw.reads.events, game_id,
                                                 max(1, from_version), judge)
            left = deadline - anyio.current_time()
            if out or left <= 0:
                return out
            await gw.feed.wait(ev, min(POLL_S, left))

    @app.get("/games/{game_id}/audit")
    async def get_audit(game_id: str, request: Request) -> list[dict[str, Any]]:
        _check_game(game_id)
        if gw.principal(request, game_id).role != "judge":
            raise HTTPException(403, "the audit stream is for judges")
        return await anyio.to_thread.run_sync(gw.reads.audit, game_id)

    @app.get("/health/live")
    async def live() -> Response:
        return Response(status_code=204 if gw.link.live() else 500)

    @app.get("/health/ready")
    async def ready() -> Response:
        ok = gw.ready and gw.link.connected and await gw.broker.ping(timeout=2.0)
        return Response(status_code=204 if ok else 503)

    @app.get("/metrics")
    async def metrics() -> Response:
        return Response(generate_latest(gw.metrics.registry), media_type=CONTENT_TYPE_LATEST)

    @app.exception_handler(LookupError)
    async def not_found(_: Request, exc: LookupError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=404)

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, exc: HTTPException) -> JSONResponse:
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)

    add_stream_route(app, gw)
    return app
