"""The console's JSON API, under `/console/api`. Every route takes a bearer token and
the server decides what its role may read (the page only shows it):

- judges read everything, and every read of hidden information (the board with hands and
  libraries, event lines, causes, exports) is recorded in the game's access stream
  first (`Gateway.judge_read`, listed by `GET /games/{id}/access`);
- a seat reads its own view of the board (its hand, a Two-Headed Giant teammate's) and
  the timeline as event types and rules; a spectator the public view and the same
  timeline; organisers the games list, the chain status and the public view.
"""

from __future__ import annotations

from typing import Annotated

import anyio
from fastapi import FastAPI, HTTPException, Query

from arbiter_gateway.app import Gateway, Who, check_game, require, viewer_of
from arbiter_gateway.auth import ROLES
from arbiter_gateway.console.models import (
    Board,
    ChainStatus,
    ConsoleConfig,
    CorrectionMade,
    CorrectionRequest,
    GameList,
    Progress,
    ScenarioExport,
    Timeline,
    Why,
)
from arbiter_gateway.console.reads import ConsoleReads, Filters, RuleUrl
from arbiter_gateway.staff import ERRORS
from arbiter_runtime.fold import CorrectionError, correct
from arbiter_runtime.projection import GameProjection
from arbiter_store import StoredEvent
from arbiter_store.errors import ConcurrencyConflict

Version = Annotated[int, Query(ge=0, le=2**53, description="an event number (0: before "
                                                           "the first)")]
Short = Annotated[str | None, Query(max_length=64)]
TAGS: list[str | object] = ["console"]


def add_console_api(app: FastAPI, gw: Gateway, reads: ConsoleReads) -> None:
    rule_url = RuleUrl(gw.settings.cr_base)

    @app.get("/console/api/config", response_model=ConsoleConfig, responses=ERRORS,
             tags=["console"])
    async def config(who: Who) -> ConsoleConfig:
        """Where CR rule numbers link to (`ARBITER_CR_BASE`; unset: not linked)."""
        return ConsoleConfig(cr_base=gw.settings.cr_base)

    @app.get("/console/api/games", response_model=GameList, responses=ERRORS,
             tags=["console"])
    async def games(who: Who, q: Short = None,
                    status: Annotated[str | None, Query(
                        pattern="^(live|finished|not started)$")] = None,
                    limit: Annotated[int, Query(ge=1, le=1000)] = 200) -> GameList:
        """The store's games, live and finished (judges and organisers), filtered by a
        word of the id or variant or a player's name, and by status."""
        require(who, None, "judge", "organiser")
        return await anyio.to_thread.run_sync(reads.games, q, status, limit)

    @app.get("/console/api/games/{game_id}/progress", response_model=Progress,
             responses=ERRORS, tags=["console"])
    async def progress(game_id: str, who: Who) -> Progress:
        """How far the filter index of the game is built (starts building it)."""
        check_game(game_id)
        require(who, game_id, *ROLES)
        index, indexed, total = await anyio.to_thread.run_sync(reads.histories.index,
                                                               game_id)
        return Progress(game_id=game_id, indexed=indexed, total=total,
                        complete=indexed >= total and not index.building)

    @app.get("/console/api/games/{game_id}/timeline", response_model=Timeline,
             responses=ERRORS, tags=["console"])
    async def timeline(game_id: str, who: Who,
                       offset: Annotated[int, Query(ge=0, le=2**53)] = 0,
                       limit: Annotated[int, Query(ge=1, le=500)] = 100,
                       kind: Annotated[list[str] | None, Query(max_length=20)] = None,
                       rule: Annotated[str | None, Query(
                           max_length=16, pattern=r"^[0-9][0-9a-z.]*$")] = None,
                       player: Short = None, card: Short = None) -> Timeline:
        """A page of the game's events, filtered by event kind, CR rule (and its
        subrules), player and card name. Judges get each event in words (a recorded
        read); seats and spectators the type, rule and actor, and may not search by
        card (a card's events would tell where hidden cards are)."""
        check_game(game_id)
        require(who, game_id, *ROLES)
        judge = who.role == "judge"
        if card and not judge:
            raise HTTPException(403, "only judges search by card")
        if any(len(k) > 64 or not k.isidentifier() for k in kind or ()):
            raise HTTPException(422, "kind: an event type's name (letters, at most 64)")
        f = Filters(kinds=frozenset(k for k in kind or () if k), rule=rule, player=player,
                    card=card)
        await gw.judge_read(who, game_id, f"console timeline from {offset}")
        return await anyio.to_thread.run_sync(reads.timeline, game_id, f, offset, limit,
                                              judge)

    @app.get("/console/api/games/{game_id}/board", response_model=Board,
             responses=ERRORS, tags=["console"])
    async def board(game_id: str, who: Who, at: Version | None = None,
                    follow: bool = False) -> Board:
        """The game after event `at` (default: the last) as the token may see it: a
        judge everything (a recorded read), a seat its view (CR 400.2), others the
        public view. `follow`: the page follows a live game (a judge's follow is
        recorded once a minute, not per event)."""
        check_game(game_id)
        require(who, game_id, *ROLES)
        if follow and at is not None:
            await gw.judge_follows(who, game_id, at)
        else:
            await gw.judge_read(who, game_id,
                                f"console board at {at if at is not None else 'end'}")
        return await anyio.to_thread.run_sync(reads.board, game_id, at, viewer_of(who),
                                              who.role == "judge")

    @app.get("/console/api/games/{game_id}/why", response_model=Why, responses=ERRORS,
             tags=["console"])
    async def why(game_id: str, who: Who, at: Annotated[int, Query(ge=1, le=2**53)]) -> Why:
        """Event `at`'s cause chain: the engine work and the event that queued it, back
        to the player's command, each with its CR rule (judges; a recorded read)."""
        check_game(game_id)
        require(who, game_id, "judge")
        await gw.judge_read(who, game_id, f"console why {at}")
        return await anyio.to_thread.run_sync(reads.why, game_id, at, rule_url)

    @app.get("/console/api/games/{game_id}/chain", response_model=ChainStatus,
             responses=ERRORS, tags=["console"])
    async def chain(game_id: str, who: Who) -> ChainStatus:
        """The game's hash chain: verified, or broken at its first bad event."""
        check_game(game_id)
        require(who, game_id, "judge", "organiser")
        return await anyio.to_thread.run_sync(reads.chain, game_id)

    @app.get("/console/api/games/{game_id}/scenario", response_model=ScenarioExport,
             responses=ERRORS, tags=["console"])
    async def scenario(game_id: str, who: Who,
                       at: Annotated[int, Query(ge=1, le=2**53)]) -> ScenarioExport:
        """The position after event `at` as a scenario file (judges; a recorded read)."""
        check_game(game_id)
        require(who, game_id, "judge")
        await gw.judge_read(who, game_id, f"console scenario at {at}")
        try:
            return await anyio.to_thread.run_sync(reads.scenario, game_id, at)
        except ValueError as e:
            raise HTTPException(422, str(e)) from None

    @app.post("/console/api/games/{game_id}/corrections", response_model=CorrectionMade,
              responses=ERRORS, tags=["console"])
    async def correction(game_id: str, body: CorrectionRequest, who: Who) -> CorrectionMade:
        """Back the game up to event `at` (judges only): appends a correction event naming
        the judge and the reason, signed with the judge's credential; history is kept and
        the game goes on from the state at `at` (docs/console.md)."""
        check_game(game_id)
        require(who, game_id, "judge")
        key = gw.judges.entries.get(who.name)
        if key is None:  # a token of a judge no longer configured
            raise HTTPException(403, "this judge's credential is no longer configured")

        def append() -> CorrectionMade:
            def on(p: GameProjection) -> StoredEvent:
                if p.version == 0:
                    raise LookupError(f"no game {game_id!r}")
                return correct(gw.reads.store, game_id, body.at, who.name, body.reason,
                               key, expected_version=p.version)
            made = gw.reads.with_game(game_id, on)
            return CorrectionMade(game_id=game_id, version=made.version, at=body.at,
                                  judge=who.name, reason=body.reason.strip())
        try:
            return await anyio.to_thread.run_sync(append)
        except CorrectionError as e:
            raise HTTPException(409, str(e)) from None
        except ConcurrencyConflict:
            raise HTTPException(409, "the game moved on meanwhile: try again") from None
