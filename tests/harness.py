"""The shared harness of the core tests: a game on the pure core (`Game`), card lists
(`cards`), and a scenario text played step by step (`run_text`). Test modules import
from here, never from one another (tests/core/test_layout.py checks that)."""

from __future__ import annotations

from typing import Any

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import Command, PositionPlayer, SetUpPosition
from arbiter_core.kernel.decide import decide
from arbiter_core.kernel.events import CardSetup
from arbiter_core.kernel.evolve import apply, empty_state
from arbiter_core.kernel.shell_loop import LOOP, Step
from arbiter_core.kernel.state import Decision, GameState
from arbiter_scenarios import actions as act
from arbiter_scenarios.model import parse
from arbiter_scenarios.runner import Run, _setup


class Game:
    """A game on the pure core: `decide`, then `apply` each event; the engine's work is
    done after each command (`settle`), and every event is kept in `log`."""

    def __init__(self, players: list[PositionPlayer], active: str, turn: int = 4) -> None:
        self.s: GameState = empty_state()
        self.log: list[ev.Event] = []
        self.do(SetUpPosition(game_id="t", variant="two_player", seed=1, players=players,
                              turn=turn, active=active, step="precombat_main"))

    def do(self, command: Command) -> list[ev.Event]:
        events = decide(self.s, command)
        for e in events:
            apply(self.s, e)
        self.log += events
        return events + self.settle()

    def settle(self) -> list[ev.Event]:
        out: list[ev.Event] = []

        def commit(step: Step) -> list[ev.Event]:
            out.extend(step.events)
            return step.events

        LOOP.run_engine(self.s, commit)
        self.log += out
        return out

    def pending(self) -> Decision:
        p = self.s.markers[1].pending
        assert isinstance(p, Decision), p
        return p

    def named(self, name: str, zone: str = "battlefield") -> int:
        return next(o.id for o in self.s.objects.values() if o.name == name and o.zone == zone)


def cards(*names: str) -> list[CardSetup]:
    return [CardSetup(name=n) for n in names]



def run_text(text: str, steps: list[dict[str, Any]]) -> Run:
    run = _setup(parse(text, "test"))
    for i, action in enumerate(steps):
        act.perform(run, action, f"steps[{i}]")
    run.settle()
    return run
