"""The one shell loop (issue 11): decide, commit at the expected version, apply; and
engine work run until a player must act. Which marker owes engine work is defined here
and nowhere else.

Every shell around the pure core goes through `ShellLoop`:

- the embedded session (`arbiter_runtime.session.GameSession`): its commit appends the
  step to the game's stream at the step's version, the expected version;
- the services' handler core (`arbiter_services.core.ServiceCore`): its commit adds the
  step to the game's group, appended at once at the expected version (a conflict
  decides the group again), and the owner filters the work with `owed_marker(owner=)`;
- the divergence check (`divergence.walk`, `arbiter replay --check`): its commit
  compares the step's events with the stored log and returns the stored ones.

Each shell loads its state its own way (a stream, a cached projection, an empty state)
and hands it to the loop. `ShellLoop.step` decides a command on the state, passes the
`Step` to the shell's `commit`, and applies what the commit returns to the state;
`ShellLoop.run_engine` steps `RunEngineWork` while a marker owes engine work.

Engine work (architecture.md, "The pending-work marker"): a marker whose `pending` is
`Work` owes its engine work, unless the game is over (CR 104); `decide.WORK_OWNERS`
names the one owner of each kind.

Pure: no I/O; `decide` and `apply` are the loop's only collaborators, and both can be
replaced (a test's fake `decide` goes through every shell the same way).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from arbiter_core.kernel.commands import Command, RunEngineWork
from arbiter_core.kernel.decide import WORK_OWNERS
from arbiter_core.kernel.decide import decide as core_decide
from arbiter_core.kernel.events import Event
from arbiter_core.kernel.evolve import apply
from arbiter_core.kernel.state import GameState, Work, WorkKind

Decide = Callable[[GameState, Command], list[Event]]
Apply = Callable[[GameState, Sequence[Event]], None]


@dataclass(frozen=True, slots=True)
class Step:
    """One decided batch: `command` decided on the state at `version` (the version its
    append expects) made `events`. For engine work, `work` and `marker` say which."""

    command: Command
    version: int
    events: list[Event]
    work: WorkKind | None = None
    marker: int | None = None


#: The shell's part of a step: store it (or compare it) and return the events to apply.
Commit = Callable[[Step], Sequence[Event]]


def owed_work(state: GameState) -> Iterator[tuple[int, WorkKind]]:
    """Every marker that owes engine work, in marker order, with the work's kind: `Work`
    pending on it, and the game not over (CR 104)."""
    if state.game_over:
        return
    for m in state.markers.values():
        if isinstance(m.pending, Work):
            yield m.number, m.pending.kind


def owed_marker(state: GameState, owner: str | None = None,
                only: int | None = None) -> int | None:
    """The first marker owing engine work (`owed_work`), or None. `owner`: only work that
    owner does (`decide.WORK_OWNERS`, a service's filter); `only`: that marker alone (a
    per-marker owner's partition)."""
    for number, kind in owed_work(state):
        if ((only is None or number == only)
                and (owner is None or WORK_OWNERS.get(kind) == owner)):
            return number
    return None


def apply_all(state: GameState, events: Sequence[Event]) -> None:
    for e in events:
        apply(state, e)


class ShellLoop:
    """Decide, commit, apply; engine work until a player must act (or `stop`)."""

    def __init__(self, decide: Decide = core_decide, apply_events: Apply = apply_all
                 ) -> None:
        self.decide = decide
        self.apply_events = apply_events

    def step(self, state: GameState, command: Command, commit: Commit,
             work: WorkKind | None = None, marker: int | None = None) -> Step:
        """Decide `command` on `state`, commit the step, apply what the commit returns.
        A rejected command (the core's typed errors) raises before anything is
        committed; a failed commit (a version conflict) leaves `state` as it was."""
        step = Step(command, state.version, self.decide(state, command), work, marker)
        self.apply_events(state, commit(step))
        return step

    def run_engine(self, state: GameState, commit: Commit, *, owner: str | None = None,
                   only: int | None = None, stop: Callable[[GameState], bool] | None = None,
                   pick: Callable[[GameState, int], int] | None = None,
                   limit: int | None = None,
                   applied: Callable[[Step], None] | None = None) -> int:
        """While a marker owes engine work (`owed_marker(state, owner, only)`), step
        `RunEngineWork` on it; returns the steps done. `stop` is asked before each step
        (the scenario runner's pass_until, the check's end of log); `pick` may choose
        another owing marker than the first (the check: the one whose work the log
        holds); at most `limit` steps; `applied` is called after each step's apply."""
        steps = 0
        while limit is None or steps < limit:
            marker = owed_marker(state, owner, only)
            if marker is None or (stop is not None and stop(state)):
                break
            if pick is not None:
                marker = pick(state, marker)
            pending = state.markers[marker].pending
            assert isinstance(pending, Work)
            step = self.step(state, RunEngineWork(marker=marker), commit, pending.kind,
                             marker)
            steps += 1
            if applied is not None:
                applied(step)
        return steps


#: The loop every shell uses unless given another (a test's).
LOOP = ShellLoop()
