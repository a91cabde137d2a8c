"""Logging in, handing out seat and spectator tokens, and the access records.

- `POST /auth/token` `{"role": "judge"|"organiser"}` with HTTP Basic auth (the
  operator-configured name and password, `ARBITER_JUDGES` / `ARBITER_ORGANISERS`): a
  token for every game. Rate limited per name and per client address.
- `POST /games/{id}/join` `{"seat"}` (organiser): the seat's token, once per seat.
- `POST /games/{id}/spectators` (organiser or judge): a spectator token.
- `GET /games/{id}/access` (judge: everything; organiser: the judges' reads).
"""

from __future__ import annotations

from typing import Annotated, Any

import anyio
from fastapi import FastAPI, HTTPException, Request, Security
from fastapi.security import HTTPBasic, HTTPBasicCredentials

from arbiter_gateway.access import records
from arbiter_gateway.app import Gateway, Who, check_game, require
from arbiter_gateway.models import AccessRecord, Join, Login, Problem, Token
from arbiter_gateway.passwords import MAX_PASSWORD
from arbiter_services.observability import log

BASIC = HTTPBasic(auto_error=False, scheme_name="login",
                  description="an operator-configured judge or organiser credential")
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": Problem} for code in (400, 401, 403, 404, 409, 413, 422, 429)}


def add_staff_routes(app: FastAPI, gw: Gateway) -> None:
    @app.post("/auth/token", response_model=Token, responses=ERRORS, tags=["auth"])
    async def login(body: Login, request: Request,
                    creds: Annotated[HTTPBasicCredentials | None, Security(BASIC)]) -> Token:
        """Log in as a judge or an organiser: a token valid for every game."""
        if creds is None:
            raise HTTPException(401, "HTTP Basic credentials are required",
                                headers={"WWW-Authenticate": "Basic"})
        client = request.client.host if request.client else "?"
        gw.limits.logins.check(f"name:{body.role}:{creds.username[:64]}")
        gw.limits.logins.check(f"addr:{client}")
        book = gw.judges if body.role == "judge" else gw.organisers
        ok = (len(creds.password) <= MAX_PASSWORD and len(creds.username) <= 64
              and await anyio.to_thread.run_sync(book.verify, creds.username,
                                                 creds.password))
        if not ok:
            log().warning("login refused", role=body.role, client=client)
            raise HTTPException(401, "wrong name or password",
                                headers={"WWW-Authenticate": "Basic"})
        token, expires = gw.tokens.issue(body.role, creds.username, None,
                                         gw.settings.staff_token_ttl_s)
        log().info("logged in", role=body.role, name=creds.username)
        return Token(token=token, role=body.role, name=creds.username, expires_at=expires)

    @app.post("/games/{game_id}/join", response_model=Token, responses=ERRORS,
              tags=["tokens"])
    async def join(game_id: str, body: Join, who: Who) -> Token:
        """A seat's token (organisers only), once per seat of a started game."""
        check_game(game_id)
        require(who, game_id, "organiser")
        started, seats = await anyio.to_thread.run_sync(gw.reads.started, game_id)
        if not started:
            raise HTTPException(409, "the game has not started yet")
        if body.seat not in seats:
            raise HTTPException(404, f"no seat {body.seat!r} in this game")
        if not await anyio.to_thread.run_sync(gw.reads.claim, game_id, body.seat):
            raise HTTPException(409, f"seat {body.seat!r} is already taken")
        log().info("seat joined", game_id=game_id, seat=body.seat, by=who.name)
        token, expires = gw.tokens.issue("seat", body.seat, game_id,
                                         gw.settings.game_token_ttl_s)
        return Token(token=token, role="seat", name=body.seat, game_id=game_id,
                     expires_at=expires)

    @app.post("/games/{game_id}/spectators", response_model=Token, responses=ERRORS,
              tags=["tokens"])
    async def spectate(game_id: str, who: Who) -> Token:
        """A spectator's token: the game's public information only."""
        check_game(game_id)
        require(who, game_id, "organiser", "judge")
        if not await anyio.to_thread.run_sync(gw.reads.exists, game_id):
            raise HTTPException(404, "no such game")
        token, expires = gw.tokens.issue("spectator", "spectator", game_id,
                                         gw.settings.game_token_ttl_s)
        return Token(token=token, role="spectator", name="spectator", game_id=game_id,
                     expires_at=expires)

    @app.get("/games/{game_id}/access", response_model=list[AccessRecord],
             responses=ERRORS, tags=["audit"])
    async def access(game_id: str, who: Who) -> list[AccessRecord]:
        """Judges' reads of hidden information (who, when, what); for judges also the
        game's creation (its seeds)."""
        check_game(game_id)
        require(who, game_id, "judge", "organiser")
        await gw.judge_read(who, game_id, "access")
        rows = await anyio.to_thread.run_sync(records, gw.reads.store, game_id,
                                              who.role == "judge")
        return [AccessRecord.model_validate(r) for r in rows]
