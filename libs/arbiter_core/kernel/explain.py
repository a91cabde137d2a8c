"""Each event in words, for a judge reading a game's log (`arbiter replay --explain`, the
judge console): "P2 casts Shock targeting P3", "Grizzly Bears (#41) dealt 2 damage by
Shock (#147)".

The kernel knows no event's wording: each rule package registers the line of the events
its rule makes (`@explains(SomeEvent)`, beside the rule), and `explain` looks it up.
A line is made from the state just before the event (`before`, for stack items and
zones) and a `Namer` that knows every object id seen so far, including those the event
makes; it reveals what the event itself says, nothing more (what a seat may see is the
reader's business: views).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.refs import PlayerRef, parse_ref
from arbiter_core.kernel.registry import Registry
from arbiter_core.kernel.state import GameState

MAX_LISTED = 4


class Namer:
    """Names objects "Grizzly Bears (#41)", remembering every object id it has seen, so
    an id that no longer exists (last known information) is still named."""

    def __init__(self) -> None:
        self.names: dict[int, str] = {}

    def learn(self, state: GameState) -> None:
        for oid, o in state.objects.items():
            self.names[oid] = o.name
        for item in state.stack_items.values():
            self.names.setdefault(item.id, item.source_name)

    def name(self, oid: int | None) -> str:
        if oid is None:
            return "?"
        return self.names.get(oid, "object")

    def __call__(self, oid: int | None) -> str:
        if oid is None:
            return "?"
        return f"{self.name(oid)} (#{oid})"

    def target(self, raw: str) -> str:
        """A target or damage recipient as a reference names it (`refs`)."""
        try:
            r = parse_ref(raw)
        except ValueError:
            return raw
        return r.player if isinstance(r, PlayerRef) else self(r.obj)


Explainer = Callable[[GameState, Any, Namer], str]
EXPLAIN: Registry[type[ev.EventBase], Explainer] = Registry("explain line")
F = TypeVar("F", bound=Explainer)


def explains(*event_types: type[ev.EventBase]) -> Callable[[F], F]:
    """Register the decorated function as the line of `event_types`."""
    def add(fn: F) -> F:
        for event_type in event_types:
            EXPLAIN.add(event_type, fn)
        return fn
    return add


def explain(before: GameState, e: ev.Event, name: Namer) -> str:
    """The event in words (its type's name if no rule registered a line)."""
    line = EXPLAIN.table.get(type(e))
    return line(before, e, name) if line is not None else e.type


# ------------------------------------------------------------------ shared wording


def objs(name: Namer, ids: Sequence[int]) -> str:
    """Some objects by name: the first few, then how many more."""
    shown = ", ".join(name(i) for i in ids[:MAX_LISTED])
    more = f" and {len(ids) - MAX_LISTED} more" if len(ids) > MAX_LISTED else ""
    return (shown + more) or "nothing"


def targets_text(name: Namer, targets: Sequence[Sequence[str]]) -> str:
    flat = [name.target(t) for spec in targets for t in spec]
    return f" targeting {', '.join(flat)}" if flat else ""


def item_label(state: GameState, item: int) -> str:
    """A stack item: its source's name and what it is ("Shock (#12)", "... ability")."""
    it = state.stack_items.get(item)
    if it is None:
        return f"stack item {item}"
    src = it.obj if it.obj is not None else it.source
    what = "" if it.kind == "spell" else " ability"
    return f"{it.source_name}{what} (#{src})"
