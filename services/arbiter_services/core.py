"""What every service does with its messages, without Kafka: load, check, decide, append.

A thin shell over the pure core (`decide`), for a batch of consumed messages at a time:

1. group the messages by game, keeping their order; load each game (cached projection,
   caught up from the store's tail);
2. for each message in order, on a scratch copy of the state: check it is this service's
   (the command kind's consumer; for work, its owner), decide, apply the events to the
   scratch state. A work message makes the service do all the work of its kinds the game
   owes (game-wide services: on every marker; the stack resolver: on the message's
   marker), one `decide(state, RunEngineWork(marker))` after another. Deciding and
   applying go through the one shell loop (`arbiter_core.kernel.shell_loop`): its commit adds
   the step to the game's group, and the owner's work is `owed_marker(owner=)`'s;
3. append everything decided for the game at once, with the expected version. Every
   decided batch keeps its own metadata (`append_id`, `command_id` or `work_id`), so the
   stored log is a sequence of exactly what `decide` returned (`melee.verify_log`);
4. on a version conflict, catch up and decide the whole group again (a command that has
   become illegal is then rejected, work no longer owed is dropped).

Idempotent: a command already in the game stream or the audit stream is a no-op; a
work message when its owner owes no work is `stale`; the store refuses a second append
with the same first `command_id`, and the commands of the earlier append it answers with
are learnt before deciding again (so that command is then a duplicate, not a conflict
again). Command ids are scoped per actor and engine work has its own namespace
(`arbiter_runtime.command_ids`, issue 14): the store's key is `c/<actor>/<id>` for a
command and `w/<game>:<version>:<kind>:<marker>` for work, so no seat can make another
seat's command, or the engine's work, a duplicate; an id with `/` or the shape of a work
id is rejected (`field: command_id`). Rule violations go to the game's audit stream
(`CommandRejected`) once the group's append is stored, never to the game stream.

Snapshots (issue 4: "loads state from the store (snapshot + tail)"): the append that
takes a game's stream across a multiple of `snapshot_every(players)` events saves a
snapshot of the state it produced, with the projection's command ids
(`snapshots.encode(state, commands)`). Exactly one append crosses each multiple, so one
snapshot is saved per multiple among all the processes, with no store read to decide it.
The state is copied on the append's thread and saved on a background thread
(`snapshotter.py`). A cold projection (`ProjectionCache`) loads the latest one plus the
events after it.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import ValidationError

from arbiter_core.kernel.commands import COMMAND_ADAPTER, Command
from arbiter_core.kernel.decide import WORK_OWNERS
from arbiter_core.kernel.errors import InvalidCommand, RuleViolation
from arbiter_core.kernel.events import Event
from arbiter_core.kernel.shell_loop import ShellLoop, Step
from arbiter_runtime import snapshots
from arbiter_runtime.audit import CommandRejected, record_rejection, rejected
from arbiter_runtime.command_ids import command_key, key_of, reserved_reason, work_key
from arbiter_runtime.deadletters import short_reason
from arbiter_runtime.projection import ProjectionCache
from arbiter_runtime.screening import screen
from arbiter_services.deadletter import DEAD_LETTER_AFTER, DeadLetterBox, MessageFailed
from arbiter_services.messages import CommandEnvelope, WorkItem
from arbiter_services.profiling import STAGES
from arbiter_services.rounds import SERVICE_LOOP, Round
from arbiter_services.snapshotter import Snapshotter
from arbiter_services.stores import close_game
from arbiter_services.topics import COMMAND_CONSUMERS, PER_MARKER_WORK
from arbiter_store import ConcurrencyConflict, EventStore, StoredEvent

Status = Literal["applied", "rejected", "duplicate", "stale", "not_mine", "dead_letter"]
Message = CommandEnvelope | WorkItem
MAX_TRIES = 8
APPEND_THREADS = 16  # one batch's games append together (the store's group commit)
MAX_WORK_BATCHES = 200  # engine batches one work message may decide (a runaway guard)
ORGANIZER = "organizer"
@dataclass(frozen=True)
class Outcome:
    status: Status
    version: int
    events: int = 0
    conflicts: int = 0
    rejection: CommandRejected | None = None
    retries: int = 0  # groups decided again at a newer version after a conflict


class ServiceCore:
    """The decide-and-append loop of one service (`name` is its owner name)."""

    def __init__(self, name: str, store: EventStore, cache: ProjectionCache | None = None,
                 service_id: str = "", snapshot_every: int | None = None,
                 loop: ShellLoop = SERVICE_LOOP) -> None:
        """`snapshot_every`: events between snapshots (None: `snapshots.snapshot_every`
        of the game's players; 0: never). `loop`: the shell loop (a test's)."""
        self.name = name
        self.loop = loop
        self.store = store
        self.cache = cache or ProjectionCache(store)
        self.service_id = service_id or name
        self.snapshot_every = snapshot_every
        self._pool: ThreadPoolExecutor | None = None
        self.snapshotter = Snapshotter(store, name)
        self.dead = DeadLetterBox(store, self.service_id)

    def handle_command(self, env: CommandEnvelope, trace: dict[str, str]) -> Outcome:
        return self.handle_batch([(env, trace)])[0]

    def handle_work(self, item: WorkItem, trace: dict[str, str]) -> Outcome:
        return self.handle_batch([(item, trace)])[0]

    def handle_batch(self, messages: Sequence[tuple[Message, dict[str, str]]]
                     ) -> list[Outcome]:
        """Handle consumed messages, in order per game; one outcome per message. Every
        game's group is decided, then the appends go to the store together (its group
        commit makes them one transaction); a game whose append met a newer version is
        then handled again on its own."""
        by_game: dict[str, list[int]] = {}
        for i, (msg, _) in enumerate(messages):
            by_game.setdefault(msg.game_id, []).append(i)
        groups = {game: [messages[i] for i in idx] for game, idx in by_game.items()}
        rounds: dict[str, tuple[Round, list[Outcome]]] = {}
        for game, msgs in groups.items():
            with contextlib.suppress(MessageFailed):  # handled one by one below
                rounds[game] = self._decide(game, msgs)
        failed = self._append_all([r for r, _ in rounds.values()])
        out: list[Outcome | None] = [None] * len(messages)
        for game, idx in by_game.items():
            if game not in rounds:
                results = self._one_by_one(game, groups[game])
            elif game in failed:
                try:
                    results = self._handle_game(game, groups[game], conflicts=1)
                except MessageFailed:
                    results = self._one_by_one(game, groups[game])
            else:
                results = self._done(*rounds[game], 0)
            for i, o in zip(idx, results, strict=True):
                out[i] = o
        return [o for o in out if o is not None]

    def _one_by_one(self, game_id: str, msgs: list[tuple[Message, dict[str, str]]]
                    ) -> list[Outcome]:
        """A game whose group failed: each message alone, in order; one that fails
        `DEAD_LETTER_AFTER` times in a row is set aside (`deadletter.py`)."""
        outs: list[Outcome] = []
        for msg in msgs:
            for attempt in range(1, DEAD_LETTER_AFTER + 1):
                try:
                    outs += self._handle_game(game_id, [msg])
                    break
                except MessageFailed as e:
                    if attempt == DEAD_LETTER_AFTER:
                        version = self.cache.peek(game_id).version
                        self.dead.set_aside(msg[0], str(e), attempt, version)
                        outs.append(Outcome("dead_letter", version))
        return outs

    # ------------------------------------------------------------------ one game

    def _decide(self, game_id: str, msgs: list[tuple[Message, dict[str, str]]]
                ) -> tuple[Round, list[Outcome]]:
        with STAGES.timed("load"):
            proj = self.cache.get(game_id)
        r = Round(proj, proj.state.clone(), [], set(), [], {})
        with STAGES.timed("decide"):
            outs = [self._command(r, m, t) if isinstance(m, CommandEnvelope)
                    else self._work(r, m, t) for m, t in msgs]
        return r, outs

    def _append_all(self, rounds: list[Round]) -> set[str]:
        """Append every round (concurrently when several: one group commit); returns the
        games whose append conflicted."""
        todo = [r for r in rounds if r.events]
        if len(todo) <= 1:
            try:
                for r in todo:
                    self._append(r)
            except ConcurrencyConflict:
                return {todo[0].proj.game_id}
            return set()
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=APPEND_THREADS,
                                            thread_name_prefix=f"{self.name}-append")
        futures = {r.proj.game_id: self._pool.submit(self._append, r) for r in todo}
        failed = set()
        for game, f in futures.items():
            try:
                f.result()
            except ConcurrencyConflict:
                failed.add(game)
        return failed

    def _handle_game(self, game_id: str, msgs: list[tuple[Message, dict[str, str]]],
                     conflicts: int = 0) -> list[Outcome]:
        while True:
            r, outs = self._decide(game_id, msgs)
            try:
                self._append(r)
            except ConcurrencyConflict:
                conflicts += 1
                if conflicts >= MAX_TRIES:
                    raise MessageFailed(f"{game_id}: gave up after {MAX_TRIES} version "
                                        "conflicts") from None
                continue
            return self._done(r, outs, conflicts)

    def _done(self, r: Round, outs: list[Outcome], conflicts: int) -> list[Outcome]:
        """Record the round's rejections (its append is stored) and the outcomes."""
        for rejection, meta in r.rejections:
            record_rejection(self.store, r.proj.game_id, rejection, meta)
        # the group's conflicts (and retries, if it applied anything) count once
        retried = conflicts if any(o.status == "applied" for o in outs) else 0
        return [Outcome(o.status, r.state.version, o.events,
                        conflicts if i == 0 else 0, o.rejection, retried if i == 0 else 0)
                for i, o in enumerate(outs)]

    def _append(self, r: Round) -> None:
        """Append the round's events at the expected version and adopt its state. A
        `command_id` the store already holds means another instance got there first (or
        it was applied before the snapshot the projection was loaded from): its command
        ids are learnt, then it is treated as a conflict (catch up, decide again)."""
        if not r.events:
            return
        assert r.first_id is not None
        first_append = r.events[0].metadata["append_id"]
        before = r.proj.version
        with STAGES.timed("append"):
            stored = self.store.append(r.proj.game_id, before, r.events,
                                       command_id=r.first_id)
        if not stored or stored[0].metadata.get("append_id") != first_append:
            if stored:
                self._learn(r, stored)
            raise ConcurrencyConflict(r.proj.game_id, before, stored[-1].version
                                      if stored else before)
        if stored[-1].version != r.state.version:  # pragma: no cover - a core bug
            raise RuntimeError(f"{r.proj.game_id}: stored up to {stored[-1].version}, "
                               f"decided up to {r.state.version}")
        ended = r.state.game_over and not r.proj.state.game_over
        r.proj.state = r.state  # the decided events applied: what the store now holds
        if ended:
            close_game(self.store, r.proj.game_id)  # its final anchor (issue 14)
        r.proj.commands.update(r.applied_ids)
        every = (self.snapshot_every if self.snapshot_every is not None
                 else snapshots.snapshot_every(len(r.state.seats)))
        if every > 0 and r.state.version // every > before // every:
            self.snapshotter.submit(r.proj)

    @staticmethod
    def _learn(r: Round, stored: list[StoredEvent]) -> None:
        """The store answered with the earlier append of the round's first key: its
        commands (and the first key, if a command's) are already applied."""
        for e in stored:
            key = key_of(e.metadata)
            if key is not None:
                r.proj.commands.setdefault(key, e.version)
        if r.first_id in r.decided:
            r.proj.commands.setdefault(r.first_id, stored[-1].version)

    # ------------------------------------------------------------------ commands

    def _command(self, r: Round, env: CommandEnvelope, trace: dict[str, str]) -> Outcome:
        """Decide one command. Its id is scoped to its actor (`command_ids`): another
        actor's command of the same id is another command."""
        key = command_key(env.actor, env.command_id)
        if key in r.proj.commands or key in r.decided:
            return Outcome("duplicate", r.state.version)
        if self.dead.is_dead(env):
            return Outcome("dead_letter", r.state.version)
        if r._rejected is None:
            r._rejected = rejected(self.store, env.game_id)
        previous = r._rejected.get(key)
        if previous is not None:
            return Outcome("duplicate", r.state.version, rejection=previous)
        ctype = str(env.command.get("type", "?"))
        reserved = reserved_reason(env.command_id)
        if reserved is not None:
            return self._reject(r, env, ctype, "invalid_command", reserved,
                                field="command_id")
        try:
            command: Command = COMMAND_ADAPTER.validate_python(env.command)
        except ValidationError as e:
            return self._reject(r, env, ctype, "invalid_command", _first_error(e),
                                field=_first_loc(e))
        if COMMAND_CONSUMERS.get(command.type) != self.name:
            return Outcome("not_mine", r.state.version)
        actor_ok = (getattr(command, "player", None) == env.actor
                    or (env.actor == ORGANIZER and not hasattr(command, "player")))
        if not actor_ok:
            return self._reject(r, env, ctype, "invalid_command",
                                f"{env.actor} may not send this command", field="player")
        if getattr(command, "game_id", env.game_id) != env.game_id:
            return self._reject(r, env, ctype, "invalid_command",
                                "the command names another game", field="game_id")
        if env.expected_version is not None and env.expected_version != r.state.version:
            return self._reject(r, env, ctype, "stale_version",
                                f"the game is at version {r.state.version}, not "
                                f"{env.expected_version}")

        def commit(step: Step) -> list[Event]:
            meta = self._meta(step.command.type, env.command_id, env.correlation_id or
                              env.command_id, env.causation_id or env.command_id, trace,
                              actor=env.actor, command_key=key)
            return r.add(step.events, meta, key)

        try:
            screen(r.state, env.actor, command)  # only objects the actor can see
            step = self.loop.step(r.state, command, commit)
        except RuleViolation as e:
            return self._reject(r, env, ctype, "rule_violation", e.message, rule=e.rule)
        except InvalidCommand as e:
            return self._reject(r, env, ctype, "invalid_command", e.message, field=e.field)
        except Exception as e:  # an engine defect: this message fails (dead letters)
            raise MessageFailed(short_reason(e)) from e
        r.decided.add(key)
        if step.events:
            r.applied_ids[key] = r.state.version
        return Outcome("applied", r.state.version, len(step.events))

    def _reject(self, r: Round, env: CommandEnvelope, ctype: str, code: str, reason: str,
                rule: str | None = None, field: str | None = None) -> Outcome:
        rejection = CommandRejected(command_id=env.command_id, seat=env.actor,
                                    command_type=ctype, code=code, reason=reason, rule=rule,
                                    field=field)
        r.decided.add(command_key(env.actor, env.command_id))
        r.rejections.append((rejection, {
            "correlation_id": env.correlation_id or env.command_id,
            "causation_id": env.command_id, "service": self.service_id,
            "at_version": r.state.version, "recorded_at": time.time()}))
        return Outcome("rejected", r.state.version, rejection=rejection)

    # ------------------------------------------------------------------ work

    def _work(self, r: Round, item: WorkItem, trace: dict[str, str]) -> Outcome:
        """Do the work of this service's kinds the game owes now (on the item's marker
        for per-marker work, else on every marker, lowest first), chained on the
        scratch state; `stale` if none is owed."""
        if WORK_OWNERS.get(item.kind) != self.name:
            return Outcome("not_mine", r.state.version)
        if self.dead.is_dead(item):
            return Outcome("dead_letter", r.state.version)
        made = 0

        def commit(step: Step) -> list[Event]:
            nonlocal made
            # the work id names the version decided at: the same append as any other
            # message for that work at that version (the store deduplicates)
            work_id = f"{item.game_id}:{step.version}:{step.work}:{step.marker}"
            key = work_key(work_id)
            meta = self._meta("RunEngineWork", None, item.correlation_id or item.work_id,
                              item.causation_id or item.work_id, trace, work_id=work_id,
                              work=step.work, command_key=key)
            made += len(step.events)
            return r.add(step.events, meta, key)

        only = item.marker if item.kind in PER_MARKER_WORK else None
        try:
            n = self.loop.run_engine(r.state, commit, owner=self.name, only=only,
                                     limit=MAX_WORK_BATCHES)
        except Exception as e:  # an engine defect (RuleViolation included: work must
            raise MessageFailed(short_reason(e)) from e  # not be refused)
        return Outcome("applied" if n else "stale", r.state.version, made)

    # ------------------------------------------------------------------ helpers

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


def _first_loc(e: ValidationError) -> str:
    errs = e.errors()
    return ".".join(str(x) for x in errs[0]["loc"]) if errs else ""


def _first_error(e: ValidationError) -> str:
    errs = e.errors()
    return f"{_first_loc(e)}: {errs[0]['msg']}" if errs else str(e)
