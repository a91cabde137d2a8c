"""Typed references to the players and objects a command or an effect names (CR 115:
targets; 510.1: combat damage recipients; 506.2: an attacked planeswalker).

They are written "p:<player>" and "o:<object id>" on the wire and in stored events, and
parsed here - once, at the command boundary (the commands' fields validate into them)
and as events become state (the appliers) - into `PlayerRef` and `ObjectRef`. Both are
`str` subclasses, so they serialise, compare, hash and print exactly as the strings they
parse (no event schema changes, and a state's hash is the same). Nothing else in the core
reads or writes the prefixes: rules ask `.player` and `.obj`
(`tests/structure/test_refs.py` fails on a parse anywhere else).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Annotated, Any

from pydantic import PlainSerializer, PlainValidator, WithJsonSchema

_PLAYER, _OBJECT = "p:", "o:"


class PlayerRef(str):
    """A player: "p:<name>"."""

    __slots__ = ()

    @property
    def player(self) -> str:
        return self[2:]


class ObjectRef(str):
    """An object: "o:<id>"."""

    __slots__ = ()

    @property
    def obj(self) -> int:
        return int(self[2:])


Ref = PlayerRef | ObjectRef


def player_ref(name: str) -> PlayerRef:
    return PlayerRef(_PLAYER + name)


def object_ref(oid: int) -> ObjectRef:
    return ObjectRef(f"{_OBJECT}{oid}")


def parse_ref(text: str) -> Ref:
    """The reference `text` writes; ValueError names what is wrong."""
    if isinstance(text, PlayerRef | ObjectRef):
        return text
    if text.startswith(_PLAYER) and len(text) > 2:
        return PlayerRef(text)
    digits = text[3:] if text.startswith(_OBJECT + "-") else text[2:]
    if text.startswith(_OBJECT) and digits.isdigit() and len(text) <= 20:
        return ObjectRef(text)  # any id, even one no object has (-1): the rules judge it
    raise ValueError(f"{text[:40]!r} is not a reference: write p:<player> or o:<object id>")


def refs(group: Iterable[str]) -> tuple[Ref, ...]:
    return tuple(parse_ref(x) for x in group)


def ref_groups(groups: Iterable[Iterable[str]]) -> tuple[tuple[Ref, ...], ...]:
    """Targets per target requirement, as references."""
    return tuple(refs(g) for g in groups)


def players_of(group: Iterable[str]) -> list[str]:
    """The players a group of references names, in order."""
    return [r.player for r in map(parse_ref, group) if isinstance(r, PlayerRef)]


def objects_of(group: Iterable[str]) -> list[int]:
    """The object ids a group of references names, in order."""
    return [r.obj for r in map(parse_ref, group) if isinstance(r, ObjectRef)]


def attacked(text: str) -> str | ObjectRef:
    """What an attack declaration names (506.2, 508.1b): a player by name, or a
    planeswalker as "o:<id>"."""
    return ObjectRef(text) if text.startswith(_OBJECT) and text[2:].isdigit() else text


def with_names(r: Ref, names: Mapping[int, str]) -> str:
    """The reference with an object's id replaced by what `names` calls it (a position
    compared across object ids: the loop of mandatory actions, 104.4b)."""
    if isinstance(r, ObjectRef):
        return _OBJECT + names.get(r.obj, "?")
    return str(r)


def _validated(value: Any) -> Ref:
    if not isinstance(value, str):
        raise ValueError("a reference is a string")
    return parse_ref(value)


#: a command's field that holds a reference, validated as the command is read (a JSON
#: string "p:<player>" or "o:<object id>")
RefField = Annotated[Ref, PlainValidator(_validated), PlainSerializer(str, return_type=str),
                     WithJsonSchema({"type": "string", "pattern": "^(p:.+|o:-?[0-9]+)$"})]
