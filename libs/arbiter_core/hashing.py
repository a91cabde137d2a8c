"""A canonical hash of the game state: the same events give the same hash on any machine
and any backend (replay = live is checked with it)."""

from __future__ import annotations

import dataclasses
import hashlib
from enum import Enum
from typing import Any

from pydantic import BaseModel

from arbiter_core.state import GameState


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {"__kind": type(value).__name__}
        out.update({f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)})
        return out
    if isinstance(value, BaseModel):
        return _plain(value.model_dump(mode="json"))
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {str(k) if not isinstance(k, tuple) else "|".join(map(str, k)): _plain(v)
                for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, frozenset | set):
        return sorted(_plain(v) for v in value)
    return value


def canonical(state: GameState) -> dict[str, Any]:
    """The state as plain JSON data, zones with no cards dropped."""
    data = _plain(state)
    data["zones"] = {k: v for k, v in data["zones"].items() if v}
    return data  # type: ignore[no-any-return]


def state_hash(state: GameState) -> str:
    """SHA-256 over a canonical text of the state.

    Every record is a frozen dataclass of str/int/bool/None/tuples/enums (and the frozen
    pydantic TokenSpec), whose generated `repr` lists its fields in a fixed order; the
    containers are written in sorted order, and sets are sorted, so the text does not
    depend on insertion order or on Python's per-process string hashing. This is the
    fast path (it runs every turn for the checkpoint); `canonical` is the JSON view.
    """
    h = hashlib.sha256()
    for f in dataclasses.fields(state):
        value = getattr(state, f.name)
        if f.name == "zones":  # an empty zone list is the same as no list (GameState.zone)
            value = {k: v for k, v in value.items() if v}
        h.update(f.name.encode())
        h.update(_text(value).encode())
    return h.hexdigest()


def _text(value: Any) -> str:
    if isinstance(value, dict):
        items = sorted(((_key(k), _text(v)) for k, v in value.items()), key=lambda kv: kv[0])
        return "{" + ",".join(f"{k}:{v}" for k, v in items) + "}"
    if isinstance(value, frozenset | set):
        return "<" + ",".join(sorted(_text(v) for v in value)) + ">"
    if isinstance(value, list):
        return "[" + ",".join(_text(v) for v in value) + "]"
    return repr(value)


def _key(k: Any) -> str:
    return repr(k)
