"""The one shell loop (`arbiter_core.kernel.shell_loop`, issue 11): which marker owes engine
work, and the loop's decide, commit, apply, run on a fake decide and apply (no rules).
The callers sharing it are tested in tests/services/test_one_loop.py."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import Command, PassPriority, RunEngineWork
from arbiter_core.kernel.shell_loop import ShellLoop, Step, owed_marker, owed_work
from arbiter_core.kernel.state import (
    Decision,
    GameState,
    Marker,
    Pending,
    Priority,
    Waiting,
    Work,
)
from arbiter_core.kernel.state import Step as TurnStep


def state(*pendings: Pending, game_over: bool = False) -> GameState:
    """A Grand Melee-like state: marker n (from 1) waits for `pendings[n - 1]`."""
    markers = {n: Marker(number=n, holder=f"P{n}", turn=1, step=TurnStep.UPKEEP, pending=p)
               for n, p in enumerate(pendings, start=1)}
    return GameState(game_id="t", variant="grand_melee", seed=1, seats=[], players={},
                     markers=markers, game_over=game_over, started=True)


def test_owed_work_lists_every_marker_with_work_in_marker_order() -> None:
    s = state(Priority("P1"), Work("resolve_top"), Waiting("P3"), Work("check_sba"),
              Decision("discard", "P5"))
    assert list(owed_work(s)) == [(2, "resolve_top"), (4, "check_sba")]
    assert owed_marker(s) == 2


def test_owed_marker_by_owner_and_marker() -> None:
    """The services' filter: the owner of each kind (decide.WORK_OWNERS), and a
    per-marker owner's own marker."""
    s = state(Work("put_triggers"), Work("advance_step"), Work("check_sba"),
              Work("resolve_top"))
    assert owed_marker(s, owner="turn-orchestrator") == 2
    assert owed_marker(s, owner="sba-checker") == 3
    assert owed_marker(s, owner="stack-resolver") == 1
    assert owed_marker(s, owner="stack-resolver", only=4) == 4
    assert owed_marker(s, owner="stack-resolver", only=2) is None
    assert owed_marker(s, owner="variants") is None
    assert owed_marker(s, only=3) == 3


def test_nothing_is_owed_once_the_game_is_over() -> None:
    """CR 104: the game is over; the markers' pending work is no longer owed."""
    s = state(Work("check_sba"), game_over=True)
    assert list(owed_work(s)) == [] and owed_marker(s) is None
    assert owed_marker(state(Priority("P1"), Decision("discard", "P2"))) is None


class FakeEngine:
    """A decide with no rules: engine work on marker n makes one `LifeGained` event;
    its apply moves that marker to a player's priority and the version on."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, str, int | None]] = []

    def decide(self, s: GameState, command: Command) -> list[ev.Event]:
        marker = command.marker if isinstance(command, RunEngineWork) else None
        self.calls.append((s.version, command.type, marker))
        return [ev.LifeGained(player=f"P{marker}", amount=0, rule="119.3")]

    @staticmethod
    def apply(s: GameState, events: Sequence[ev.Event]) -> None:
        for e in events:
            assert isinstance(e, ev.LifeGained)
            n = int(e.player[1:])
            s.markers[n] = dataclasses.replace(s.markers[n], pending=Priority(e.player))
            s.version += 1


def test_run_engine_steps_every_owed_marker_through_decide_commit_apply() -> None:
    fake = FakeEngine()
    loop = ShellLoop(fake.decide, fake.apply)
    s = state(Work("check_sba"), Priority("P2"), Work("resolve_top"))
    committed: list[Step] = []

    def commit(step: Step) -> list[ev.Event]:
        committed.append(step)
        return step.events

    assert loop.run_engine(s, commit) == 2
    assert fake.calls == [(0, "RunEngineWork", 1), (1, "RunEngineWork", 3)]
    assert [(st.version, st.work, st.marker) for st in committed] == [
        (0, "check_sba", 1), (1, "resolve_top", 3)]
    assert owed_marker(s) is None and s.version == 2


def test_run_engine_honours_owner_stop_pick_and_limit() -> None:
    fake = FakeEngine()
    loop = ShellLoop(fake.decide, fake.apply)
    s = state(Work("check_sba"), Work("resolve_top"), Work("resolve_top"))
    assert loop.run_engine(s, lambda st: st.events, owner="stack-resolver", only=3) == 1
    assert [c[2] for c in fake.calls] == [3]
    assert loop.run_engine(s, lambda st: st.events, stop=lambda st: st.version >= 1) == 0
    assert loop.run_engine(s, lambda st: st.events, pick=lambda st, first: 2, limit=1) == 1
    assert [c[2] for c in fake.calls] == [3, 2]
    applied: list[int | None] = []
    assert loop.run_engine(s, lambda st: st.events, applied=lambda st: applied.append(
        st.marker)) == 1
    assert applied == [1]


def test_a_refused_commit_applies_nothing() -> None:
    """The session's append met a newer version: the state stays as the store had it."""
    fake = FakeEngine()
    loop = ShellLoop(fake.decide, fake.apply)
    s = state(Work("check_sba"))

    def conflict(step: Step) -> list[ev.Event]:
        raise RuntimeError("version conflict")

    with pytest.raises(RuntimeError):
        loop.step(s, RunEngineWork(marker=1), conflict)
    assert s.version == 0 and owed_marker(s) == 1
    step = loop.step(s, PassPriority(player="P1"), lambda st: [])
    assert step.work is None and step.version == 0 and s.version == 0
