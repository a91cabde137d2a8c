"""A decision in progress: events are applied to a private scratch state as they are
made, so later rules see earlier results; `decide` returns the events, never the state.

Making an event may make others with it, and the kernel knows neither: rule packages
register a hook that runs just before an event of a kind is made (`before_emit`, e.g.
the checkpoint as a turn begins) and watchers that see each event of a kind just after
it is applied and return the events it causes (`watch`, e.g. triggered abilities,
CR 603.2). A watcher of `look_back` events also gets the object the event names as it
was just before (603.10a: leaves-the-battlefield abilities look back in time).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.evolve import apply
from arbiter_core.kernel.memo import trust_scratch
from arbiter_core.kernel.registry import Hooks
from arbiter_core.kernel.rng import Rng
from arbiter_core.kernel.state import GameState, Obj

BeforeEmit = Callable[["Txn", Any], None]
Watcher = Callable[[GameState, Any, "int | None", "Obj | None"], Sequence[ev.Event]]

BEFORE_EMIT: Hooks[type[ev.EventBase], BeforeEmit] = Hooks("before-emit hook")
WATCHERS: Hooks[type[ev.EventBase], Watcher] = Hooks("event watcher")
LOOK_BACK: set[type[ev.EventBase]] = set()
_BEFORE = BEFORE_EMIT.table
_WATCHERS = WATCHERS.table


def before_emit(event_type: type[ev.EventBase]) -> Callable[[BeforeEmit], BeforeEmit]:
    """Register the decorated hook to run as an event of `event_type` is about to be
    made (it may emit events of its own first)."""
    def add(hook: BeforeEmit) -> BeforeEmit:
        BEFORE_EMIT.add(event_type, hook)
        return hook
    return add


def watch(*event_types: type[ev.EventBase], order: float,
          look_back: bool = False) -> Callable[[Watcher], Watcher]:
    """Register the decorated watcher of `event_types`. Watchers of one kind of event
    run in `order`; the events they return are applied after all of them have looked."""
    def add(watcher: Watcher) -> Watcher:
        for event_type in event_types:
            WATCHERS.add(event_type, watcher, order)
            if look_back:
                LOOK_BACK.add(event_type)
        return watcher
    return add


class Txn:
    def __init__(self, state: GameState) -> None:
        self.s = state.clone(share_zone_lists=True)  # only evolve changes it
        trust_scratch(self.s)  # so facts derived from it are kept per version (memo.py)
        self.events: list[ev.Event] = []
        self.rng = Rng(state.seed, state.version - state.rng_shift)
        self.marker: int | None = None  # the marker whose work or command this is

    def emit(self, event: ev.Event) -> None:
        cls = type(event)
        hooks = _BEFORE.get(cls)
        if hooks:
            for hook in hooks:
                hook(self, event)
        before = self.s.objects.get(getattr(event, "obj", -1)) if cls in LOOK_BACK else None
        s = self.s
        apply(s, event)
        self.events.append(event)
        watchers = _WATCHERS.get(cls)
        if watchers:
            made = [m for w in watchers for m in w(s, event, self.marker, before)]
            for m in made:
                apply(s, m)
                self.events.append(m)

    def new_id(self) -> int:
        """A fresh object id; the event that uses it moves `next_id` past it."""
        oid = self.s.next_id
        self.s.next_id += 1
        return oid
