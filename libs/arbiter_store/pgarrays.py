"""One-dimensional PostgreSQL arrays, packed straight into the binary wire format.

psycopg adapts a Python ``list`` parameter by inspecting its elements in Python on
every execution, which costs more than the rest of a single-event append's client
work.  The append statement passes 14 arrays whose element types are known, so they
are packed here (``array_recv`` format: ndim, has-null flag, element type, length,
lower bound, then each element as int32 length + its binary form, -1 for NULL) and
wrapped in a type with its own dumper (:func:`register`).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, Final

from psycopg.abc import AdaptContext
from psycopg.adapt import Dumper
from psycopg.pq import Format

__all__ = ["Packed", "bigints", "byteas", "integers", "register", "texts"]

_HEADER: Final = struct.Struct("!iiIii")
_LENGTH: Final = struct.Struct("!i")
_NULL: Final = _LENGTH.pack(-1)
_INT8: Final = struct.Struct("!iq")  # length 8, value
_INT4: Final = struct.Struct("!ii")  # length 4, value


class Packed:
    """An array parameter already in binary form."""

    __slots__ = ("data",)
    oid: ClassVar[int]

    def __init__(self, data: bytes) -> None:
        self.data = data


class _Texts(Packed):
    oid = 1009  # text[]


class _Byteas(Packed):
    oid = 1001  # bytea[]


class _Bigints(Packed):
    oid = 1016  # int8[]


class _Integers(Packed):
    oid = 1007  # int4[]


def _varlena(items: Iterable[bytes | None], element_oid: int, count: int) -> bytes:
    parts = [b""]
    null = 0
    length = _LENGTH.pack
    for item in items:
        if item is None:
            parts.append(_NULL)
            null = 1
        else:
            parts.append(length(len(item)))
            parts.append(item)
    parts[0] = _HEADER.pack(1, null, element_oid, count, 1)
    return b"".join(parts)


def texts(items: Sequence[str | None]) -> Packed:
    return _Texts(_varlena((None if s is None else s.encode() for s in items), 25, len(items)))


def byteas(items: Sequence[bytes]) -> Packed:
    return _Byteas(_varlena(items, 17, len(items)))


def bigints(items: Sequence[int | None]) -> Packed:
    return _Bigints(_fixed(items, 20, _INT8))


def integers(items: Sequence[int]) -> Packed:
    return _Integers(_fixed(items, 23, _INT4))


def _fixed(items: Sequence[int | None], element_oid: int, frame: struct.Struct) -> bytes:
    size = frame.size - 4
    parts = [_HEADER.pack(1, 1 if None in items else 0, element_oid, len(items), 1)]
    parts += [_NULL if item is None else frame.pack(size, item) for item in items]
    return b"".join(parts)


class _PackedDumper(Dumper):
    format = Format.BINARY

    def dump(self, obj: Any) -> bytes:
        return bytes(obj.data)


def register(context: AdaptContext) -> None:
    """Let ``context`` (a connection, or psycopg's global adapters) pass packed arrays."""
    for cls in (_Texts, _Byteas, _Bigints, _Integers):
        dumper = type(f"{cls.__name__}Dumper", (_PackedDumper,), {"oid": cls.oid})
        context.adapters.register_dumper(cls, dumper)
