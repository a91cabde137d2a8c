"""Registries: the kernel's tables that the rule packages fill as they are imported.

The kernel dispatches (an event to its applier, a command to its handler, a kind of
engine work or of decision to the rule that owns it) without knowing any rule: each rule
package registers what it adds beside the rule itself, in the style of the
`eventsourcing` library's registered mutators. A key registered twice is a programming
error and raises at import (`DuplicateEntry`); a key nobody registered raises
`MissingEntry` naming what is missing. `tests/structure/test_registries.py` checks that
every event, effect and decision kind has exactly one entry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class DuplicateEntry(Exception):
    """A key registered twice: one rule in two places."""


class MissingEntry(LookupError):
    """Nothing was registered for a key the kernel was asked to dispatch."""


def _name(key: object) -> str:
    return key.__name__ if isinstance(key, type) else repr(key)


def _where(value: object) -> str:
    module = getattr(value, "__module__", None)
    name = getattr(value, "__qualname__", None)
    return f"{module}.{name}" if module and name else type(value).__name__


class Registry(Generic[K, V]):
    """A one-to-one table: each key has exactly one value. `table` is the plain dict,
    for the kernel's hot paths (a dict lookup, no method call)."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.table: dict[K, V] = {}

    def add(self, key: K, value: V) -> None:
        if key in self.table:
            raise DuplicateEntry(f"two {self.what}s for {_name(key)}: "
                                 f"{_where(self.table[key])} and {_where(value)}")
        self.table[key] = value

    def register(self, *keys: K) -> Callable[[V], V]:
        """A decorator: `@REGISTRY.register(key)` above the value."""
        def add(value: V) -> V:
            for key in keys:
                self.add(key, value)
            return value
        return add

    def __getitem__(self, key: K) -> V:
        try:
            return self.table[key]
        except KeyError:
            raise MissingEntry(f"no {self.what} for {_name(key)}") from None

    def get(self, key: K) -> V | None:
        return self.table.get(key)

    def __contains__(self, key: object) -> bool:
        return key in self.table

    def __iter__(self) -> Iterator[K]:
        return iter(self.table)

    def __len__(self) -> int:
        return len(self.table)


class Hooks(Generic[K, V]):
    """An ordered list of hooks per key (several rules may watch one kind of event): each
    is added with an `order`, and `table[key]` lists them by it (then by registration)."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.table: dict[K, tuple[V, ...]] = {}
        self._ordered: dict[K, list[tuple[float, int, V]]] = {}

    def add(self, key: K, value: V, order: float = 0) -> None:
        entries = self._ordered.setdefault(key, [])
        if any(v is value for _, _, v in entries):
            raise DuplicateEntry(f"{_where(value)} added twice as a {self.what} of "
                                 f"{_name(key)}")
        entries.append((order, len(entries), value))
        entries.sort(key=lambda e: (e[0], e[1]))
        self.table[key] = tuple(v for _, _, v in entries)

    def __getitem__(self, key: K) -> tuple[V, ...]:
        return self.table.get(key, ())

    def __iter__(self) -> Iterator[K]:
        return iter(self.table)


class Slot(Generic[V]):
    """One hook filled by exactly one rule package (a function the kernel calls but whose
    rule it does not know)."""

    def __init__(self, what: str) -> None:
        self.what = what
        self._value: V | None = None

    def fill(self, value: V) -> V:
        if self._value is not None:
            raise DuplicateEntry(f"the {self.what} is {_where(self._value)} already; "
                                 f"{_where(value)} can't be it too")
        self._value = value
        return value

    @property
    def value(self) -> V:
        if self._value is None:
            raise MissingEntry(f"no {self.what} is registered")
        return self._value
