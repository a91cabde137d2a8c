"""`decide(state, command) -> events`: the one entry point for every change.

It never mutates `state`. An illegal command raises `RuleViolation` (naming the CR rule)
or `InvalidCommand` (naming the field) and no event is made.

`decide` knows no rule. It dispatches: each command class to the handler its rule
package registered (`@handles(PassPriority)`), and engine work - a command too,
`RunEngineWork`: the pending-work marker names what is owed - to the kind of work's
handler and its one owning service (`@work("resolve_top", owner="stack-resolver")`).
Rule packages may also register hooks that run before and after every player's or
engine's command (`BEFORE_COMMAND`, `AFTER_COMMAND`), and the rule that names the marker
a player's command is about (`MARKER_FOR`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import Command, RunEngineWork
from arbiter_core.kernel.errors import GameOver, InvalidCommand, RuleViolation
from arbiter_core.kernel.registry import Hooks, Registry, Slot
from arbiter_core.kernel.state import GameState, Marker, Work
from arbiter_core.kernel.txn import Txn

Owner = Literal["turn-orchestrator", "stack-resolver", "sba-checker", "variants"]
C = TypeVar("C")
Handler = Callable[[Txn, Any], None]


@dataclass(frozen=True)
class WorkKind:
    """A kind of engine work (`Work.kind`): the service that owns it and what it does."""

    name: str
    owner: Owner
    run: Callable[[Txn, Marker, Work], None]


COMMANDS: Registry[type, Handler] = Registry("command handler")
STARTING: set[type] = set()  # commands that start a game (the only ones before it starts)
WORK: Registry[str, WorkKind] = Registry("kind of engine work")
WORK_OWNERS: dict[str, Owner] = {}  # kind of work -> its one owner (the services read it)
BEFORE_COMMAND: Hooks[str, Callable[[Txn, Command], None]] = Hooks("before-command hook")
AFTER_COMMAND: Hooks[str, Callable[[Txn], None]] = Hooks("after-command hook")
#: (state, player, marker or None) -> the marker a player's command is about (117, 805)
MARKER_FOR: Slot[Callable[[GameState, str, int | None], Marker]] = Slot(
    "rule for the marker a player's command is about")
_COMMANDS = COMMANDS.table


def handles(command_type: type[C], *, starts_game: bool = False
            ) -> Callable[[Callable[[Txn, C], None]], Callable[[Txn, C], None]]:
    """Register the decorated function as the handler of `command_type`."""
    def add(fn: Callable[[Txn, C], None]) -> Callable[[Txn, C], None]:
        COMMANDS.add(command_type, fn)
        if starts_game:
            STARTING.add(command_type)
        return fn
    return add


def work(name: str, owner: Owner) -> Callable[[Callable[[Txn, Marker, Work], None]],
                                              Callable[[Txn, Marker, Work], None]]:
    """Register the decorated function as what the engine does for `name` work."""
    def add(fn: Callable[[Txn, Marker, Work], None]) -> Callable[[Txn, Marker, Work], None]:
        WORK.add(name, WorkKind(name, owner, fn))
        WORK_OWNERS[name] = owner
        return fn
    return add


def work_owner(kind: str) -> Owner:
    return WORK[kind].owner


def decide(state: GameState, command: Command) -> list[ev.Event]:
    t = Txn(state)
    handler = _COMMANDS.get(type(command))
    if handler is None:
        raise InvalidCommand("type", f"no rule handles {type(command).__name__}")
    if type(command) in STARTING:
        if state.started:
            raise InvalidCommand("game_id", "this game has already started")
        handler(t, command)
        return t.events
    if not state.started:
        raise InvalidCommand("game_id", "the game has not started")
    if state.game_over:
        raise GameOver()
    t.marker = _marker_of(state, command)
    for before in BEFORE_COMMAND["all"]:
        before(t, command)
    handler(t, command)
    if not t.s.game_over:
        for after in AFTER_COMMAND["all"]:
            after(t)
    return t.events


def _marker_of(state: GameState, command: Command) -> int | None:
    """The marker a command works on (its stack gets the triggers it causes, 807.5b)."""
    if isinstance(command, RunEngineWork):
        return command.marker
    marker = getattr(command, "marker", None)
    if marker is not None:
        return int(marker)
    player = getattr(command, "player", None)
    if isinstance(player, str) and player in state.players and state.markers:
        return MARKER_FOR.value(state, player, None).number
    return None


@handles(RunEngineWork)
def _run_work(t: Txn, command: RunEngineWork) -> None:
    marker = command.marker
    if marker not in t.s.markers:
        raise InvalidCommand("marker", f"no turn marker {marker}")
    m = t.s.markers[marker]
    w = m.pending
    if not isinstance(w, Work):
        raise RuleViolation("117.1", "the engine owes no work on this marker: "
                                     "it waits for a player")
    WORK[w.kind].run(t, m, w)
