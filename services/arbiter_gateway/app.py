"""The gateway: HTTP (FastAPI) and WebSocket for organisers, judges, seats and spectators.

It authenticates (`auth.py`: roles and signed tokens), checks the shape of what it is
sent (`models.py`, bounded by `limits.py`), publishes commands to the topic of the one
service that consumes their kind, and reads views from the store. It never decides
rules (a rules violation comes back from the service as `CommandRejected`, recorded in
the game's audit stream) and keeps no state of its own: tokens are signed, seats are
claimed in the store, so any number of gateways can run. Routes: `routes.py` (games),
`staff.py` (logging in, handing out tokens, the access records), `ws.py` (the stream).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import Annotated, Any

import anyio
from fastapi import Depends, FastAPI, HTTPException, Request, Security
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from faststream.kafka import KafkaBroker
from prometheus_client import CONTENT_TYPE_LATEST, Counter, Gauge, generate_latest

from arbiter_gateway.access import record_read
from arbiter_gateway.auth import Principal, Role, Tokens
from arbiter_gateway.feed import Feed
from arbiter_gateway.limits import BodyGuard, RateLimit
from arbiter_gateway.models import MAX_BODY, MAX_CREATE_BODY, CommandStatus
from arbiter_gateway.passwords import Credentials
from arbiter_gateway.reads import Reads, Viewer
from arbiter_gateway.settings import GatewaySettings
from arbiter_runtime.audit import valid_game_id
from arbiter_services.liveness import BrokerLink
from arbiter_services.messages import CommandEnvelope
from arbiter_services.observability import Metrics, log
from arbiter_services.recovery import TopicKeeper
from arbiter_services.topics import command_consumer, command_key, command_topic

MAX_WAIT_S = 10.0
POLL_S = 0.25
BEARER = HTTPBearer(auto_error=False, scheme_name="token",
                    description="a token from POST /auth/token (organisers, judges) or "
                                "from an organiser (seats, spectators)")


@dataclass
class Limits:
    create: RateLimit
    commands: RateLimit
    logins: RateLimit

    @classmethod
    def of(cls, s: GatewaySettings) -> Limits:
        return cls(RateLimit("games created", s.create_per_minute / 60,
                             max(1.0, s.create_per_minute / 2)),
                   RateLimit("commands", s.commands_per_second, 2 * s.commands_per_second),
                   RateLimit("login attempts", s.logins_per_minute / 60,
                             max(1.0, s.logins_per_minute / 2)))


#: how long one access record covers a judge's live follow of a game's boards
FOLLOW_COVER_S = 60.0


class Gateway:
    def __init__(self, reads: Reads, broker: KafkaBroker, settings: GatewaySettings,
                 feed: Feed, metrics: Metrics, publishers: dict[str, Any]) -> None:
        self.publishers = publishers
        self.reads = reads
        self.broker = broker
        self.settings = settings
        self.tokens = Tokens(settings.gateway_secret.encode())
        self.judges = Credentials(settings.judge_entries())
        self.organisers = Credentials(settings.organiser_entries())
        self.limits = Limits.of(settings)
        self.feed = feed
        self.metrics = metrics
        self.polls = Gauge("arbiter_gateway_polls_active", "long-polls being served",
                           registry=metrics.registry)
        self.poll_reads = Counter("arbiter_gateway_poll_reads", "store reads by long-polls",
                                  registry=metrics.registry)
        self.ready = False
        self.keeper: TopicKeeper | None = None
        self.link = BrokerLink(60.0)  # when the broker was last reached (liveness.py)
        self.console: Any = None  # the judge console's reads (console/), set by create_app
        self._following: dict[tuple[str, str], float] = {}  # (judge, game) -> recorded at

    def token_check(self, creds: HTTPAuthorizationCredentials | None) -> Principal:
        p = self.tokens.check(creds.credentials) if creds is not None else None
        if p is None:
            raise HTTPException(401, "a valid bearer token is required",
                                headers={"WWW-Authenticate": "Bearer"})
        return p

    async def publish(self, env: CommandEnvelope, ctype: str, marker: int | None) -> None:
        service = command_consumer(ctype)
        await self.publishers[command_topic(service)].publish(
            env, key=command_key(env.game_id, service, marker),
            correlation_id=env.correlation_id)

    async def judge_read(self, who: Principal, game_id: str, what: str) -> None:
        """Record a judge's read of hidden information before it is answered."""
        if who.role != "judge":
            return
        try:
            await anyio.to_thread.run_sync(record_read, self.reads.store, game_id,
                                           who.name, what)
        except Exception as e:  # fail closed: no record, no read
            log().error("judge read not recorded", game_id=game_id, error=str(e))
            raise HTTPException(503, "the read could not be recorded; try again") from None
        log().info("judge read", game_id=game_id, judge=who.name, what=what)

    async def judge_follows(self, who: Principal, game_id: str, at: int) -> None:
        """Record a judge's live follow of a game's boards: one record covers that judge's
        follow reads of the game for FOLLOW_COVER_S seconds (the board moves with every
        event: a record per board would be one access event per game event)."""
        if who.role != "judge":
            return
        key, now = (who.name, game_id), time.monotonic()
        if now - self._following.get(key, -FOLLOW_COVER_S) < FOLLOW_COVER_S:
            return
        await self.judge_read(who, game_id, f"console boards followed live from event "
                                            f"{at} (for up to {FOLLOW_COVER_S:.0f} s)")
        if len(self._following) > 10_000:  # forget windows long closed
            self._following = {k: t for k, t in self._following.items()
                               if now - t < FOLLOW_COVER_S}
        self._following[key] = now

    @contextmanager
    def polling(self) -> Iterator[None]:
        self.polls.inc()
        try:
            yield
        finally:
            self.polls.dec()

    async def ended(self, request: Request | None, left: float) -> bool:
        """Is a long-poll over: its time is up or its client has gone away?"""
        self.poll_reads.inc()
        return left <= 0 or (request is not None and await request.is_disconnected())

    async def outcome(self, game_id: str, command_id: str, wait: float, viewer: Viewer,
                      request: Request | None = None) -> CommandStatus:
        deadline = anyio.current_time() + wait
        with self.polling():
            while True:
                ev = self.feed.watch(game_id)
                st = await anyio.to_thread.run_sync(self.reads.status, game_id,
                                                    command_id, viewer)
                left = deadline - anyio.current_time()
                if st.status != "pending" or await self.ended(request, left):
                    return st
                await self.feed.wait(ev, min(POLL_S, left))


async def authenticated(
        request: Request,
        creds: Annotated[HTTPAuthorizationCredentials | None, Security(BEARER)]) -> Principal:
    """The bearer token's principal (401 without a valid one)."""
    gw: Gateway = request.app.state.gateway
    return gw.token_check(creds)


Who = Annotated[Principal, Depends(authenticated)]


def check_game(game_id: str) -> None:
    if not valid_game_id(game_id):
        raise HTTPException(404, "no such game")


def require(who: Principal, game_id: str | None, *roles: Role) -> Principal:
    """403 unless `who` has one of `roles` (and, for a game, a token for it)."""
    if game_id is not None and not who.for_game(game_id):
        raise HTTPException(403, "this token is for another game")
    if who.role not in roles:
        raise HTTPException(403, f"a {who.role} token may not do this (needs "
                                 f"{' or '.join(roles)})")
    return who


def viewer_of(who: Principal) -> Viewer:
    from arbiter_core.views.seat import SPECTATOR
    if who.role == "judge":
        return None
    return who.seat if who.role == "seat" else SPECTATOR


def _body_limit(method: str, path: str) -> int:
    return MAX_CREATE_BODY if method == "POST" and path.rstrip("/") == "/games" else MAX_BODY


def _reasons(e: RequestValidationError) -> tuple[int, str]:
    errors = list(e.errors())
    if any(err.get("type") == "json_invalid" for err in errors):
        return 400, "malformed JSON: " + "; ".join(str(err.get("msg")) for err in errors[:1])
    return 422, "; ".join(f"{'.'.join(str(x) for x in err['loc'])}: {err['msg']}"
                          for err in errors[:5])


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

    app = FastAPI(title="Arbiter gateway", lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Games for organisers, judges, seats and spectators. "
                              "Errors are `{\"error\": reason}`.")

    app.state.gateway = gw
    from arbiter_gateway.console import add_console
    from arbiter_gateway.routes import add_game_routes
    from arbiter_gateway.staff import add_staff_routes
    from arbiter_gateway.ws import add_stream_route
    add_staff_routes(app, gw)
    add_game_routes(app, gw)
    add_stream_route(app, gw)
    gw.console = add_console(app, gw)

    @app.get("/health/live", status_code=204, tags=["health"])
    async def live() -> Response:
        return Response(status_code=204 if gw.link.live() else 500)

    @app.get("/health/ready", status_code=204, tags=["health"])
    async def ready() -> Response:
        ok = gw.ready and gw.link.connected and await gw.broker.ping(timeout=2.0)
        return Response(status_code=204 if ok else 503)

    @app.get("/metrics", tags=["health"], response_class=PlainTextResponse)
    async def metrics() -> Response:
        return Response(generate_latest(gw.metrics.registry), media_type=CONTENT_TYPE_LATEST)

    @app.exception_handler(LookupError)
    async def not_found(_: Request, exc: LookupError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=404)

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, exc: HTTPException) -> JSONResponse:
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code,
                            headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        status, reason = _reasons(exc)
        return JSONResponse({"error": reason}, status_code=status)

    app.add_middleware(BodyGuard, limit_for=_body_limit)
    return app
