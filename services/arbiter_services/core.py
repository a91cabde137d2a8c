"""What every service does with a message, without Kafka: load, check, decide, append.

A thin shell over the pure core (`decide`):

1. load the game (cached projection, caught up from the store);
2. check the message is this service's to act on (the command kind's consumer, or the
   pending-work marker naming this service's work at the item's version);
3. decide, and append with the expected version;
4. on a version conflict, catch up, check again, and decide again or drop.

Idempotent: a command id already in the game stream or the audit stream is a no-op,
and a work item whose version has passed is stale. Rule violations go to the game's
audit stream (`CommandRejected`), never to the game stream.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import ValidationError

from arbiter_core.commands import COMMAND_ADAPTER, Command, RunEngineWork
from arbiter_core.decide import WORK_OWNERS, decide
from arbiter_core.errors import InvalidCommand, RuleViolation
from arbiter_core.state import Work
from arbiter_runtime.audit import CommandRejected, record_rejection, rejected
from arbiter_runtime.codec import to_new_event
from arbiter_runtime.projection import GameProjection, ProjectionCache
from arbiter_services.messages import CommandEnvelope, WorkItem
from arbiter_services.topics import COMMAND_CONSUMERS
from arbiter_store import ConcurrencyConflict, EventStore

Status = Literal["applied", "rejected", "duplicate", "stale", "not_mine"]
MAX_TRIES = 8
ORGANIZER = "organizer"


@dataclass(frozen=True)
class Outcome:
    status: Status
    version: int
    events: int = 0
    conflicts: int = 0
    rejection: CommandRejected | None = None
    retries: int = 0  # work decided again at a newer version after a conflict


class ServiceCore:
    """The decide-and-append loop of one service (`name` is its owner name)."""

    def __init__(self, name: str, store: EventStore, cache: ProjectionCache | None = None,
                 service_id: str = "") -> None:
        self.name = name
        self.store = store
        self.cache = cache or ProjectionCache(store)
        self.service_id = service_id or name

    # ------------------------------------------------------------------ commands

    def handle_command(self, env: CommandEnvelope, trace: dict[str, str]) -> Outcome:
        proj = self.cache.get(env.game_id)
        if env.command_id in proj.commands:
            return Outcome("duplicate", proj.version)
        previous = rejected(self.store, env.game_id).get(env.command_id)
        if previous is not None:
            return Outcome("duplicate", proj.version, rejection=previous)
        ctype = str(env.command.get("type", "?"))
        try:
            command: Command = COMMAND_ADAPTER.validate_python(env.command)
        except ValidationError as e:
            return self._reject(env, proj, ctype, "invalid_command", _first_error(e),
                                field=_first_loc(e))
        if COMMAND_CONSUMERS.get(command.type) != self.name:
            return Outcome("not_mine", proj.version)
        actor_ok = (getattr(command, "player", None) == env.actor
                    or (env.actor == ORGANIZER and not hasattr(command, "player")))
        if not actor_ok:
            return self._reject(env, proj, ctype, "invalid_command",
                                f"{env.actor} may not send this command", field="player")
        if getattr(command, "game_id", env.game_id) != env.game_id:
            return self._reject(env, proj, ctype, "invalid_command",
                                "the command names another game", field="game_id")
        conflicts = 0
        for _ in range(MAX_TRIES):
            if env.expected_version is not None and env.expected_version != proj.version:
                return self._reject(env, proj, ctype, "stale_version",
                                    f"the game is at version {proj.version}, not "
                                    f"{env.expected_version}", conflicts=conflicts)
            try:
                events = decide(proj.state, command)
            except RuleViolation as e:
                return self._reject(env, proj, ctype, "rule_violation", e.message,
                                    rule=e.rule, conflicts=conflicts)
            except InvalidCommand as e:
                return self._reject(env, proj, ctype, "invalid_command", e.message,
                                    field=e.field, conflicts=conflicts)
            meta = self._meta(command.type, env.command_id, env.correlation_id or
                              env.command_id, env.causation_id or env.command_id, trace,
                              actor=env.actor)
            try:
                fresh = self._append(proj, events, meta, env.command_id)
                return Outcome("applied" if fresh else "duplicate", proj.version,
                               len(events) if fresh else 0, conflicts)
            except ConcurrencyConflict:
                conflicts += 1
                proj = self.cache.get(env.game_id)
                if env.command_id in proj.commands:
                    return Outcome("duplicate", proj.version, conflicts=conflicts)
        raise RuntimeError(f"{env.game_id}: gave up after {MAX_TRIES} version conflicts")

    # ------------------------------------------------------------------ work

    def handle_work(self, item: WorkItem, trace: dict[str, str]) -> Outcome:
        if WORK_OWNERS.get(item.kind) != self.name:
            return Outcome("not_mine", 0)
        proj = self.cache.get(item.game_id)
        if not self._work_pending(proj, item):
            return Outcome("stale", proj.version)
        conflicts = retries = 0
        while True:
            # the work id names the version decided at: a retry at a newer version is the
            # same append as the item the relay sends for that version (the store dedups)
            work_id = f"{item.game_id}:{proj.version}:{item.kind}:{item.marker}"
            events = decide(proj.state, RunEngineWork(marker=item.marker))
            meta = self._meta("RunEngineWork", None, item.correlation_id or item.work_id,
                              item.causation_id or item.work_id, trace, work_id=work_id,
                              work=item.kind)
            try:
                if not self._append(proj, events, meta, work_id):
                    return Outcome("stale", proj.version, conflicts=conflicts,
                                   retries=retries)
            except ConcurrencyConflict:
                # someone else moved the game on (with several turn markers, usually
                # another marker's work): if this marker still owes the same work, decide
                # again on the newer state; otherwise drop (the relay sends what is owed)
                conflicts += 1
                proj = self.cache.get(item.game_id)
                if conflicts >= MAX_TRIES or not self._still_owed(proj, item):
                    return Outcome("stale", proj.version, conflicts=conflicts,
                                   retries=retries)
                retries += 1
                continue
            return Outcome("applied", proj.version, len(events), conflicts, retries=retries)

    @staticmethod
    def _still_owed(proj: GameProjection, item: WorkItem) -> bool:
        s = proj.state
        m = s.markers.get(item.marker)
        return (not s.game_over and m is not None and isinstance(m.pending, Work)
                and m.pending.kind == item.kind)

    @staticmethod
    def _work_pending(proj: GameProjection, item: WorkItem) -> bool:
        s = proj.state
        if s.version != item.version or s.game_over:
            return False
        m = s.markers.get(item.marker)
        return m is not None and isinstance(m.pending, Work) and m.pending.kind == item.kind

    # ------------------------------------------------------------------ helpers

    def _append(self, proj: GameProjection, events: list[Any], meta: dict[str, Any],
                command_id: str) -> bool:
        """Append at the expected version; False if the store already had an append with
        this command id (a command, or a work item's (game, version, kind, marker)): it
        returns that append's events and writes nothing."""
        append_id = uuid.uuid4().hex
        meta = {**meta, "append_id": append_id}
        stored = self.store.append(proj.game_id, proj.version,
                                   [to_new_event(e, meta) for e in events],
                                   command_id=command_id)
        proj.apply_all(stored)
        return not stored or stored[0].metadata.get("append_id") == append_id

    def _meta(self, command: str, command_id: str | None, correlation: str, causation: str,
              trace: dict[str, str], **extra: Any) -> dict[str, Any]:
        meta: dict[str, Any] = {"command": command, "correlation_id": correlation,
                                "causation_id": causation, "service": self.service_id,
                                "recorded_at": time.time(), **extra}
        if command_id is not None:
            meta["command_id"] = command_id
        if trace:
            meta["trace"] = trace
        return meta

    def _reject(self, env: CommandEnvelope, proj: GameProjection, ctype: str, code: str,
                reason: str, rule: str | None = None, field: str | None = None,
                conflicts: int = 0) -> Outcome:
        rejection = CommandRejected(command_id=env.command_id, seat=env.actor,
                                    command_type=ctype, code=code, reason=reason, rule=rule,
                                    field=field)
        record_rejection(self.store, env.game_id, rejection,
                         {"correlation_id": env.correlation_id or env.command_id,
                          "causation_id": env.command_id, "service": self.service_id,
                          "at_version": proj.version, "recorded_at": time.time()})
        return Outcome("rejected", proj.version, conflicts=conflicts, rejection=rejection)


def _first_loc(e: ValidationError) -> str:
    errs = e.errors()
    return ".".join(str(x) for x in errs[0]["loc"]) if errs else ""


def _first_error(e: ValidationError) -> str:
    errs = e.errors()
    return f"{_first_loc(e)}: {errs[0]['msg']}" if errs else str(e)
