"""The game routes: create (organiser), submit (seat), outcome, view, legal actions,
events, audit (judge). Long-polls take `wait` (0-10 s, finite) and end when the client
goes away; submissions and creations are rate limited (429 with Retry-After)."""

from __future__ import annotations

import uuid
from typing import Annotated

import anyio
from fastapi import FastAPI, HTTPException, Query, Request

from arbiter_core.kernel.commands import StartGame
from arbiter_core.views.seat import SeatView
from arbiter_gateway.access import derive_seed, record_created
from arbiter_gateway.app import MAX_WAIT_S, POLL_S, Gateway, Who, check_game, require, viewer_of
from arbiter_gateway.auth import ROLES
from arbiter_gateway.models import (
    AuditRecord,
    CommandStatus,
    Created,
    CreateGame,
    EventSummary,
    FullEvent,
    LegalActions,
    Submit,
)
from arbiter_gateway.staff import ERRORS
from arbiter_runtime.deadletters import DeadLetter
from arbiter_services.core import ORGANIZER
from arbiter_services.messages import CommandEnvelope
from arbiter_services.observability import log

Wait = Annotated[float, Query(ge=0, le=MAX_WAIT_S, allow_inf_nan=False,
                              description="long-poll: seconds to wait (0-10)")]
ALL = ROLES


async def deck_lists(start: StartGame, lists: dict[str, str]) -> StartGame:
    """Each listed player's deck from its deck list (docs/decks.md); 422 if unplayable."""
    from arbiter_decks.check import with_deck_lists  # the index loads on the first list

    try:
        return await anyio.to_thread.run_sync(with_deck_lists, start, lists)
    except ValueError as e:
        raise HTTPException(422, f"deck_lists: {e}") from None


def add_game_routes(app: FastAPI, gw: Gateway) -> None:
    @app.post("/games", status_code=202, response_model=Created,
              response_model_exclude_none=True,
              responses=ERRORS,
              tags=["games"])
    async def create_game(body: CreateGame, request: Request, who: Who,
                          wait: Wait = 0) -> Created:
        """Start a game (organisers only). Its seed is derived from the client's
        (`CreateGame.seed`) with the server's seed secret; judges read both."""
        require(who, None, "organiser")
        gw.limits.create.check(f"organiser:{who.name}")
        game_id = body.game_id or f"g-{uuid.uuid4().hex[:16]}"
        if await anyio.to_thread.run_sync(gw.reads.exists, game_id):
            raise HTTPException(409, f"game {game_id!r} exists")
        seed = derive_seed(gw.settings.seed_secret.encode(), game_id, body.seed)
        try:
            start = body.start(game_id, seed)
        except ValueError as e:
            raise HTTPException(422, str(e)) from None
        if body.deck_lists:
            start = await deck_lists(start, body.deck_lists)
        cid = f"start-{uuid.uuid4().hex}"
        await anyio.to_thread.run_sync(record_created, gw.reads.store, game_id, who.name,
                                       cid, body.seed, seed)
        env = CommandEnvelope(game_id=game_id, command_id=cid, actor=ORGANIZER,
                              command=start.model_dump(mode="json"), correlation_id=cid)
        await gw.publish(env, "StartGame", None)
        log().info("game created", game_id=game_id, command_id=cid, by=who.name)
        out = Created(game_id=game_id, command_id=cid)
        if wait > 0:
            out.outcome = await gw.outcome(game_id, cid, wait, None, request)
        return out

    @app.post("/games/{game_id}/commands", status_code=202, response_model=CommandStatus,
              response_model_exclude_none=True,
              responses=ERRORS, tags=["games"])
    async def submit(game_id: str, body: Submit, request: Request, who: Who,
                     wait: Wait = 0) -> CommandStatus:
        """Send a command as the token's seat; with `wait`, its outcome."""
        check_game(game_id)
        require(who, game_id, "seat")  # judges, organisers, spectators do not play
        command = body.command
        if command.player != who.seat:
            raise HTTPException(403, f"this token is for seat {who.seat}, not "
                                     f"{command.player}")
        gw.limits.commands.check(f"{game_id}/{who.seat}")
        cid = body.command_id or f"c-{uuid.uuid4().hex}"
        env = CommandEnvelope(game_id=game_id, command_id=cid, actor=command.player,
                              command=command.model_dump(mode="json"),
                              expected_version=body.expected_version, correlation_id=cid)
        await gw.publish(env, command.type, getattr(command, "marker", None))
        gw.metrics.handled.labels("gateway", "command", "published").inc()
        log().info("command published", game_id=game_id, command_id=cid,
                   command=command.type, seat=command.player)
        if wait > 0:
            return await gw.outcome(game_id, cid, wait, who.seat, request)
        return CommandStatus(command_id=cid, status="pending")

    @app.get("/games/{game_id}/commands/{command_id}", response_model=CommandStatus,
             response_model_exclude_none=True,
             responses=ERRORS, tags=["games"])
    async def command_status(game_id: str, command_id: str, request: Request, who: Who,
                             wait: Wait = 0) -> CommandStatus:
        """A command's outcome: a seat reads only its own commands (any other id is
        `pending`), its reasons through its view; a judge reads any, as recorded."""
        check_game(game_id)
        require(who, game_id, "seat", "judge")
        await gw.judge_read(who, game_id, "command")
        return await gw.outcome(game_id, command_id, wait, viewer_of(who), request)

    @app.get("/games/{game_id}/view", response_model=SeatView, responses=ERRORS,
             tags=["games"])
    async def get_view(game_id: str, who: Who) -> SeatView:
        """What the token may see: a seat its view (CR 400.2), a spectator and an
        organiser the public view, a judge everything."""
        check_game(game_id)
        require(who, game_id, *ALL)
        await gw.judge_read(who, game_id, "view")
        return await anyio.to_thread.run_sync(gw.reads.view, game_id, viewer_of(who))

    @app.get("/games/{game_id}/legal", response_model=LegalActions, responses=ERRORS,
             tags=["games"])
    async def get_legal(game_id: str, who: Who) -> LegalActions:
        """The seat's legal actions now (a read-only query of the core)."""
        check_game(game_id)
        require(who, game_id, "seat")
        assert who.seat is not None
        version, actions = await anyio.to_thread.run_sync(gw.reads.legal, game_id,
                                                          who.seat)
        return LegalActions(version=version, actions=actions)

    @app.get("/games/{game_id}/events", response_model=list[FullEvent | EventSummary],
             responses=ERRORS, tags=["games"])
    async def get_events(game_id: str, request: Request, who: Who,
                         from_version: Annotated[int, Query(ge=1, le=2**53)] = 1,
                         wait: Wait = 0) -> list[FullEvent | EventSummary]:
        """Events from `from_version` (long-poll up to `wait` s). Seats, spectators and
        organisers get (version, type, rule) only; judges get payloads and metadata."""
        check_game(game_id)
        require(who, game_id, *ALL)
        judge = who.role == "judge"
        await gw.judge_read(who, game_id, "events")
        deadline = anyio.current_time() + wait
        with gw.polling():
            while True:
                ev = gw.feed.watch(game_id)
                out = await anyio.to_thread.run_sync(gw.reads.events, game_id,
                                                     from_version, judge)
                left = deadline - anyio.current_time()
                if out or await gw.ended(request, left):
                    return out
                await gw.feed.wait(ev, min(POLL_S, left))

    @app.get("/games/{game_id}/audit", response_model=list[AuditRecord], responses=ERRORS,
             tags=["audit"])
    async def get_audit(game_id: str, who: Who) -> list[AuditRecord]:
        """The commands the rules rejected, as recorded (judges only)."""
        check_game(game_id)
        require(who, game_id, "judge")
        await gw.judge_read(who, game_id, "audit")
        return await anyio.to_thread.run_sync(gw.reads.audit, game_id)

    @app.get("/games/{game_id}/dead-letters", response_model=list[DeadLetter],
             responses=ERRORS, tags=["audit"])
    async def get_dead_letters(game_id: str, who: Who) -> list[DeadLetter]:
        """Messages the services set aside after handling them kept failing (judges
        only; issue 14, `arbiter_runtime.deadletters`)."""
        check_game(game_id)
        require(who, game_id, "judge")
        await gw.judge_read(who, game_id, "dead-letters")
        return await anyio.to_thread.run_sync(gw.reads.dead_letters, game_id)
