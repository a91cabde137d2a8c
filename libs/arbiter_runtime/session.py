"""The embedded shell around the pure core: load, decide, append with the expected
version, apply. All services in one process; the Kafka services issue the same commands.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arbiter_core.commands import Command, RunEngineWork
from arbiter_core.decide import decide
from arbiter_core.events import Event
from arbiter_core.evolve import apply, empty_state
from arbiter_core.hashing import state_hash
from arbiter_core.state import GameState, Work
from arbiter_runtime import snapshots
from arbiter_runtime.codec import from_bodies, to_new_event
from arbiter_store import EventStore
from arbiter_store.errors import InvalidSnapshot

MAX_ENGINE_STEPS = 10_000


class EngineStalled(RuntimeError):
    """The engine did work many times without waiting for a player (a loop, CR 104.4b)."""


class GameSession:
    """One game's stream in a store, with its state kept current."""

    def __init__(self, store: EventStore, game_id: str, state: GameState | None = None,
                 snapshot_every: int | None = None) -> None:
        self.store = store
        self.game_id = game_id
        self.state = state if state is not None else empty_state()
        self.on_events: list[Callable[[list[Event]], None]] = []
        self.snapshot_every = snapshot_every
        self._snapshot_at = self.state.version

    @classmethod
    def load(cls, store: EventStore, game_id: str, to_version: int | None = None,
             use_snapshot: bool = True) -> GameSession:
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
        for event in from_bodies(bodies, where=game_id):
            apply(state, event)
        return cls(store, game_id, state)

    def execute(self, command: Command, metadata: dict[str, Any] | None = None) -> list[Event]:
        """Decide, then append at the expected version, then apply. Raises the core's
        typed errors on an illegal command, with nothing stored."""
        events = decide(self.state, command)
        meta = {"command": command.type, **(metadata or {})}
        actor = getattr(command, "player", None)
        if actor is not None:
            meta["actor"] = actor
        self.store.append(self.game_id, self.state.version,
                          [to_new_event(e, meta) for e in events])
        for e in events:
            apply(self.state, e)
        if self.snapshot_every and self.state.version - self._snapshot_at >= self.snapshot_every:
            self.store.save_snapshot(self.game_id, self.state.version,
                                     snapshots.encode(self.state), state_hash(self.state))
            self._snapshot_at = self.state.version
        for callback in self.on_events:
            callback(events)
        return events

    def engine_marker(self) -> int | None:
        """A marker whose pending work belongs to the engine, if any."""
        if self.state.game_over:
            return None
        for m in self.state.markers.values():
            if isinstance(m.pending, Work):
                return m.number
        return None

    def run_engine(self, stop: Callable[[GameState], bool] | None = None) -> int:
        """While the engine owes work, do it (the embedded loop). Returns the steps done.
        `stop` is checked before each step (the scenario runner's pass_until)."""
        steps = 0
        while (marker := self.engine_marker()) is not None:
            if stop is not None and stop(self.state):
                break
            self.execute(RunEngineWork(marker=marker))
            steps += 1
            if steps > MAX_ENGINE_STEPS:
                raise EngineStalled("the engine did not wait for any player")
        return steps
