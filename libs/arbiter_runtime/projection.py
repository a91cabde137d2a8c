"""A game's state rebuilt from the store and kept current (a projection of its stream).

Every service, the relay and the gateway hold one per game they touch: load it once,
then catch up from the stream's tail before each use. It also remembers which command
ids produced events, so a redelivered command is recognised and changes nothing.
Snapshots (when the store offers them) only shorten the first load.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable

from arbiter_core.evolve import apply, empty_state
from arbiter_core.state import GameState
from arbiter_runtime.codec import from_stored
from arbiter_store import EventStore, StoredEvent


class GameProjection:
    """One game's state, the command ids applied to it, and its stream version."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.state: GameState = empty_state()
        self.commands: dict[str, int] = {}  # command id -> stream version of its last event

    @property
    def version(self) -> int:
        return self.state.version

    def apply(self, stored: StoredEvent) -> None:
        """Apply the next event of the stream (version must follow on)."""
        if stored.version != self.state.version + 1:
            raise ValueError(f"{self.game_id}: event {stored.version} does not follow "
                             f"version {self.state.version}")
        apply(self.state, from_stored(stored))
        cid = stored.metadata.get("command_id")
        if isinstance(cid, str):
            self.commands[cid] = stored.version

    def apply_all(self, events: Iterable[StoredEvent]) -> int:
        n = 0
        for e in events:
            if e.version <= self.state.version:
                continue  # already applied (a redelivery or an overlapping read)
            self.apply(e)
            n += 1
        return n

    def catch_up(self, store: EventStore, to_version: int | None = None) -> list[StoredEvent]:
        """Read and apply the stream's tail; returns the events applied."""
        if to_version is not None and to_version <= self.state.version:
            return []
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
