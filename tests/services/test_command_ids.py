"""One command-id namespace for seats and engine work (issue 14), in the services'
handler cores (no broker): command ids are scoped per actor, an id with the shape of an
engine work id is refused naming `command_id`, and a message that keeps failing is set
aside as a dead letter instead of being handled again and again."""

from __future__ import annotations

import pytest

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import Command, PassPriority, RunEngineWork
from arbiter_core.kernel.decide import WORK_OWNERS, decide
from arbiter_core.kernel.evolve import apply
from arbiter_core.kernel.shell_loop import ShellLoop, owed_work
from arbiter_core.kernel.state import GameState, Priority
from arbiter_runtime.botgame import engine_idle, start_command
from arbiter_runtime.deadletters import dead_letters
from arbiter_runtime.projection import GameProjection
from arbiter_services.core import ServiceCore
from arbiter_services.messages import CommandEnvelope, WorkItem
from arbiter_services.topics import SERVICES, TURN
from arbiter_store import EventStore, open_store

from .harness import drive, play

GAME = "ids"


def cores(store: EventStore, loop: ShellLoop | None = None) -> dict[str, ServiceCore]:
    return {name: (ServiceCore(name, store) if loop is None
                   else ServiceCore(name, store, loop=loop)) for name in SERVICES}


def holder_of(s: GameState) -> str:
    p = s.markers[1].pending
    assert isinstance(p, Priority)
    return p.player


def waits_for_priority(s: GameState) -> bool:
    return engine_idle(s) and isinstance(s.markers[1].pending, Priority)


def state_of(store: EventStore) -> GameState:
    p = GameProjection(GAME)
    p.catch_up(store)
    return p.state


def next_work_id(s: GameState, command: Command) -> str | None:
    """The id of the engine work the game owes once `command` is applied (None if it
    owes none): what a seat can work out from the public rules and its view."""
    scratch = s.clone()
    made = decide(scratch, command)
    for e in made:
        apply(scratch, e)
    owed = next(owed_work(scratch), None)
    return None if owed is None else f"{GAME}:{s.version + len(made)}:{owed[1]}:{owed[0]}"


def pass_makes_work(s: GameState) -> bool:
    return (s.version > 30 and waits_for_priority(s)
            and next_work_id(s, PassPriority(player=holder_of(s))) is not None)


def passing(player: str, command_id: str) -> CommandEnvelope:
    return CommandEnvelope(game_id=GAME, command_id=command_id, actor=player,
                           command=PassPriority(player=player).model_dump(mode="json"))


def started(store: EventStore, cs: dict[str, ServiceCore]) -> GameState:
    """A game where the priority holder's pass makes the engine owe work."""
    play(store, cs, start_command(GAME, 2, 3, deck_size=12), until=pass_makes_work)
    return state_of(store)


def test_an_engine_work_id_from_a_seat_is_refused_and_the_game_goes_on() -> None:
    """Before: the pass was stored under the work's id, so the work's own append was
    refused as a duplicate, conflicted 8 times and gave up, again and again."""
    with open_store(":memory:") as store:
        cs = cores(store)
        s = started(store, cs)
        holder = holder_of(s)
        hostile = next_work_id(s, PassPriority(player=holder))
        assert hostile is not None
        out = cs[TURN].handle_command(passing(holder, hostile), {})
        assert out.status == "rejected" and out.rejection is not None
        assert out.rejection.field == "command_id" and out.rejection.code == "invalid_command"
        assert store.stream_version(GAME) == s.version
        # the seat's pass with its own id, then the engine's work at that very version
        assert cs[TURN].handle_command(passing(holder, "pass-0001"), {}).status == "applied"
        drive(store, cs, start_command(GAME, 2, 3, deck_size=12),
              until=lambda st: st.version > s.version + 20)
        assert store.stream_version(GAME) > s.version + 20


@pytest.mark.parametrize("command_id", ["a/b/c-0001", "x:1:check_sba:1", "ids:41:advance_step:2"])
def test_reserved_shapes_are_refused_naming_the_field(command_id: str) -> None:
    with open_store(":memory:") as store:
        cs = cores(store)
        s = started(store, cs)
        out = cs[TURN].handle_command(passing(holder_of(s), command_id), {})
        assert out.status == "rejected" and out.rejection is not None
        assert out.rejection.field == "command_id", out.rejection


def test_another_seats_command_id_is_another_command() -> None:
    """Before: a seat's command with the id another seat would use next made that seat's
    command a duplicate, reported as done (applied or rejected) and never applied."""
    with open_store(":memory:") as store:
        cs = cores(store)
        s = started(store, cs)
        holder = holder_of(s)
        other = next(p for p in s.seats if p != holder)
        # the other seat takes the holder's next id first (a rules violation: 117.1)
        taken = cs[TURN].handle_command(passing(other, "next-0001"), {})
        assert taken.status == "rejected" and taken.rejection is not None
        assert taken.rejection.rule == "117.1"
        mine = cs[TURN].handle_command(passing(holder, "next-0001"), {})
        assert mine.status == "applied" and store.stream_version(GAME) > s.version
        # and an applied id: the other seat applies a pass under an id first, then the
        # holder, later, under the same id
        for seat in (other, holder):
            def seat_holds(st: GameState, seat: str = seat) -> bool:
                return waits_for_priority(st) and holder_of(st) == seat

            drive(store, cs, start_command(GAME, 2, 3, deck_size=12), until=seat_holds)
            before = store.stream_version(GAME)
            out = cs[TURN].handle_command(passing(seat, "both-0001"), {})
            assert out.status == "applied" and store.stream_version(GAME) > before, seat
        # each seat's id is its own: a retry of either is a duplicate
        for seat in (other, holder):
            assert cs[TURN].handle_command(passing(seat, "both-0001"), {}).status == \
                "duplicate"
        assert cs[TURN].handle_command(passing(holder, "next-0001"), {}).status == "duplicate"
        assert cs[TURN].handle_command(passing(other, "next-0001"), {}).status == "duplicate"


class Broken:
    """An engine whose `kind` work always fails (a defect), counting its calls."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.calls = 0

    def __call__(self, state: GameState, command: Command) -> list[ev.Event]:
        if isinstance(command, RunEngineWork):
            pending = state.markers[command.marker].pending
            if getattr(pending, "kind", None) == self.kind:
                self.calls += 1
                raise ZeroDivisionError("a defect in the engine")
        return decide(state, command)


def test_a_message_that_keeps_failing_is_set_aside_for_a_judge() -> None:
    """Before: the exception went up through the batch (and every other game's messages
    in it), and the relay's sweep sent the same work again, forever."""
    with open_store(":memory:") as store:
        cs = cores(store)
        s = started(store, cs)
        holder = holder_of(s)
        assert cs[TURN].handle_command(passing(holder, "pass-0001"), {}).status == "applied"
        s = state_of(store)
        marker, kind = next(owed_work(s))
        broken = Broken(kind)
        owner = ServiceCore(WORK_OWNERS[kind], store, loop=ShellLoop(broken))
        item = WorkItem(game_id=GAME, marker=marker, version=s.version, kind=kind,
                        owner=WORK_OWNERS[kind])
        out = owner.handle_batch([(item, {})])
        assert [o.status for o in out] == ["dead_letter"]
        assert broken.calls == 1 + 3  # the group, then the message alone three times
        [letter] = dead_letters(store, GAME)
        assert letter.kind == "work" and letter.key == f"w/{item.work_id}"
        assert letter.attempts == 3 and "ZeroDivisionError" in letter.reason
        assert letter.at_version == s.version and letter.service == WORK_OWNERS[kind]
        assert store.stream_version(GAME) == s.version
        # the next delivery (the relay's sweep) is answered at once, by any instance
        assert owner.handle_work(item, {}).status == "dead_letter"
        fresh = ServiceCore(WORK_OWNERS[kind], store, loop=ShellLoop(broken))
        assert fresh.handle_work(item, {}).status == "dead_letter"
        assert broken.calls == 4 and len(dead_letters(store, GAME)) == 1


def test_a_failing_game_does_not_take_the_batch_with_it() -> None:
    with open_store(":memory:") as store:
        cs = cores(store)
        s = started(store, cs)
        holder = holder_of(s)

        def broken(state: GameState, command: Command) -> list[ev.Event]:
            if state.game_id == GAME and isinstance(command, PassPriority):
                raise KeyError("a defect")
            return decide(state, command)

        turn = ServiceCore(TURN, store, loop=ShellLoop(broken))
        play(store, cs, start_command("other", 2, 4, deck_size=12),
             until=lambda st: st.version > 30 and waits_for_priority(st))
        op = GameProjection("other")
        op.catch_up(store)
        fine = CommandEnvelope(game_id="other", command_id="fine-0001",
                               actor=holder_of(op.state),
                               command=PassPriority(player=holder_of(op.state))
                               .model_dump(mode="json"))
        outs = turn.handle_batch([(passing(holder, "bad-0001"), {}), (fine, {})])
        assert [o.status for o in outs] == ["dead_letter", "applied"]
        [letter] = dead_letters(store, GAME)
        assert letter.kind == "command" and letter.actor == holder
        assert letter.message["command_id"] == "bad-0001"
