"""The scenario action `pass_until` (docs/scenarios.md): every player who would get
priority passes, in turn order, and the engine does its work, until a condition holds."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arbiter_core.kernel.commands import (
    DeclareAttackers,
    DeclareBlockers,
    PassPriority,
    RunEngineWork,
)
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.state import Decision, Priority, Step, Waiting, Work

if TYPE_CHECKING:
    from arbiter_scenarios.runner import Run

UNTIL = {"stack_empty", "next_turn", "end_of_turn", *(s.value for s in Step)}


class ActionFailed(Exception):
    pass


def pass_until(run: Run, until: str, where: str, marker: int | None = None) -> None:
    """Every player who would get priority passes, in turn order, until the condition
    holds (docs/scenarios.md). With `marker` only that marker's turn and stack move."""
    if until not in UNTIL:
        raise ActionFailed(f"{where}.pass_until: unknown condition {until!r}")
    s = run.state
    if marker is not None and marker not in s.markers:
        raise ActionFailed(f"{where}.marker: no turn marker {marker}")
    # "The current turn" is the one the previous action was made in, even if the game
    # has since moved on without anyone receiving priority (a cleanup discard).
    turns = s.turns_taken if run.action_turn is None else run.action_turn
    run.action_turn = None
    base = (s.markers[marker].turn, s.markers[marker].holder) if marker is not None else None
    if _holds_already(run, until, marker):
        return
    for _ in range(200_000):
        s = run.state
        if s.game_over:
            return
        numbers = [marker] if marker is not None else sorted(s.markers)
        if until in ("next_turn", "end_of_turn"):
            if marker is None and s.turns_taken > turns:
                return
            if marker is not None and base is not None and (
                    marker not in s.markers or (s.markers[marker].turn, s.markers[marker].holder)
                    != base or isinstance(s.markers[marker].pending, Waiting)):
                return
        elif until == "stack_empty":
            if all(not s.markers[n].stack for n in numbers if n in s.markers) and any(
                    isinstance(s.markers[n].pending, Priority) for n in numbers
                    if n in s.markers):
                return
        elif any(n in s.markers and s.markers[n].step.value == until
                 and s.markers[n].pending == Work("turn_based_actions") for n in numbers):
            return
        if not _step_one(run, [n for n in numbers if n in s.markers]):
            return  # a decision stops pass_until and waits for the action that makes it
    raise ActionFailed(f"{where}: pass_until {until} did not finish")


def _step_one(run: Run, numbers: list[int]) -> bool:
    """Move the first marker that can move: engine work, a pass, or an empty declaration."""
    for n in numbers:
        m = run.state.markers[n]
        p = m.pending
        if isinstance(p, Work):
            run.execute(RunEngineWork(marker=n))
        elif isinstance(p, Priority):
            run.execute(PassPriority(player=p.player, marker=n))
        elif isinstance(p, Decision) and p.kind == "declare_attackers":
            try:
                run.execute(DeclareAttackers(player=p.player, marker=n))
            except RuleViolation:
                return False  # attacking with nobody is illegal (508.1d): wait for `attack`
        elif isinstance(p, Decision) and p.kind == "declare_blockers":
            run.execute(DeclareBlockers(player=p.player, marker=n))
        elif isinstance(p, Decision):
            return False
        else:
            continue  # waiting (807.4d)
        return True
    return False


def _holds_already(run: Run, until: str, marker: int | None) -> bool:
    s = run.state
    markers = [s.markers[marker]] if marker is not None else list(s.markers.values())
    if until == "stack_empty":
        return not any(m.stack for m in markers)
    if until in ("next_turn", "end_of_turn"):
        return False
    return any(m.step.value == until for m in markers)
