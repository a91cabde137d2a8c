"""WebSocket `/games/{id}/stream`: a live feed for one seat or a judge.

The client's first message is `{"token": "..."}` (tokens never travel in URLs, which
end up in access logs). Then the server sends `update` messages, each with the events
since the last one and the reader's view: a seat gets event summaries (version, type,
rule) and its own SeatView; a judge gets full events and the judge view. A seat's
rejected commands arrive as `rejected` messages (judges see all of them).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import TYPE_CHECKING, Any

import anyio
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from arbiter_gateway.auth import Principal
from arbiter_services.messages import AuditMessage

if TYPE_CHECKING:
    from arbiter_gateway.app import Gateway

AUTH_TIMEOUT_S = 5.0
SAFETY_POLL_S = 1.0


async def _authenticate(ws: WebSocket, gw: Gateway, game_id: str) -> Principal | None:
    try:
        raw = await asyncio.wait_for(ws.receive_text(), AUTH_TIMEOUT_S)
        token = json.loads(raw).get("token")
    except (TimeoutError, ValueError, AttributeError):
        return None
    p = gw.tokens.check(token) if isinstance(token, str) else None
    return p if p is not None and p.game_id == game_id else None


def add_stream_route(app: FastAPI, gw: Gateway) -> None:
    @app.websocket("/games/{game_id}/stream")
    async def stream(ws: WebSocket, game_id: str) -> None:
        await ws.accept()
        who = await _authenticate(ws, gw, game_id)
        if who is None:
            await ws.send_json({"kind": "error", "error": "a valid token is required"})
            await ws.close(code=4401)
            return
        seat = who.seat if who.role == "seat" else None
        judge = who.role == "judge"
        dirty = asyncio.Event()
        rejections: list[dict[str, Any]] = []

        def on_change(_: str, what: Any) -> None:
            if isinstance(what, AuditMessage) and (judge or what.payload.get("seat") == seat):
                rejections.append({"kind": "rejected", **what.payload})
            dirty.set()

        gw.feed.listen(game_id, on_change)
        await ws.send_json({"kind": "hello", "role": who.role, "seat": seat})
        sent = 0
        closed = asyncio.Event()

        async def watch_close() -> None:
            try:
                while True:
                    await ws.receive_text()
            except WebSocketDisconnect:
                closed.set()

        watcher = asyncio.create_task(watch_close())
        try:
            while not closed.is_set():
                dirty.clear()
                version = await anyio.to_thread.run_sync(gw.reads.version, game_id)
                if version > sent:
                    events = await anyio.to_thread.run_sync(gw.reads.events, game_id,
                                                            sent + 1, judge)
                    view = await anyio.to_thread.run_sync(gw.reads.view, game_id, seat)
                    await ws.send_json({"kind": "update", "version": view["version"],
                                        "events": events, "view": view})
                    sent = events[-1]["version"] if events else sent
                while rejections:
                    await ws.send_json(rejections.pop(0))
                if sent < version:
                    continue
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(dirty.wait(), SAFETY_POLL_S)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            watcher.cancel()
            gw.feed.unlisten(game_id, on_change)
