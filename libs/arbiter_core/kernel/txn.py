"""A decision in progress: events are applied to a private scratch state as they are
made, so later rules see earlier results; `decide` returns the events, never the state."""

from __future__ import annotations

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.evolve import apply
from arbiter_core.kernel.memo import trust_scratch
from arbiter_core.kernel.rng import Rng
from arbiter_core.kernel.state import GameState


class Txn:
    def __init__(self, state: GameState) -> None:
        self.s = state.clone(share_zone_lists=True)  # only evolve changes it
        trust_scratch(self.s)  # so facts derived from it are kept per version (memo.py)
        self.events: list[ev.Event] = []
        self.rng = Rng(state.seed, state.version)
        self.marker: int | None = None  # the marker whose work or command this is

    def emit(self, event: ev.Event) -> None:
        if isinstance(event, ev.TurnBegan):
            from arbiter_core.kernel.hashing import state_hash

            self.emit(ev.StateCheckpointed(marker=event.marker, state_hash=state_hash(self.s),
                                           algorithm="text-sha256", rule="500.1"))
        # A leaves-the-battlefield ability looks back at the object as it was (603.10a).
        before = self.s.objects.get(event.obj) if isinstance(event, ev.ObjectMoved) else None
        apply(self.s, event)
        self.events.append(event)
        # Imported here: triggers reads events this module records (no import cycle).
        from arbiter_core.stack.triggers import detect

        for triggered in detect(self.s, event, self.marker, before):
            apply(self.s, triggered)
            self.events.append(triggered)

    def new_id(self) -> int:
        """A fresh object id; the event that uses it moves `next_id` past it."""
        oid = self.s.next_id
        self.s.next_id += 1
        return oid
