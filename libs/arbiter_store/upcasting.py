"""Upcasters: migrate old event payload shapes when events are read.

An event type's payload may change shape over time.  Instead of rewriting stored
events (which the hash chain forbids), the store keeps the bytes as written and
applies registered upcasters on every read::

    upcasters = Upcasters()

    @upcasters.register("PlayerJoined", 1)
    def split_name(payload: dict[str, Any]) -> dict[str, Any]:
        first, _, last = payload.pop("name").partition(" ")
        return {**payload, "first_name": first, "last_name": last}

    store = open_store(url, upcasters=upcasters)

A stored ``PlayerJoined`` v1 is then returned with ``schema_version == 2`` and the
upcast payload.  Upcasters chain: (T, 1) -> 2, then (T, 2) -> 3, and so on until no
upcaster is registered for the current version.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, overload

from .errors import UpcastError

__all__ = ["Upcaster", "Upcasters"]

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


class Upcasters:
    """A registry mapping ``(event type, from_version)`` to a payload function that
    returns the payload of version ``from_version + 1``."""

    def __init__(self) -> None:
        self._functions: dict[tuple[str, int], Upcaster] = {}

    @overload
    def register(self, type_: str, from_version: int) -> Callable[[Upcaster], Upcaster]: ...

    @overload
    def register(self, type_: str, from_version: int, function: Upcaster) -> Upcaster: ...

    def register(
        self, type_: str, from_version: int, function: Upcaster | None = None
    ) -> Upcaster | Callable[[Upcaster], Upcaster]:
        """Register ``function`` for ``type_`` at ``from_version`` (also a decorator)."""
        if not isinstance(type_, str) or not type_:
            raise ValueError(f"event type must be a non-empty string, got {type_!r}")
        if isinstance(from_version, bool) or not isinstance(from_version, int) or from_version < 1:
            raise ValueError(f"from_version must be an int >= 1, got {from_version!r}")

        def add(fn: Upcaster) -> Upcaster:
            key = (type_, from_version)
            if key in self._functions:
                raise ValueError(f"an upcaster for {type_!r} v{from_version} is already registered")
            self._functions[key] = fn
            return fn

        return add if function is None else add(function)

    def __len__(self) -> int:
        return len(self._functions)

    def __contains__(self, key: object) -> bool:
        return key in self._functions

    def upcast(
        self, type_: str, schema_version: int, payload: dict[str, Any], *, where: str = "event"
    ) -> tuple[int, dict[str, Any]]:
        """Apply the chain of upcasters; return the final (version, payload)."""
        version = schema_version
        while (function := self._functions.get((type_, version))) is not None:
            try:
                payload = function(payload)
            except Exception as exc:
                raise UpcastError(
                    f"upcaster for {type_!r} v{version} failed on {where}: {exc!r}"
                ) from exc
            if not isinstance(payload, dict):
                raise UpcastError(
                    f"upcaster for {type_!r} v{version} returned {type(payload).__name__}, "
                    f"not a payload dict, on {where}"
                )
            version += 1
        return version, payload
