"""A game's state rebuilt from the store and kept current (a projection of its stream).

Every service, the relay and the gateway hold one per game they touch: load it once,
then catch up from the stream's tail before each use. It also remembers which command
ids produced events, so a redelivered command is recognised and changes nothing.

A cold load (a projection at version 0: a new process, or a game dropped from the cache)
starts from the stream's latest snapshot and reads only the events after it (issue 4:
"snapshot + tail"). Only the services' snapshots (`snapshots.encode` with command ids,
saved by `arbiter_services.core`) are used: they carry the command ids applied up to
their version, so idempotency survives the load. A snapshot without them (the embedded
`GameSession`'s) or one that does not decode and rebuild its state hash
(`InvalidSnapshot`) is ignored, with a warning for the latter: the projection is then
replayed from event 1, as before.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable

import structlog

from arbiter_core.kernel.evolve import empty_state
from arbiter_core.kernel.state import GameState
from arbiter_runtime import snapshots
from arbiter_runtime.codec import from_stored
from arbiter_runtime.command_ids import COMMAND_PREFIX, command_id_of, command_key, key_of
from arbiter_runtime.fold import StateAt, StoreStates, fold
from arbiter_store import EventStore, StoredEvent
from arbiter_store.errors import InvalidSnapshot

log = structlog.get_logger(__name__)


class GameProjection:
    """One game's state, the commands applied to it (by key, `command_ids.command_key`:
    scoped per actor), and its stream version."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.state: GameState = empty_state()
        self.commands: dict[str, int] = {}  # command key -> stream version of its last event
        self.snapshot_version = 0  # the snapshot the projection was loaded from (0: none)
        self.store: EventStore | None = None  # where a judge's correction rebuilds from
        self.states: StateAt | None = None  # or this, for a reader without the store

    @property
    def version(self) -> int:
        return self.state.version

    def apply(self, stored: StoredEvent) -> None:
        """Apply the next event of the stream (version must follow on)."""
        if stored.version != self.state.version + 1:
            raise ValueError(f"{self.game_id}: event {stored.version} does not follow "
                             f"version {self.state.version}")
        fold(self.state, from_stored(stored), self._state_at)
        key = key_of(stored.metadata)
        if key is not None:
            self.commands[key] = stored.version

    def _state_at(self, n: int) -> GameState:
        if self.states is not None:
            return self.states(n)
        if self.store is None:
            raise ValueError(f"{self.game_id}: a judge's correction needs the store")
        return StoreStates(self.store, self.game_id)(n)

    def command_version(self, command_id: str, actor: str | None) -> int | None:
        """The version `actor`'s command `command_id` was applied at (None: not applied).
        With no actor (a judge asking), any actor's command of that id."""
        if actor is not None:
            return self.commands.get(command_key(actor, command_id))
        return next((v for k, v in self.commands.items()
                     if k.startswith(COMMAND_PREFIX) and command_id_of(k) == command_id),
                    None)

    def apply_all(self, events: Iterable[StoredEvent]) -> int:
        n = 0
        for e in events:
            if e.version <= self.state.version:
                continue  # already applied (a redelivery or an overlapping read)
            self.apply(e)
            n += 1
        return n

    def load_snapshot(self, store: EventStore, to_version: int | None = None) -> bool:
        """Start from the latest usable snapshot at or below `to_version` (only at
        version 0); False if there is none (the projection is left as it was)."""
        self.store = store
        if self.state.version != 0:
            return False
        snap = store.load_snapshot(self.game_id, to_version)
        if snap is None:
            return False
        try:
            state, commands = snapshots.decode_with_commands(snap.state, snap.state_hash)
        except InvalidSnapshot as e:
            log.warning("snapshot_invalid", game_id=self.game_id, version=snap.version,
                        error=str(e))
            return False
        if commands is None:  # no command ids: loading it would lose idempotency
            return False
        self.state, self.commands = state, commands
        self.snapshot_version = state.version
        return True

    def catch_up(self, store: EventStore, to_version: int | None = None) -> list[StoredEvent]:
        """Read and apply the stream's tail (on a cold load: the snapshot's tail);
        returns the events applied."""
        self.store = store
        if to_version is not None and to_version <= self.state.version:
            return []
        if self.state.version == 0:
            self.load_snapshot(store, to_version)
        tail = store.read_stream(self.game_id, self.state.version + 1, to_version)
        self.apply_all(tail)
        return tail


class ProjectionCache:
    """Projections of recently used games (least recently used are dropped).

    Thread-safe for the lookup; callers serialise work on one game themselves.
    """

    def __init__(self, store: EventStore, max_games: int = 2000) -> None:
        self.store = store
        self.max_games = max_games
        self._games: OrderedDict[str, GameProjection] = OrderedDict()
        self._lock = threading.Lock()

    def peek(self, game_id: str) -> GameProjection:
        """The cached projection (created empty if new), without reading the store."""
        with self._lock:
            p = self._games.get(game_id)
            if p is None:
                p = GameProjection(game_id)
                p.store = self.store
                self._games[game_id] = p
                while len(self._games) > self.max_games:
                    self._games.popitem(last=False)
            else:
                self._games.move_to_end(game_id)
            return p

    def get(self, game_id: str, to_version: int | None = None) -> GameProjection:
        """The projection, caught up with the store (to `to_version` if given)."""
        p = self.peek(game_id)
        p.catch_up(self.store, to_version)
        return p

    def drop(self, game_id: str) -> None:
        with self._lock:
            self._games.pop(game_id, None)

    def games(self) -> list[str]:
        with self._lock:
            return list(self._games)
