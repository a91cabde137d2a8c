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

The engine batches go through the one shell loop (`shell_loop.ShellLoop.run_engine`), as
in the embedded session and the services: this check's commit compares the step's
events with the stored ones and returns the stored ones to apply.

Pure: no I/O, clock or randomness (the engine's randomness is seeded by the state).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from arbiter_core.kernel.commands import RunEngineWork
from arbiter_core.kernel.errors import ArbiterError
from arbiter_core.kernel.events import Event, StateCheckpointed
from arbiter_core.kernel.evolve import apply, empty_state
from arbiter_core.kernel.hashing import state_hash
from arbiter_core.kernel.shell_loop import LOOP, ShellLoop, Step, owed_marker, owed_work
from arbiter_core.kernel.state import GameState


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


class _Diverged(Exception):
    def __init__(self, divergence: Divergence) -> None:
        super().__init__(divergence.reason)
        self.divergence = divergence


def _owing_marker(loop: ShellLoop, state: GameState, stored: Event, default: int) -> int:
    """With several markers owing work (Grand Melee with separate resolver processes),
    the stored batch may come from any of them: the one whose work makes the stored
    event. Falls back to the lowest-numbered one."""
    owing = [number for number, _ in owed_work(state)]
    if len(owing) < 2:
        return default
    for number in owing:
        try:
            made = loop.decide(state, RunEngineWork(marker=number))
        except Exception:  # not this marker's batch
            continue
        if made and dump(made[0]) == dump(stored):
            return number
    return default


def redecide(events: Sequence[Event], engine_made: Sequence[bool] | None = None,
             loop: ShellLoop = LOOP) -> Divergence | None:
    """The first divergence of the current engine from the stored `events`, or None."""
    return walk(events, engine_made, loop)[1]


first_divergence = redecide


class _Walk:
    """The check's side of the shell loop over one log: where it is, and its commit."""

    def __init__(self, events: Sequence[Event], engine_made: Sequence[bool] | None,
                 loop: ShellLoop) -> None:
        self.events, self.engine_made, self.loop = events, engine_made, loop
        self.i = 0
        self.batches: list[Batch] = []
        self.marker: int | None = None
        self.kind: str | None = None

    def stop(self, _state: GameState) -> bool:
        """The log ends, or its next event is not the engine's."""
        return self.i >= len(self.events) or (self.engine_made is not None
                                              and not self.engine_made[self.i])

    def pick(self, state: GameState, default: int) -> int:
        self.marker = _owing_marker(self.loop, state, self.events[self.i], default)
        pending = state.markers[self.marker].pending
        self.kind = getattr(pending, "kind", None)
        return self.marker

    def commit(self, step: Step) -> Sequence[Event]:
        """Compare the engine's events with the stored ones; return the stored ones."""
        events, i, kind, marker = self.events, self.i, step.work, step.marker
        for k, made in enumerate(step.events):
            j = i + k
            if j >= len(events):
                break  # the log is a prefix: compared as far as it goes
            if self.engine_made is not None and not self.engine_made[j]:
                raise _Diverged(_diverged(events, j, kind, marker, made,
                                          f"{kind}: the current engine makes more "
                                          f"events than the log has"))
            if dump(made) != dump(events[j]):
                raise _Diverged(_diverged(events, j, kind, marker, made,
                                          f"{kind}: the engine makes {made.type}, "
                                          f"the log has {events[j].type}"))
        end = min(i + len(step.events), len(events))
        self.batches.append(Batch(i, end, kind, marker))
        self.i = end
        if not step.events:  # nothing made and the work still owed: the engine stalls
            raise _Diverged(_diverged(events, end, kind, marker, None,
                                      f"{kind}: the current engine makes no events"))
        return events[i:end]

    def run_engine(self, state: GameState) -> Divergence | None:
        """The engine batches from here until a player's event (or the log's end)."""
        try:
            self.loop.run_engine(state, self.commit, stop=self.stop, pick=self.pick)
        except _Diverged as d:
            return d.divergence
        except ArbiterError as e:
            return _diverged(self.events, self.i, self.kind, self.marker, None,
                             f"the current engine refuses {self.kind}: {e}")
        except Exception as e:  # an engine defect on this state is a divergence too
            return _diverged(self.events, self.i, self.kind, self.marker, None,
                             f"the current engine fails on {self.kind}: "
                             f"{type(e).__name__}: {e}")
        return None


def walk(events: Sequence[Event], engine_made: Sequence[bool] | None = None,
         loop: ShellLoop = LOOP, fold: Callable[[GameState, Event], None] = apply,
         ) -> tuple[list[Batch], Divergence | None]:
    """Split the log into batches, re-deciding every engine batch; stops at the first
    divergence (the batches before it are returned with it). Events applied as stored go
    through `fold` (the shell's, which also knows a judge's correction: a stored event
    the core cannot evolve, arbiter_runtime.fold)."""
    if engine_made is not None and len(engine_made) != len(events):
        raise ValueError("engine_made must have one flag per event")
    state = empty_state()
    w = _Walk(events, engine_made, loop)
    n = len(events)
    player_start: int | None = None
    while w.i < n:
        i = w.i
        owed = owed_marker(state) is not None
        by_engine = engine_made[i] if engine_made is not None else owed
        if not owed or not by_engine:
            if by_engine and engine_made is not None:
                return w.batches, _diverged(events, i, None, None, None,
                                            "the log has an engine event here, but the "
                                            "current engine owes no work")
            if player_start is None:
                player_start = i
            stored = events[i]
            if (isinstance(stored, StateCheckpointed) and stored.algorithm == "text-sha256"
                    and stored.state_hash != state_hash(state)):
                return w.batches, _diverged(events, i, None, None, None,
                                            "the rebuilt state's hash differs from the "
                                            "stored checkpoint")
            fold(state, stored)
            w.i += 1
            continue
        if player_start is not None:
            w.batches.append(Batch(player_start, i))
            player_start = None
        divergence = w.run_engine(state)
        if divergence is not None:
            return w.batches, divergence
    if player_start is not None:
        w.batches.append(Batch(player_start, n))
    return w.batches, None


def _diverged(events: Sequence[Event], index: int, work: str | None, marker: int | None,
              actual: Event | None, reason: str) -> Divergence:
    expected = dump(events[index]) if index < len(events) else None
    return Divergence(version=index + 1, work=work, marker=marker, expected=expected,
                      actual=dump(actual) if actual is not None else None, reason=reason)
