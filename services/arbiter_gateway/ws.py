"""WebSocket `/games/{id}/stream`: a live feed for a seat, a spectator or a judge.

The client's first message is `{"token": "..."}` (tokens never travel in URLs, which
end up in access logs). The server sends nothing before that token is checked: a bad
or missing one (or none within 5 s) closes the socket with code 4401, a token for
another game with 4403. Then it sends `hello`, and `update` messages, each with the
events since the last one and the reader's view: a seat or spectator gets event
summaries (version, type, rule) and its view; a judge gets full events and the judge
view (the connection is recorded as a judge read). A seat's rejected commands arrive as
`rejected` messages, their reasons through its view (judges see all of them, as
recorded).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import TYPE_CHECKING, Any

import anyio
from fastapi import FastAPI, HTTPException, WebSocket, WebSocketDisconnect

from arbiter_core.views.seat import SPECTATOR
from arbiter_gateway.auth import MAX_TOKEN, Principal
from arbiter_runtime.audit import CommandRejected, valid_game_id
from arbiter_services.messages import AuditMessage

if TYPE_CHECKING:
    from arbiter_gateway.app import Gateway

AUTH_TIMEOUT_S = 5.0
SAFETY_POLL_S = 1.0
MAX_FIRST_MESSAGE = MAX_TOKEN + 64
BAD_TOKEN, OTHER_GAME = 4401, 4403


async def _authenticate(ws: WebSocket, gw: Gateway, game_id: str) -> Principal | int:
    """The principal, or the close code."""
    try:
        raw = await asyncio.wait_for(ws.receive_text(), AUTH_TIMEOUT_S)
        if len(raw) > MAX_FIRST_MESSAGE:
            return BAD_TOKEN
        data = json.loads(raw)
        token = data.get("token") if isinstance(data, dict) else None
    except (TimeoutError, ValueError, RecursionError, KeyError, WebSocketDisconnect):
        return BAD_TOKEN
    p = gw.tokens.check(token) if isinstance(token, str) else None
    if p is None:
        return BAD_TOKEN
    return p if p.for_game(game_id) else OTHER_GAME


def add_stream_route(app: FastAPI, gw: Gateway) -> None:
    from arbiter_gateway.app import viewer_of

    @app.websocket("/games/{game_id}/stream")
    async def stream(ws: WebSocket, game_id: str) -> None:
        await ws.accept()
        who = await _authenticate(ws, gw, game_id)
        if isinstance(who, int) or not valid_game_id(game_id):
            with contextlib.suppress(RuntimeError, WebSocketDisconnect):
                await ws.close(code=who if isinstance(who, int) else OTHER_GAME)
            return
        try:
            await gw.judge_read(who, game_id, "stream")
        except HTTPException:
            await ws.close(code=1013)  # try again later
            return
        await _serve(ws, gw, game_id, who, viewer_of(who))


async def _serve(ws: WebSocket, gw: Gateway, game_id: str, who: Principal,
                 viewer: str | None) -> None:
    judge = viewer is None
    dirty = asyncio.Event()
    rejections: list[CommandRejected] = []

    def on_change(_: str, what: Any) -> None:
        if isinstance(what, AuditMessage) and viewer != SPECTATOR and (
                judge or what.payload.get("seat") == viewer):
            with contextlib.suppress(ValueError):
                rejections.append(CommandRejected.model_validate(what.payload))
        dirty.set()

    gw.feed.listen(game_id, on_change)
    closed = asyncio.Event()

    async def watch_close() -> None:
        try:
            while True:
                await ws.receive_text()
        except (WebSocketDisconnect, RuntimeError):
            closed.set()

    watcher = asyncio.create_task(watch_close())
    try:
        await ws.send_json({"kind": "hello", "role": who.role, "seat": who.seat})
        sent = 0
        while not closed.is_set():
            dirty.clear()
            version = await anyio.to_thread.run_sync(gw.reads.version, game_id)
            if version > sent:
                events = await anyio.to_thread.run_sync(gw.reads.events, game_id,
                                                        sent + 1, judge)
                view = await anyio.to_thread.run_sync(gw.reads.view, game_id, viewer)
                await ws.send_json({"kind": "update", "version": view.version,
                                    "events": [e.model_dump(mode="json") for e in events],
                                    "view": view.model_dump(mode="json")})
                sent = events[-1].version if events else sent
            while rejections:
                r = await anyio.to_thread.run_sync(gw.reads.render, game_id, viewer,
                                                   rejections.pop(0))
                await ws.send_json({"kind": "rejected", **r.model_dump(mode="json")})
            if sent < version:
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(dirty.wait(), SAFETY_POLL_S)
    except (WebSocketDisconnect, RuntimeError, LookupError):
        pass
    finally:
        watcher.cancel()
        gw.feed.unlisten(game_id, on_change)
