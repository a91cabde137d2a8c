"""Saving the services' game snapshots off the hot path (issue 4: "snapshot + tail").

`ServiceCore` decides when (the append that crosses a multiple of `snapshot_every`
events); this takes a copy of the projection on the caller's thread (cheap: the state's
records are immutable, `GameState.clone` copies the containers) and encodes, hashes and
saves it, with the projection's command ids, on one background thread. A game with a
snapshot still being saved gets no second one meanwhile. A failed save is logged and
otherwise ignored: it only makes the next cold load longer.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor, wait

import structlog

from arbiter_core.kernel.state import GameState
from arbiter_runtime import snapshots
from arbiter_runtime.projection import GameProjection
from arbiter_services.profiling import STAGES
from arbiter_store import EventStore

log = structlog.get_logger(__name__)


class Snapshotter:
    """One service's snapshot saver (one thread, started on the first snapshot)."""

    def __init__(self, store: EventStore, name: str) -> None:
        self.store = store
        self.name = name
        self.saved = 0  # snapshots saved by this process
        self._saver: ThreadPoolExecutor | None = None
        self._saving: dict[str, Future[None]] = {}  # game -> its snapshot being saved
        self._lock = threading.Lock()

    def submit(self, proj: GameProjection) -> bool:
        """Save a snapshot of the projection as it is now; False if one of the game is
        still being saved."""
        game = proj.game_id
        with self._lock:
            if game in self._saving:
                return False
            state, commands = proj.state.clone(), dict(proj.commands)
            if self._saver is None:
                self._saver = ThreadPoolExecutor(max_workers=1,
                                                 thread_name_prefix=f"{self.name}-snapshot")
            self._saving[game] = self._saver.submit(self._save, game, state, commands)
        return True

    def _save(self, game: str, state: GameState, commands: dict[str, int]) -> None:
        try:
            with STAGES.timed("snapshot"):
                snapshots.save(self.store, game, state, commands)
            self.saved += 1
        except Exception as e:  # a lost snapshot costs only a longer cold load
            log.warning("snapshot_failed", game_id=game, version=state.version,
                        error=repr(e))
        finally:
            with self._lock:
                self._saving.pop(game, None)

    def flush(self, timeout: float | None = None) -> None:
        """Wait for the snapshots being saved (tests, shutdown)."""
        with self._lock:
            pending = list(self._saving.values())
        wait(pending, timeout)
