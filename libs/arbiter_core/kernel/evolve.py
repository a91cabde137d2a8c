"""`evolve(state, event) -> state`: apply one fact. Total on events that `decide` made.

No rule decisions are made here; every choice was made by `decide` and written into
the event. `apply` mutates a state the caller owns; `evolve` clones first.

`apply` knows no event: each rule package registers the applier of the events its rule
makes (`@applies(SomeEvent)`, beside the rule), and `apply` looks it up by the event's
class. The appliers of the pending-work marker's own events are here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.edits import set_marker
from arbiter_core.kernel.explain import Namer, explains, objs
from arbiter_core.kernel.registry import MissingEntry, Registry
from arbiter_core.kernel.state import Decision, GameState, Work

Applier = Callable[[GameState, Any], None]
F = TypeVar("F", bound=Applier)

APPLIERS: Registry[type[ev.EventBase], Applier] = Registry("event applier")
_APPLY = APPLIERS.table


def applies(*event_types: type[ev.EventBase]) -> Callable[[F], F]:
    """Register the decorated function as the applier of `event_types`."""
    def add(fn: F) -> F:
        for event_type in event_types:
            APPLIERS.add(event_type, fn)
        return fn
    return add


def apply(s: GameState, e: ev.Event) -> None:
    """Apply `e` to `s` in place (`s` is the caller's own state)."""
    s.version += 1
    try:
        applier = _APPLY[type(e)]
    except KeyError:
        raise MissingEntry(f"no event applier for {type(e).__name__}") from None
    applier(s, e)


def evolve(state: GameState, event: ev.Event) -> GameState:
    """Return the state after `event`; `state` is left unchanged."""
    new = state.clone()
    apply(new, event)
    return new


def replay(events: Iterable[ev.Event], state: GameState | None = None) -> GameState:
    """Fold events into a state (CR-level replay of a stored log)."""
    s = state.clone() if state is not None else empty_state()
    for e in events:
        apply(s, e)
    return s


def empty_state() -> GameState:
    return GameState(game_id="", variant="", seed=0, seats=[], players={})


# ------------------------------------------------------------ the pending-work marker


@applies(ev.WorkQueued)
def _work_queued(s: GameState, e: ev.WorkQueued) -> None:
    set_marker(s, e.marker, pending=Work(e.kind, e.then_priority))


@applies(ev.DecisionRequested)
def _decision_requested(s: GameState, e: ev.DecisionRequested) -> None:
    set_marker(s, e.marker, pending=Decision(e.kind, e.player, tuple(e.options), e.count,
                                             e.rule, e.stack_item, tuple(e.choices),
                                             e.min_count))


@applies(ev.StateCheckpointed)
def _checkpointed(s: GameState, e: ev.StateCheckpointed) -> None:
    """A check on replay, not a change."""


@explains(ev.WorkQueued)
def _explain_work_queued(before: GameState, e: ev.WorkQueued, name: Namer) -> str:
    then = f", then priority to {e.then_priority}" if e.then_priority else ""
    return f"engine owes {e.kind}{then}"


@explains(ev.DecisionRequested)
def _explain_decision_requested(before: GameState, e: ev.DecisionRequested, name: Namer) -> str:
    opts = f" among {objs(name, e.options)}" if e.options else ""
    return f"{e.player} must decide: {e.kind.replace('_', ' ')}{opts}"


@explains(ev.StateCheckpointed)
def _explain_checkpoint(before: GameState, e: ev.StateCheckpointed, name: Namer) -> str:
    return "the state's hash is recorded"
