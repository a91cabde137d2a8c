"""A faster `dataclasses.replace` for the state's frozen, slotted records (performance
only: the result is equal to, and of the same class as, what `replace` returns).

`evolve` replaces a turn marker, an object or a player for nearly every event, and
`dataclasses.replace` costs more than the rest of applying most events: it gathers every
field by keyword and runs the frozen `__init__`, which sets each field through
`object.__setattr__`. The records have no `__post_init__` and no init-only fields, so
the copy can be built as a "draft": a plain (not frozen) slotted dataclass with the same
slots in the same order, whose generated `__init__` stores the fields directly; the
draft then becomes the record by `__class__` assignment, which Python allows between
classes of the same layout. A class the draft can't stand in for exactly gets
`dataclasses.replace` itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, is_dataclass, make_dataclass, replace
from itertools import repeat
from typing import Any, TypeVar

T = TypeVar("T")


def _plain_replace(old: T, **changes: Any) -> T:
    return replace(old, **changes)  # type: ignore[type-var]


def replacer(cls: type[T]) -> Callable[..., T]:
    """`f(old, **changes)`: `dataclasses.replace(old, **changes)` for records of `cls`."""
    if not is_dataclass(cls):
        raise TypeError(f"{cls.__name__} is not a dataclass")
    names = tuple(f.name for f in fields(cls))
    if (getattr(cls, "__slots__", None) != names or hasattr(cls, "__post_init__")
            or cls.__bases__ != (object,) or not all(f.init for f in fields(cls))):
        return _plain_replace
    draft = make_dataclass(f"{cls.__name__}Draft", names, slots=True)
    try:  # the layouts must match for the class assignment
        probe = draft(*([None] * len(names)))
        probe.__class__ = cls
    except TypeError:
        return _plain_replace

    def fast_replace(old: T, **changes: Any) -> T:
        new = draft(*map(getattr, repeat(old), names))
        for name, value in changes.items():
            setattr(new, name, value)  # AttributeError for a name that isn't a field
        new.__class__ = cls
        return new  # type: ignore[no-any-return]

    fast_replace.__name__ = f"replace_{cls.__name__}"
    return fast_replace


def shown_when_set(*names: str) -> Callable[[type[T]], type[T]]:
    """A decorator for a record whose fields `names` are declared `repr=False`: they
    appear in its `repr` only when they differ from their defaults. The state hash and
    loop positions are made of reprs (hashing.py, loops.py), so a record that doesn't use
    such a field keeps the text it had before the field existed."""

    def wrap(cls: type[T]) -> type[T]:
        base = cls.__repr__
        defaults = [(f.name, f.default) for f in fields(cls) if f.name in names]  # type: ignore[arg-type]

        def __repr__(self: T) -> str:
            text = base(self)
            extra = [f"{name}={value!r}" for name, default in defaults
                     if (value := getattr(self, name)) != default]
            return f"{text[:-1]}, {', '.join(extra)})" if extra else text

        cls.__repr__ = __repr__  # type: ignore[assignment, method-assign]
        return cls

    return wrap
