"""Re-decide a stored log with the current engine and report where it first diverges.

A game's log mixes two kinds of batches: what players asked for (their commands are not
in the log, so those events are applied as stored) and the engine's own work
(`RunEngineWork`), which needs no input but the state. So the engine's part of any log
can be checked: whenever the state rebuilt from the stored events owes engine work
(`Work` pending on a marker), `decide(state, RunEngineWork(marker))` must produce exactly
the next stored events. The first event where it does not is the divergence: a different
engine version (or a tampered log) would have ruled differently there.

`engine_made`, when given, says per stored event whether the engine made it (the store's
metadata `command == "RunEngineWork"`); it then also catches stored engine events where
the current engine owes no work. Without it, batches are inferred from the state alone.
A log that ends in the middle of an engine batch (a prefix) is compared as far as it
goes.

Pure: no I/O, clock or randomness (the engine's randomness is seeded by the state).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from arbiter_core.commands import RunEngineWork
from arbiter_core.decide import decide
from arbiter_core.errors import ArbiterError
from arbiter_core.events import Event, StateCheckpointed
from arbiter_core.evolve import apply, empty_state
from arbiter_core.hashing import state_hash
from arbiter_core.state import GameState, Work


@dataclass(frozen=True, slots=True)
class Batch:
    """Stored events `start..end-1` (0-based indexes into the log). `work` is the engine
    work that made them, or None for events applied as stored (a player's command)."""

    start: int
    end: int
    work: str | None = None
    marker: int | None = None


@dataclass(frozen=True, slots=True)
class Divergence:
    """The first stored event the current engine would not have made.

    `version` is the 1-based version of that event (the stream version it has in the
    store); `expected` is the stored event, `actual` what the engine makes instead (None
    when one side has no event there)."""

    version: int
    work: str | None
    marker: int | None
    expected: dict[str, Any] | None
    actual: dict[str, Any] | None
    reason: str

    def describe(self) -> str:
        return f"event {self.version}: {self.reason}"


def dump(event: Event) -> dict[str, Any]:
    """An event as plain data (what is compared)."""
    return event.model_dump(mode="json")


def engine_marker(state: GameState) -> int | None:
    """The marker whose pending work the engine does next (as the embedded session)."""
    if state.game_over:
        return None
    for m in state.markers.values():
        if isinstance(m.pending, Work):
            return m.number
    return None


def _owing_marker(state: GameState, stored: Event, default: int) -> int:
    """With several markers owing work (Grand Melee with separate resolver processes),
    the stored batch may come from any of them: the one whose work makes the stored
    event. Falls back to the lowest-numbered one."""
    owing = [m.number for m in state.markers.values() if isinstance(m.pending, Work)]
    if len(owing) < 2:
        return default
    for number in owing:
        try:
            made = decide(state, RunEngineWork(marker=number))
        except Exception:  # not this marker's batch
            continue
        if made and dump(made[0]) == dump(stored):
            return number
    return default


def redecide(events: Sequence[Event], engine_made: Sequence[bool] | None = None,
             ) -> Divergence | None:
    """The first divergence of the current engine from the stored `events`, or None."""
    return walk(events, engine_made)[1]


first_divergence = redecide


def walk(events: Sequence[Event], engine_made: Sequence[bool] | None = None,
         ) -> tuple[list[Batch], Divergence | None]:
    """Split the log into batches, re-deciding every engine batch; stops at the first
    divergence (the batches before it are returned with it)."""
    if engine_made is not None and len(engine_made) != len(events):
        raise ValueError("engine_made must have one flag per event")
    state = empty_state()
    batches: list[Batch] = []
    i, n = 0, len(events)
    player_start: int | None = None
    while i < n:
        marker = engine_marker(state)
        by_engine = engine_made[i] if engine_made is not None else marker is not None
        if marker is None or not by_engine:
            if by_engine and engine_made is not None:
                return batches, _diverged(events, i, None, None, None,
                                          "the log has an engine event here, but the "
                                          "current engine owes no work")
            if player_start is None:
                player_start = i
            stored = events[i]
            if (isinstance(stored, StateCheckpointed) and stored.algorithm == "text-sha256"
                    and stored.state_hash != state_hash(state)):
                return batches, _diverged(events, i, None, None, None,
                                          "the rebuilt state's hash differs from the "
                                          "stored checkpoint")
            apply(state, stored)
            i += 1
            continue
        if player_start is not None:
            batches.append(Batch(player_start, i))
            player_start = None
        marker = _owing_marker(state, events[i], marker)
        pending = state.markers[marker].pending
        kind = pending.kind if isinstance(pending, Work) else None
        try:
            produced = decide(state, RunEngineWork(marker=marker))
        except ArbiterError as e:
            return batches, _diverged(events, i, kind, marker, None,
                                      f"the current engine refuses {kind}: {e}")
        except Exception as e:  # an engine defect on this state is a divergence too
            return batches, _diverged(events, i, kind, marker, None,
                                      f"the current engine fails on {kind}: "
                                      f"{type(e).__name__}: {e}")
        for k, made in enumerate(produced):
            j = i + k
            if j >= n:
                break  # the log is a prefix: compared as far as it goes
            if engine_made is not None and not engine_made[j]:
                return batches, _diverged(events, j, kind, marker, made,
                                          f"{kind}: the current engine makes more "
                                          f"events than the log has")
            if dump(made) != dump(events[j]):
                return batches, _diverged(events, j, kind, marker, made,
                                          f"{kind}: the engine makes {made.type}, "
                                          f"the log has {events[j].type}")
        end = min(i + len(produced), n)
        for stored in events[i:end]:
            apply(state, stored)
        batches.append(Batch(i, end, kind, marker))
        i = end
        if not produced:  # nothing made and the work still owed: the engine stalls
            return batches, _diverged(events, i, kind, marker, None,
                                      f"{kind}: the current engine makes no events")
    if player_start is not None:
        batches.append(Batch(player_start, n))
    return batches, None


def _diverged(events: Sequence[Event], index: int, work: str | None, marker: int | None,
              actual: Event | None, reason: str) -> Divergence:
    expected = dump(events[index]) if index < len(events) else None
    return Divergence(version=index + 1, work=work, marker=marker, expected=expected,
                      actual=dump(actual) if actual is not None else None, reason=reason)
