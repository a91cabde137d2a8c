"""Decode-on-first-access fields of :class:`~arbiter_store.model.StoredEvent`.

:meth:`~arbiter_store.model.EventStore.append` returns the events it stored, whose
``payload`` and ``metadata`` must equal what a later read decodes from the stored
bytes.  Most callers never look at them (a game session ignores the result; the
services read versions and the first event's metadata), so the store puts the bytes
it has just encoded (and stored) into the slot, and the field's descriptor decodes them
the first time the field is read, keeping the result in the slot: from then on the
field is the same dict object on every access, as for an eagerly built event.
Equality, ``repr``, pickling, ``dataclasses.replace`` / ``asdict`` all read the
fields through the descriptor, so they see the decoded dict.

Pending bytes are the slot holding an exact ``bytes`` object, which only the store's
builder (:func:`slot_builder`, which bypasses the descriptors) puts there; a
``StoredEvent`` constructed in code keeps whatever it was given (a ``bytes`` value is
wrapped and returned as is, never decoded).  Reads still decode eagerly: they may meet
damaged rows, which must raise :class:`~arbiter_store.errors.CorruptStore` from the
read itself.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Final, TypeVar

import msgspec

__all__ = ["lazy_fields", "slot_builder"]

_T = TypeVar("_T")
_decode: Final = msgspec.json.Decoder(dict[str, Any]).decode
#: Serialises the first decode of a field (so every reader gets the same dict object).
_LOCK: Final = threading.Lock()


class _Verbatim:
    """A ``bytes`` value a caller set: returned as is."""

    __slots__ = ("value",)

    def __init__(self, value: bytes) -> None:
        self.value = value


class _DecodedField:
    """A data descriptor over a slot that may hold the encoded bytes (pending)."""

    __slots__ = ("_get", "_name", "_set")

    def __init__(self, name: str, member: Any) -> None:
        self._name = name
        self._get: Callable[[Any, Any], Any] = member.__get__
        self._set: Callable[[Any, Any], None] = member.__set__

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        value = self._get(obj, owner)
        if value.__class__ is bytes:  # pending: the store's encoded bytes
            with _LOCK:
                value = self._get(obj, owner)
                if value.__class__ is bytes:
                    value = _decode(value)
                    self._set(obj, value)
        elif value.__class__ is _Verbatim:
            return value.value
        return value

    def __set__(self, obj: Any, value: Any) -> None:
        """What ``object.__setattr__`` (the frozen dataclass's ``__init__``) reaches: a
        ``bytes`` value is wrapped, so it is not taken for pending bytes."""
        self._set(obj, _Verbatim(value) if value.__class__ is bytes else value)

    def __delete__(self, obj: Any) -> None:
        raise AttributeError(f"cannot delete field {self._name!r}")


def lazy_fields(cls: type, names: tuple[str, ...]) -> None:
    """Make the slots ``names`` of the slotted class ``cls`` decode on first access: a
    slot holding ``bytes`` (an encoded JSON object) is decoded when the field is read."""
    for name in names:
        setattr(cls, name, _DecodedField(name, cls.__dict__[name]))


def slot_builder(cls: type[_T]) -> Callable[..., _T]:
    """A constructor of the frozen, slotted dataclass ``cls`` that stores its arguments
    (every field, in order) in the slots as they are: what the store builds its records
    with, about half the cost of ``object.__new__`` and the slots' raw setters (each
    setter call packs its arguments in a tuple), and a third of the frozen ``__init__``.

    It is an unfrozen twin class with the same slots, whose ``__init__`` assigns them
    and then makes the object a ``cls``: CPython allows assigning ``__class__`` between
    classes of the same layout, and checks it (``TypeError`` otherwise)."""
    names: tuple[str, ...] = cls.__slots__  # type: ignore[attr-defined]
    arguments = ", ".join(names)
    body = "".join(f"    self.{name} = {name}\n" for name in names)
    namespace: dict[str, Any] = {}
    exec(f"def __init__(self, {arguments}):\n{body}    self.__class__ = cls\n",
         {"cls": cls}, namespace)
    twin: Callable[..., _T] = type(f"_{cls.__name__}Builder", (), {
        "__slots__": names, "__module__": __name__, **namespace})
    return twin
