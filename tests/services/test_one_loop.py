"""One shell loop (issue 11): the embedded session, the services' handler core and the
divergence check (`arbiter replay --check`) decide through the same
`arbiter_core.kernel.shell_loop.ShellLoop`. The same seeded game makes the same decide calls in
all three, and another engine given to the loop is the engine each of them uses."""

from __future__ import annotations

from collections.abc import Callable

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import Command, RunEngineWork, StartGame
from arbiter_core.kernel.decide import decide
from arbiter_core.kernel.divergence import walk
from arbiter_core.kernel.shell_loop import ShellLoop
from arbiter_core.kernel.state import GameState
from arbiter_runtime.botgame import make_bots, next_action, start_command
from arbiter_runtime.codec import from_stored
from arbiter_runtime.session import GameSession
from arbiter_services.core import ServiceCore
from arbiter_services.topics import SERVICES
from arbiter_store import open_store

from .harness import play

Call = tuple[int, str, int | None]  # (version decided at, command type, marker)
STOP_AT = 400  # events: past the first combat damage of this game


class Recording:
    """A decide that records every call, then asks `inner`."""

    def __init__(self, inner: Callable[[GameState, Command], list[ev.Event]] = decide
                 ) -> None:
        self.inner = inner
        self.calls: list[Call] = []

    def __call__(self, state: GameState, command: Command) -> list[ev.Event]:
        self.calls.append((state.version, command.type, getattr(command, "marker", None)))
        return self.inner(state, command)


def one_more_damage(state: GameState, command: Command) -> list[ev.Event]:
    """Another engine: every DamageDealt deals one more (CR 120.3)."""
    return [e.model_copy(update={"amount": e.amount + 1}) if isinstance(e, ev.DamageDealt)
            else e for e in decide(state, command)]


def start() -> StartGame:
    return start_command("loop", 2, 1)


def in_session(loop: ShellLoop) -> list[ev.Event]:
    """The embedded bot game (botgame.run_in_process) up to STOP_AT events."""
    with open_store(":memory:") as store:
        session = GameSession(store, "loop", loop=loop)
        session.execute(start())
        bots = make_bots(start())
        while not session.state.game_over and session.state.version < STOP_AT:
            session.run_engine(stop=lambda s: s.version >= STOP_AT)
            action = next_action(session.state, bots)
            if action is not None and session.state.version < STOP_AT:
                session.execute(action)
        return [from_stored(e) for e in store.read_stream("loop")]


def in_services(loop: ShellLoop) -> list[ev.Event]:
    """The same game through the services' handler cores (dispatch inline)."""
    with open_store(":memory:") as store:
        cores = {name: ServiceCore(name, store, loop=loop) for name in SERVICES}
        play(store, cores, start(), until=lambda s: s.version >= STOP_AT)
        return [from_stored(e) for e in store.read_stream("loop")]


def engine_calls(calls: list[Call], below: int) -> list[Call]:
    return [c for c in calls if c[1] == "RunEngineWork" and c[0] < below]


def test_the_three_shells_make_the_same_decide_calls() -> None:
    session, services, check = Recording(), Recording(), Recording()
    log = in_session(ShellLoop(session))
    served = in_services(ShellLoop(services))
    assert [e.model_dump() for e in served[:len(log)]] == [e.model_dump() for e in log]
    batches, divergence = walk(log, loop=ShellLoop(check))
    assert divergence is None
    n = len(log)
    assert len(engine_calls(session.calls, n)) > 50
    assert engine_calls(session.calls, n) == engine_calls(services.calls, n)
    # the check re-decides exactly the session's engine work (its player commands are
    # applied as stored)
    assert engine_calls(check.calls, n) == engine_calls(session.calls, n)
    assert [c for c in check.calls if c[1] != "RunEngineWork"] == []
    assert sum(b.work is not None for b in batches) == len(engine_calls(check.calls, n))
    # and each player command went through the session's and the services' loop
    players = [c for c in session.calls if c[1] != "RunEngineWork" and c[0] < n]
    assert players[0][1] == "StartGame" and len(players) > 10
    assert players == [c for c in services.calls if c[1] != "RunEngineWork" and c[0] < n]


def test_another_engine_in_the_loop_is_the_one_every_shell_uses() -> None:
    reference = in_session(ShellLoop())
    at = next(i for i, e in enumerate(reference) if isinstance(e, ev.DamageDealt))
    dealt = reference[at]
    assert isinstance(dealt, ev.DamageDealt)
    for shell in (in_session, in_services):
        log = shell(ShellLoop(one_more_damage))
        assert [e.model_dump() for e in log[:at]] == [e.model_dump() for e in reference[:at]]
        stored = log[at]
        assert isinstance(stored, ev.DamageDealt), shell.__name__
        assert stored.amount == dealt.amount + 1, shell.__name__
    _, divergence = walk(reference, loop=ShellLoop(one_more_damage))
    assert divergence is not None and divergence.version == at + 1
    assert divergence.actual is not None and divergence.actual["amount"] == dealt.amount + 1


def test_the_check_reports_an_engine_that_refuses_its_work() -> None:
    """An engine failing inside the loop is a divergence at that batch, naming it."""
    reference = in_session(ShellLoop())

    def refusing(state: GameState, command: Command) -> list[ev.Event]:
        if isinstance(command, RunEngineWork) and state.version >= 100:
            raise ZeroDivisionError("broken")
        return decide(state, command)

    _, divergence = walk(reference, loop=ShellLoop(refusing))
    assert divergence is not None and divergence.version > 100
    assert "fails on" in divergence.reason and "ZeroDivisionError" in divergence.reason
