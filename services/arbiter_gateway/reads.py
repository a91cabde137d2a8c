"""What the gateway reads from the store: projections, outcomes, views and feeds.

Everything here runs in a worker thread under the game's lock (projections are not
shared between threads). A reader is a `Viewer`: a seat (its name), `SPECTATOR`, or None
for a judge. Seats and spectators get views and event summaries (version, type, rule),
never event payloads: payloads name hidden cards. A seat reads only its own commands'
outcomes, and their reasons through its view (`render_rejection`). Judges get
everything.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

from arbiter_core.kernel.commands import PlayerCommand
from arbiter_core.views.legal import legal_actions
from arbiter_core.views.seat import SPECTATOR, SeatView, judge_view, spectator_view, view
from arbiter_gateway.models import AuditRecord, CommandStatus, EventSummary, FullEvent
from arbiter_runtime.audit import (
    CommandRejected,
    audit_stream,
    claim_seat,
    rejected,
    rejection_for,
)
from arbiter_runtime.command_ids import command_id_of, command_key
from arbiter_runtime.deadletters import DeadLetter, dead_letters
from arbiter_runtime.projection import GameProjection, ProjectionCache
from arbiter_runtime.screening import render_rejection
from arbiter_services.relay import PUBLIC_META
from arbiter_store import EventStore, StoredEvent

T = TypeVar("T")
Viewer = str | None  # a seat, SPECTATOR, or None: a judge


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

    def exists(self, game_id: str) -> bool:
        return self.store.stream_version(game_id) > 0

    def started(self, game_id: str) -> tuple[bool, list[str]]:
        return self.with_game(game_id, lambda p: (p.state.started, list(p.state.seats)))

    def view(self, game_id: str, viewer: Viewer) -> SeatView:
        def build(p: GameProjection) -> SeatView:
            if viewer is None:
                return judge_view(p.state)
            if viewer == SPECTATOR:
                return spectator_view(p.state)
            return view(p.state, viewer)
        return self.with_started(game_id, build)

    def legal(self, game_id: str, seat: str) -> tuple[int, list[PlayerCommand]]:
        return self.with_started(game_id, lambda p: (
            p.version, list(legal_actions(p.state, seat))))

    def status(self, game_id: str, command_id: str, viewer: Viewer) -> CommandStatus:
        """A command's outcome. Ids are scoped per actor (`command_ids`): a seat reads its
        own command of that id, and a seat asking about an id it did not send is told
        `pending`, as for an id nobody sent: nothing about others' commands. A judge
        (None) reads any actor's command of that id."""
        pending = CommandStatus(command_id=command_id, status="pending")
        version = self.with_game(game_id, lambda p: p.command_version(command_id, viewer))
        if version is not None:
            return CommandStatus(command_id=command_id, status="applied", version=version)
        r = rejection_for(rejected(self.store, game_id), command_id, viewer)
        if r is not None:
            r = self.render(game_id, viewer, r)
            return CommandStatus(command_id=command_id, status="rejected", code=r.code,
                                 rule=r.rule, field=r.field, reason=r.reason)
        for d in dead_letters(self.store, game_id):
            mine = (d.key == command_key(viewer, command_id) if viewer is not None
                    else command_id_of(d.key) == command_id)
            if d.kind == "command" and mine:
                # set aside (the services could not handle it); why is for judges
                return CommandStatus(command_id=command_id, status="dead_letter",
                                     version=d.at_version,
                                     reason=d.reason if viewer is None else None)
        return pending

    def dead_letters(self, game_id: str) -> list[DeadLetter]:
        """The messages the services set aside for this game (for judges)."""
        return dead_letters(self.store, game_id)

    def render(self, game_id: str, viewer: Viewer, r: CommandRejected) -> CommandRejected:
        """A rejection as `viewer` may read it (no card it cannot see is named)."""
        if viewer is None:
            return r
        return self.with_game(game_id, lambda p: render_rejection(p.state, viewer, r))

    def events(self, game_id: str, from_version: int, judge: bool,
               limit: int = 1000) -> list[FullEvent | EventSummary]:
        # straight from the store (no projection to catch up: nothing to evolve)
        return [event_model(e, judge) for e in self.store.read_stream(
            game_id, from_version, from_version + limit - 1)]

    def version(self, game_id: str) -> int:
        return self.with_game(game_id, lambda p: p.version)

    def audit(self, game_id: str) -> list[AuditRecord]:
        return [AuditRecord.model_validate(
                    {"position": e.position, "type": e.type, "rule": e.rule, **e.payload})
                for e in self.store.read_stream(audit_stream(game_id))]

    def claim(self, game_id: str, seat: str) -> bool:
        return claim_seat(self.store, game_id, seat)


def event_model(e: StoredEvent, judge: bool) -> FullEvent | EventSummary:
    if not judge:
        return EventSummary(version=e.version, type=e.type, rule=e.rule)
    return FullEvent(version=e.version, position=e.position, type=e.type,
                     schema_version=e.schema_version, payload=e.payload, rule=e.rule,
                     metadata={k: e.metadata[k] for k in PUBLIC_META if k in e.metadata})
