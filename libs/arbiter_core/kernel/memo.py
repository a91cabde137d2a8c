"""Reusing a query's result while the state it was computed from is unchanged.

The embedded loop and the services ask the same questions of nearly the same state over
and over: state-based actions are checked whenever a player would receive priority
(CR 117.5, 704.3), and in a 100-player Grand Melee game almost every priority pass leaves
everything but the marker's priority as it was. A `StateMemo` keeps the last result of a
pure query with a private copy of the state it was computed from, and returns that
result again when the state asked about is equal to the copy in every field except the
ones the query is declared not to read.

Equal means equal by value: records are frozen dataclasses (compared field by field), and
a state shares its records with the state it was cloned from, so comparing two object
tables is mostly identity checks done in C. The copy is private, so `evolve` changing the
state in place afterwards can't change it. Nothing here depends on a clock or on object
identities for its result: a hit returns exactly what the query would compute.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable
from operator import attrgetter
from typing import Any, Generic, Protocol, TypeVar


class Versioned(Protocol):
    """A game state as this module sees it (kernel/state.py, which imports it)."""

    version: int


R = TypeVar("R")
S = TypeVar("S", bound=Versioned)

#: Fields that change on every event and that no memoized query reads.
_NEVER_READ = frozenset({"version"})


def _nested_lists(hint: Any) -> bool:
    """A dict of lists (the zones), which a copy must copy one level deeper."""
    args = typing.get_args(hint)
    return typing.get_origin(hint) is dict and typing.get_origin(args[1]) is list


def _copier(hint: Any) -> Callable[[Any], Any]:
    """How to copy a state field so that a later in-place change of the state can't reach
    the copy: its containers are dicts and lists of immutable records (or of lists)."""
    origin = typing.get_origin(hint)
    if origin is dict:
        if _nested_lists(hint):
            return lambda value: {k: list(v) for k, v in value.items()}
        return lambda value: value.copy()  # faster than dict() for a dict with holes
    if origin is list:
        return list
    if origin is set:
        return set
    return lambda value: value  # immutable: str, int, bool, None, tuples, frozensets


class StateMemo(Generic[S, R]):
    """The last result of `query(state)`, reused while the state is equal, apart from
    `ignore_marker_fields` of its turn markers (and the event count `version`).
    `state_type` and `marker_type` are the state's and a turn marker's record classes."""

    def __init__(self, query: Callable[[S], R], state_type: type[S], marker_type: type,
                 ignore_marker_fields: frozenset[str] = frozenset()) -> None:
        self._query = query
        hints = typing.get_type_hints(state_type)
        self._fields = [f.name for f in dataclasses.fields(state_type)  # type: ignore[arg-type]
                        if f.name not in _NEVER_READ and f.name != "markers"]
        self._copiers = [_copier(hints[name]) for name in self._fields]
        self._view: Callable[[S], tuple[Any, ...]] = attrgetter(*self._fields)
        kept = [f.name for f in dataclasses.fields(marker_type)
                if f.name not in ignore_marker_fields]
        self._marker_view: Callable[[Any], tuple[Any, ...]] = attrgetter(*kept)
        self._last: tuple[tuple[Any, ...], dict[int, tuple[Any, ...]], R] | None = None

    def _markers(self, s: Any) -> dict[int, tuple[Any, ...]]:
        view = self._marker_view
        return {n: view(m) for n, m in s.markers.items()}

    def __call__(self, s: S) -> R:
        last = self._last
        if last is not None:
            values, markers, result = last
            if self._view(s) == values and self._markers(s) == markers:  # compared in C
                return result
        result = self._query(s)
        self._last = (tuple(copy(value) for copy, value in
                            zip(self._copiers, self._view(s), strict=True)),
                      self._markers(s), result)
        return result


class KeyedMemo(Generic[S, R]):
    """The last result of `query(state)`, reused while `key(state)` is equal: for a query
    whose few inputs `key` lists (as immutable values: records and tuples of them)."""

    def __init__(self, key: Callable[[S], object], query: Callable[[S], R]) -> None:
        self._key = key
        self._query = query
        self._last: tuple[object, R] | None = None

    def __call__(self, s: S) -> R:
        key = self._key(s)
        last = self._last
        if last is not None and last[0] == key:
            return last[1]
        result = self._query(s)
        self._last = (key, result)
        return result


# ------------------------------------------------------------------ facts of trusted states

#: States that only `evolve.apply` changes, each change counted in `version`: the newest
#: decision's scratch state (txn.py: the core changes it through events only), and a
#: state a pure query is reading (`Pinned`: nothing changes it meanwhile). Facts derived
#: from such a state are kept until its version moves. id -> (state, version, facts)
_TRUSTED: dict[int, tuple[Any, int, dict[str, Any]]] = {}
_SCRATCH: list[int] = []  # the id of the newest decision's scratch state


def fact(s: S, name: str, compute: Callable[[S], R]) -> R:
    """`compute(s)`, kept under `name` while a trusted state stays at its version
    (computed afresh for any other state). The result is shared: don't change it."""
    entry = _TRUSTED.get(id(s))
    if entry is None or entry[0] is not s:
        return compute(s)
    facts = entry[2]
    version = s.version
    if entry[1] != version:
        facts = {}
        _TRUSTED[id(s)] = (s, version, facts)
    if name not in facts:
        facts[name] = compute(s)
    return typing.cast(R, facts[name])


def trust_scratch(s: Versioned) -> None:
    """`s` is a new decision's scratch state (the previous one is done with)."""
    for old in _SCRATCH:
        _TRUSTED.pop(old, None)
    _SCRATCH[:] = [id(s)]
    _TRUSTED[id(s)] = (s, s.version, {})


class Pinned:
    """`with Pinned(s):` a pure query reads `s`, which nothing changes meanwhile."""

    def __init__(self, s: Versioned) -> None:
        self._s = s
        self._added = False

    def __enter__(self) -> None:
        entry = _TRUSTED.get(id(self._s))
        if entry is None or entry[0] is not self._s:
            _TRUSTED[id(self._s)] = (self._s, self._s.version, {})
            self._added = True

    def __exit__(self, *exc: object) -> None:
        if self._added:
            _TRUSTED.pop(id(self._s), None)
