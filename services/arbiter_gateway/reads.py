"""What the gateway reads from the store: projections, outcomes, views and feeds.

Everything here runs in a worker thread under the game's lock (projections are not
shared between threads). Seats get views and event summaries (version, type, rule),
never event payloads: payloads name hidden cards. Judges get everything.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from pydantic import BaseModel

from arbiter_core.legal import legal_actions
from arbiter_core.view import judge_view, view
from arbiter_runtime.audit import audit_stream, claim_seat, rejected
from arbiter_runtime.projection import GameProjection, ProjectionCache
from arbiter_services.relay import PUBLIC_META
from arbiter_store import EventStore, StoredEvent

T = TypeVar("T")
SEAT_EVENT_FIELDS = ("version", "type", "rule")


class CommandStatus(BaseModel):
    command_id: str
    status: Literal["pending", "applied", "rejected"]
    version: int | None = None
    code: str | None = None
    rule: str | None = None
    field: str | None = None
    reason: str | None = None


class Reads:
    def __init__(self, store: EventStore, max_games: int = 2000) -> None:
        self.store = store
        self.cache = ProjectionCache(store, max_games)
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def with_game(self, game_id: str, fn: Callable[[GameProjection], T]) -> T:
        with self._guard:
            lock = self._locks.setdefault(game_id, threading.Lock())
        with lock:
            return fn(self.cache.get(game_id))

    def with_started(self, game_id: str, fn: Callable[[GameProjection], T]) -> T:
        """Like `with_game`, for a game that has started (LookupError if not)."""
        def guarded(p: GameProjection) -> T:
            if not p.state.started:
                raise LookupError(f"no started game {game_id!r}")
            return fn(p)
        return self.with_game(game_id, guarded)

    # ------------------------------------------------------------------ queries

    def started(self, game_id: str) -> tuple[bool, list[str]]:
        return self.with_game(game_id, lambda p: (p.state.started, list(p.state.seats)))

    def view(self, game_id: str, seat: str | None) -> dict[str, Any]:
        def build(p: GameProjection) -> dict[str, Any]:
            v = judge_view(p.state) if seat is None else view(p.state, seat)
            return v.model_dump(mode="json")
        return self.with_started(game_id, build)

    def legal(self, game_id: str, seat: str) -> list[dict[str, Any]]:
        return self.with_started(game_id, lambda p: [
            a.model_dump(mode="json") for a in legal_actions(p.state, seat)])

    def status(self, game_id: str, command_id: str) -> CommandStatus:
        version = self.with_game(game_id, lambda p: p.commands.get(command_id))
        if version is not None:
            return CommandStatus(command_id=command_id, status="applied", version=version)
        r = rejected(self.store, game_id).get(command_id)
        if r is not None:
            return CommandStatus(command_id=command_id, status="rejected", code=r.code,
                                 rule=r.rule, field=r.field, reason=r.reason)
        return CommandStatus(command_id=command_id, status="pending")

    def events(self, game_id: str, from_version: int, judge: bool,
               limit: int = 1000) -> list[dict[str, Any]]:
        # straight from the store (no projection to catch up: nothing to evolve)
        return [event_json(e, judge) for e in self.store.read_stream(
            game_id, from_version, from_version + limit - 1)]

    def version(self, game_id: str) -> int:
        return self.with_game(game_id, lambda p: p.version)

    def audit(self, game_id: str) -> list[dict[str, Any]]:
        return [{"position": e.position, "type": e.type, "rule": e.rule, **e.payload}
                for e in self.store.read_stream(audit_stream(game_id))]

    def claim(self, game_id: str, seat: str) -> bool:
        return claim_seat(self.store, game_id, seat)


def event_json(e: StoredEvent, judge: bool) -> dict[str, Any]:
    if not judge:
        return {"version": e.version, "type": e.type, "rule": e.rule}
    return {"version": e.version, "position": e.position, "type": e.type,
            "schema_version": e.schema_version, "payload": e.payload, "rule": e.rule,
            "metadata": {k: e.metadata[k] for k in PUBLIC_META if k in e.metadata}}
