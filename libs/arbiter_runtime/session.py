"""The embedded shell around the pure core: load, decide, append with the expected
version, apply. All services in one process; the Kafka services issue the same commands.

Deciding, applying and running engine work go through the one shell loop
(`arbiter_core.kernel.shell_loop`); this shell's commit appends each step to the game's stream
at the step's version.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arbiter_core.kernel.commands import Command
from arbiter_core.kernel.events import Event
from arbiter_core.kernel.evolve import empty_state
from arbiter_core.kernel.hashing import state_hash
from arbiter_core.kernel.shell_loop import LOOP, ShellLoop, Step, owed_marker
from arbiter_core.kernel.state import GameState
from arbiter_runtime import snapshots
from arbiter_runtime.codec import from_bodies, to_new_event
from arbiter_runtime.fold import StoreStates, fold_all
from arbiter_store import EventStore
from arbiter_store.errors import InvalidSnapshot

MAX_ENGINE_STEPS = 10_000


class EngineStalled(RuntimeError):
    """The engine did work many times without waiting for a player (a loop, CR 104.4b)."""


class GameSession:
    """One game's stream in a store, with its state kept current."""

    def __init__(self, store: EventStore, game_id: str, state: GameState | None = None,
                 snapshot_every: int | None = None, loop: ShellLoop = LOOP) -> None:
        self.store = store
        self.loop = loop
        self.game_id = game_id
        self.state = state if state is not None else empty_state()
        self.on_events: list[Callable[[list[Event]], None]] = []
        self.snapshot_every = snapshot_every
        self._snapshot_at = self.state.version

    @classmethod
    def load(cls, store: EventStore, game_id: str, to_version: int | None = None,
             use_snapshot: bool = True, loop: ShellLoop = LOOP) -> GameSession:
        """Rebuild the state from the stored events (a projection of the log): from the
        latest snapshot at or below `to_version` plus the events after it, or from the
        first event. A snapshot that doesn't rebuild its state is ignored."""
        state = empty_state()
        if use_snapshot:
            snap = store.load_snapshot(game_id, to_version)
            if snap is not None:
                try:
                    state = snapshots.decode(snap.state, snap.state_hash)
                except InvalidSnapshot:
                    state = empty_state()
        bodies = store.read_bodies(game_id, state.version + 1, to_version)
        fold_all(from_bodies(bodies, where=game_id), StoreStates(store, game_id), state)
        return cls(store, game_id, state, loop=loop)

    def execute(self, command: Command, metadata: dict[str, Any] | None = None) -> list[Event]:
        """Decide, then append at the expected version, then apply. Raises the core's
        typed errors on an illegal command, with nothing stored."""
        step = self.loop.step(self.state, command, lambda st: self._append(st, metadata))
        self._applied(step)
        return step.events

    def _append(self, step: Step, metadata: dict[str, Any] | None = None) -> list[Event]:
        """The loop's commit: append the step at its version (the expected version)."""
        meta = {"command": step.command.type, **(metadata or {})}
        actor = getattr(step.command, "player", None)
        if actor is not None:
            meta["actor"] = actor
        self.store.append(self.game_id, step.version,
                          [to_new_event(e, meta) for e in step.events])
        return step.events

    def _applied(self, step: Step) -> None:
        if self.snapshot_every and self.state.version - self._snapshot_at >= self.snapshot_every:
            self.store.save_snapshot(self.game_id, self.state.version,
                                     snapshots.encode(self.state), state_hash(self.state))
            self._snapshot_at = self.state.version
        for callback in self.on_events:
            callback(step.events)

    def engine_marker(self) -> int | None:
        """A marker whose pending work belongs to the engine, if any (`owed_marker`)."""
        return owed_marker(self.state)

    def run_engine(self, stop: Callable[[GameState], bool] | None = None) -> int:
        """While the engine owes work, do it (the embedded loop). Returns the steps done.
        `stop` is checked before each step (the scenario runner's pass_until)."""
        steps = self.loop.run_engine(self.state, self._append, stop=stop,
                                     limit=MAX_ENGINE_STEPS + 1, applied=self._applied)
        if steps > MAX_ENGINE_STEPS:
            raise EngineStalled("the engine did not wait for any player")
        return steps
