"""The one way to fold a game's stored events into its state, judge's corrections
included (`corrections.GameCorrected`).

Every replayer goes through `fold`: the projections of the services and the gateway, the
embedded session's load, the store's snapshots check (`arbiter verify`), the CLI's
replays (`replay`, `--explain`, `--check`, `diff`), the console's history and the
scenario checks. A core event is applied as `evolve` would (`apply`); a correction
restores the state as of event N, which `state_at(N)` rebuilds from the log: an
in-memory log folds its own prefix (`LogStates`), a store starts from its snapshot at or
below N (`StoreStates`). The restored state's hash must be the one the correction
recorded, else `CorrectionError`: a log whose prefix was changed, or an engine that
rebuilds it differently, is refused rather than folded into another game.

Making a correction: `correct` (the gateway's judge route, `arbiter correct`; tests).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from arbiter_core.kernel.events import Event
from arbiter_core.kernel.evolve import apply, empty_state
from arbiter_core.kernel.hashing import state_hash
from arbiter_core.kernel.shell_loop import owed_marker
from arbiter_core.kernel.state import GameState
from arbiter_runtime import snapshots
from arbiter_runtime.codec import from_bodies, to_new_event
from arbiter_runtime.corrections import (
    CORRECTION,
    MAX_REASON,
    CorrectionError,
    GameCorrected,
    restore,
    signature_of,
    signed_by,
)
from arbiter_store import EventStore, StoredEvent
from arbiter_store.errors import InvalidSnapshot

__all__ = ["Correction", "CorrectionError", "GameCorrected", "LogStates", "StateAt",
           "StoreStates", "correct", "corrections_of", "fold", "fold_all", "signed_by"]

StateAt = Callable[[int], GameState]
"""`state_at(n)`: the caller's own copy of the state just after event n."""


def fold(state: GameState, event: Event, state_at: StateAt) -> None:
    """Apply one stored event to `state` in place (its version must be the next)."""
    if isinstance(event, GameCorrected):
        at_n = state_at(event.at)
        if state_hash(at_n) != event.state_hash:
            raise CorrectionError(
                f"the correction at event {state.version + 1} backs up to event "
                f"{event.at}, but the state the log makes there is not the one it "
                "recorded (its state hash differs)")
        restore(state, at_n)
        return
    apply(state, event)


def fold_all(events: Iterable[Event], state_at: StateAt,
             state: GameState | None = None) -> GameState:
    """Fold events into `state` (a new empty state if None) and return it."""
    s = state if state is not None else empty_state()
    for e in events:
        fold(s, e, state_at)
    return s


class LogStates:
    """`state_at` for a log held in memory: events[0] is event 1. Folds the prefix (each
    correction in it rebuilds its own prefix in turn)."""

    def __init__(self, events: Sequence[Event]) -> None:
        self.events = events

    def __call__(self, n: int) -> GameState:
        if not 0 <= n <= len(self.events):
            raise CorrectionError(f"no event {n} in a log of {len(self.events)}")
        return fold_all(self.events[:n], self)


class StoreStates:
    """`state_at` for a stored game: from its newest usable snapshot at or below n (one
    that does not rebuild its state hash is skipped), then its events up to n."""

    def __init__(self, store: EventStore, game_id: str) -> None:
        self.store, self.game_id = store, game_id

    def __call__(self, n: int) -> GameState:
        state = empty_state()
        snap = self.store.load_snapshot(self.game_id, n)
        if snap is not None:
            try:
                state = snapshots.decode(snap.state, snap.state_hash)
            except InvalidSnapshot:
                state = empty_state()
        bodies = self.store.read_bodies(self.game_id, state.version + 1, n)
        fold_all(from_bodies(bodies, where=self.game_id), self, state)
        if state.version != n:
            raise CorrectionError(f"{self.game_id} has no event {n}")
        return state


@dataclass(frozen=True, slots=True)
class Correction:
    """A correction as `arbiter verify` and the console report it."""

    version: int
    at: int
    judge: str
    reason: str
    signed: bool | None  # None: not checked (the judge's credential not at hand)

    def describe(self) -> str:
        check = {True: "signature checked", False: "signature INVALID",
                 None: "signature not checked"}[self.signed]
        return (f"corrected at {self.at} by {self.judge} (event {self.version}: "
                f"{self.reason}; {check})")


def corrections_of(game_id: str, stored: Iterable[StoredEvent],
                   judges: dict[str, str] | None) -> list[Correction]:
    """The game's corrections; with `judges` (name -> credential) each signature checked
    (a judge not among them: invalid)."""
    out = []
    for s in stored:
        if s.type != CORRECTION:
            continue
        c = GameCorrected.model_validate({**s.payload, "type": s.type, "rule": s.rule,
                                          "v": s.schema_version})
        signed = None
        if judges is not None:
            key = judges.get(c.judge)
            signed = key is not None and signed_by(key, game_id, s.version, c)
        out.append(Correction(s.version, c.at, c.judge, c.reason, signed))
    return out


def correct(store: EventStore, game_id: str, at: int, judge: str, reason: str,
            key: str, expected_version: int | None = None) -> StoredEvent:
    """Append a judge's correction backing `game_id` up to event `at`, signed with the
    judge's credential `key`; then anchor the game if the store signs. The caller has
    authenticated the judge. `ConcurrencyConflict` if the game moved on meanwhile (from
    `expected_version` when given)."""
    head = store.stream_version(game_id) if expected_version is None else expected_version
    if not 1 <= at < head:
        raise CorrectionError(f"back up to event {at}: the game has events 1-{head}, and "
                              "a backup goes to an event before the last")
    if any(a.final for a in store.anchors(game_id)):
        raise CorrectionError(f"{game_id} is closed (a final anchor): a finished game's "
                              "record is not backed up")
    reason = reason.strip()
    if not reason or len(reason) > MAX_REASON or not judge:
        raise CorrectionError(f"a correction needs a judge and a reason (at most "
                              f"{MAX_REASON} characters)")
    at_n = StoreStates(store, game_id)(at)
    if owed_marker(at_n) is not None:
        raise CorrectionError(f"event {at} is in the middle of the engine's work: back up "
                              "to an event after which a player was to act")
    at_hash = store.event_hash(game_id, at)
    if at_hash is None:
        raise CorrectionError(f"{game_id} has no event {at}")
    digest = state_hash(at_n)
    version = head + 1
    event = GameCorrected(at=at, judge=judge, reason=reason, at_hash=at_hash,
                          state_hash=digest,
                          signature=signature_of(key, game_id, version, at, at_hash, digest,
                                                 judge, reason))
    meta = {"command": "CorrectGame", "actor": f"judge:{judge}"}
    [stored] = store.append(game_id, head, [to_new_event(event, meta)])
    if store.signs:
        store.anchor(game_id)
    return stored
