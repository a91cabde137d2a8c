"""One attempt at a game's group of messages in a service (`core.py`): the scratch
state, what was decided for the group's append, and the shell loop the services use.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from arbiter_core.kernel.commands import Command
from arbiter_core.kernel.events import Event
from arbiter_core.kernel.shell_loop import LOOP, ShellLoop, apply_all
from arbiter_core.kernel.state import GameState
from arbiter_runtime.audit import CommandRejected
from arbiter_runtime.codec import to_new_event
from arbiter_runtime.projection import GameProjection
from arbiter_services.profiling import STAGES
from arbiter_store import NewEvent

#: append ids: a random prefix per process and a counter (uuid4 per batch costs a
#: getrandom call each, measurable at hundreds of batches a second)
_APPEND_PREFIX = uuid.uuid4().hex[:16]
_APPEND_COUNTER = itertools.count(1)


def new_append_id() -> str:
    return f"{_APPEND_PREFIX}{next(_APPEND_COUNTER):x}"


@dataclass
class Round:
    """One attempt at a game's group of messages: a scratch state and what was decided."""

    proj: GameProjection
    state: GameState
    events: list[NewEvent]
    decided: set[str]  # command keys decided or rejected in this round
    rejections: list[tuple[CommandRejected, dict[str, Any]]]
    applied_ids: dict[str, int]  # command key -> version of its last event
    first_id: str | None = None
    _rejected: dict[str, CommandRejected] | None = None

    def add(self, events: list[Event], meta: dict[str, Any], append_key: str) -> list[Event]:
        """A step of the loop, kept for the group's append (the loop's commit)."""
        meta = {**meta, "append_id": new_append_id()}
        self.events.extend(to_new_event(e, meta) for e in events)
        if self.first_id is None:
            self.first_id = append_key
        return events


def timed_apply(state: GameState, events: Sequence[Event]) -> None:
    """The loop's apply, timed as the `evolve` stage."""
    with STAGES.timed("evolve"):
        apply_all(state, events)


def shared_decide(state: GameState, command: Command) -> list[Event]:
    """The shared loop's decide (looked up at each call: a test may replace it)."""
    return LOOP.decide(state, command)


#: the shared loop's decide, with its apply timed
SERVICE_LOOP = ShellLoop(shared_decide, timed_apply)
