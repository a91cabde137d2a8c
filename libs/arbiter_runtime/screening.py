"""A seat's commands and their rejections seen through that seat's view (CR 400.2).

Outside the pure core, around `decide`: a command from a seat may name only objects the
seat can see (`arbiter_core.views.seat.visible`), and what the seat reads about its rejected
commands names no card it cannot see. Without this, the reasons `decide` gives ("<card>
is not in P2's hand") let a seat probe ids it cannot see and learn every hand and
library in a few hundred requests.

- `screened_decide(state, actor, command)`: `decide`, after checking every object id the
  command references (`referenced_ids`) exists and is visible to the actor; an unknown or
  hidden object is `InvalidCommand(field, NOT_A_LEGAL_CHOICE)`, the same answer for both.
- `render_rejection(state, viewer, rejection)`: the rejection as `viewer` may read it: a
  reason naming a card no object visible to the viewer is named, or the card of a
  face-down spell or permanent the viewer may not look at (708.5), is replaced by
  `NOT_A_LEGAL_CHOICE` (the code, rule and field stay).

Judges read rejections as recorded (`arbiter_runtime.audit`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel

from arbiter_core.kernel.commands import Command
from arbiter_core.kernel.decide import decide
from arbiter_core.kernel.errors import InvalidCommand
from arbiter_core.kernel.events import Event
from arbiter_core.kernel.state import GameState
from arbiter_core.views.seat import item_name, shown_name, visible
from arbiter_runtime.audit import CommandRejected

NOT_A_LEGAL_CHOICE = "not a legal choice"

#: fields of player commands that hold object ids, and how: an id, a list of ids, a
#: list of lists of ids; `attacks` pairs (creature, "player" or "o:<id>"), `blocks`
#: pairs (blocker, attacker); `assignments` maps a creature to {"o:<id>"|"p:..": n}
ID_FIELDS = frozenset({"card", "source", "pay", "choices", "bands", "attacks", "blocks",
                       "assignments", "targets", "sacrifice"})
#: fields that hold no object id (numbers that are not ids, players, options)
OTHER_FIELDS = frozenset({"type", "player", "players", "marker", "x", "ability", "option",
                          "using"})
_OBJECT_REF = re.compile(r"^o:(-?\d+)$")


def referenced_ids(command: BaseModel) -> Iterator[tuple[str, int]]:
    """(field, object id) for every object the command names. A field this module does
    not know is treated as holding ids wherever it holds integers (fail closed)."""
    for name, value in command:
        if name in OTHER_FIELDS:
            continue
        if name == "assignments" and isinstance(value, dict):
            for creature, split in value.items():
                yield from _ids(name, creature)
                yield from _ids(name, list(split))  # recipients ("o:<id>"); not amounts
            continue
        yield from _ids(name, value)


def _ids(name: str, value: Any) -> Iterator[tuple[str, int]]:
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, int):
        yield name, value
    elif isinstance(value, str):
        m = _OBJECT_REF.match(value)
        if m:
            yield name, int(m.group(1))
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _ids(name, v)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _ids(name, k)
            yield from _ids(name, v)


def screen(state: GameState, actor: str, command: BaseModel) -> None:
    """Raise `InvalidCommand(field, NOT_A_LEGAL_CHOICE)` if the command from `actor` (a
    seat of the game) names an object that does not exist or that `actor` cannot see.
    Commands from anyone who is not a player (the organiser starting a game) pass."""
    if actor not in state.players:
        return
    for field, oid in referenced_ids(command):
        if oid not in state.objects or not visible(state, oid, actor):
            raise InvalidCommand(field, NOT_A_LEGAL_CHOICE)


def screened_decide(state: GameState, actor: str, command: Command) -> list[Event]:
    """`decide`, for a command sent by `actor`, after `screen`."""
    screen(state, actor, command)
    return decide(state, command)


def _names(state: GameState, viewer: str | None) -> tuple[set[str], set[str]]:
    """(names the viewer can see on some object, names of every object). The name of a
    face-down object the viewer may not look at (708.5) is never shown: a reason that
    names it could tie it to its id, though another object bears the same name."""
    shown: set[str] = set()
    every: set[str] = set()
    face_down: set[str] = set()
    for oid, o in state.objects.items():
        every.add(o.name)
        seen = shown_name(state, o, viewer)
        if seen != o.name:
            face_down.add(o.name)
        elif visible(state, oid, viewer):
            shown.add(seen)
    for item in state.stack_items.values():
        shown.add(item_name(state, item, viewer))
    return shown - face_down, every


def hidden_names_in(state: GameState, viewer: str | None, text: str) -> list[str]:
    """Card names in `text` that no object visible to `viewer` bears."""
    shown, every = _names(state, viewer)
    return [n for n in every - shown
            if n and re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text)]


def render_rejection(state: GameState, viewer: str | None,
                     rejection: CommandRejected) -> CommandRejected:
    """The rejection as `viewer` (a seat, `SPECTATOR`, or None for a judge) may read it."""
    if viewer is None or not hidden_names_in(state, viewer, rejection.reason):
        return rejection
    return rejection.model_copy(update={"reason": NOT_A_LEGAL_CHOICE})
