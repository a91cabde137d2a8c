"""A canonical hash of the game state: the same events give the same hash on any machine
and any backend (replay = live is checked with it), and the canonical JSON view of the
state that snapshots store.

Both run on states of thousands of objects (a 100-player Grand Melee game), so neither
walks every record field by field in Python:

- `state_hash` hashes a canonical text in which each frozen record is its generated
  `repr`. A record never changes, and a state shares its records with the states it was
  cloned from, so the text of each record is made once and kept by identity
  (`_record_text`) until the cache is full.
- `canonical` converts runs of records with msgspec (in C) and tags each with its class
  (`__kind`); only records that hold other records (a `Marker`'s pending work and
  combat) are walked here.
"""

from __future__ import annotations

import dataclasses
import hashlib
import typing
from enum import Enum
from operator import itemgetter
from typing import Any

import msgspec
from pydantic import BaseModel

from arbiter_core.kernel.state import GameState

# ------------------------------------------------------------------ canonical JSON view


def _model(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, str):  # a typed reference (refs.py): its text
        return str(value)
    raise TypeError(f"{type(value).__name__} is not canonical data")


def _builtins(value: Any) -> Any:
    """Records as dicts (untagged), tuples kept as tuples (JSON arrays), in C."""
    return msgspec.to_builtins(value, enc_hook=_model, str_keys=True)


def _mentions_record(hint: Any) -> bool:
    """Whether a field's type can hold a record, a set or a dict (which msgspec would
    leave untagged, unsorted or keyed by non-strings)."""
    if dataclasses.is_dataclass(hint) or hint in (set, frozenset, dict):
        return True
    return any(_mentions_record(arg) for arg in typing.get_args(hint)) or \
        typing.get_origin(hint) in (set, frozenset, dict)


_FLAT: dict[type, bool] = {}


def _flat(cls: type) -> bool:
    """A record type whose fields hold no records, sets or dicts: msgspec converts it
    whole (False for anything that is not a record)."""
    flat = _FLAT.get(cls)
    if flat is None:
        hints = typing.get_type_hints(cls) if dataclasses.is_dataclass(cls) else {}
        flat = _FLAT[cls] = bool(hints) and not any(
            _mentions_record(hints[f.name]) for f in dataclasses.fields(cls))
    return flat


def _is_record(value: Any) -> bool:
    return dataclasses.is_dataclass(value) and not isinstance(value, type)


def _plain(value: Any) -> Any:
    """The value as JSON data: records become dicts tagged with `__kind`, tuples lists,
    sets sorted lists, enums their values, dict keys strings (a tuple key "a|b")."""
    if _is_record(value):
        cls: type = type(value)
        if _flat(cls):
            out: dict[str, Any] = _builtins(value)
            out["__kind"] = cls.__name__
            return out
        out = {"__kind": cls.__name__}
        out.update({f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)})
        return out
    if isinstance(value, BaseModel):
        return _plain(value.model_dump(mode="json"))
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, str):  # a typed reference (refs.py): its text
        return str(value)
    if isinstance(value, dict):
        return _plain_dict(value)
    if isinstance(value, list | tuple):
        return _plain_list(value)
    if isinstance(value, frozenset | set):
        return sorted(_plain(v) for v in value)
    return value


def _key(k: Any) -> str:
    return "|".join(map(str, k)) if isinstance(k, tuple) else str(k)


def _flat_records(values: Any) -> bool:
    return all(map(_flat, map(type, values)))


def _plain_dict(value: dict[Any, Any]) -> dict[str, Any]:
    if value and _flat_records(value.values()) and all(type(k) in (int, str) for k in value):
        out: dict[str, Any] = _builtins(value)
        for k, v in value.items():
            out[str(k)]["__kind"] = type(v).__name__
        return out
    return {_key(k): _plain(v) for k, v in value.items()}


def _plain_list(value: list[Any] | tuple[Any, ...]) -> list[Any]:
    if all(type(v) in (int, str) for v in value):
        return list(value)
    if _flat_records(value):
        out: list[Any] = _builtins(list(value))
        for plain, v in zip(out, value, strict=True):
            plain["__kind"] = type(v).__name__
        return out
    return [_plain(v) for v in value]


def canonical(state: GameState) -> dict[str, Any]:
    """The state as plain JSON data, zones with no cards dropped."""
    data: dict[str, Any] = _plain(state)
    data["zones"] = {k: v for k, v in data["zones"].items() if v}
    return data


# ------------------------------------------------------------------ the state hash

_RECORD_TEXTS: dict[int, tuple[object, str]] = {}  # id -> (record, its repr)
_ENTRY_TEXTS: dict[int, tuple[object, object, str, str]] = {}  # id -> (record, key, ...)
_CACHE_MAX = 50_000  # entries per cache (each holds its record, so its id stays unique)


_FROZEN: dict[type, bool] = {}
_PLAIN = frozenset({int, str})


def _frozen_record_type(cls: type) -> bool:
    frozen = _FROZEN.get(cls)
    if frozen is None:
        params = getattr(cls, "__dataclass_params__", None)
        frozen = _FROZEN[cls] = params is not None and bool(params.frozen)
    return frozen


def _record_text(value: Any) -> str:
    """The `repr` of a frozen record, kept by identity: the cache holds the record, so
    its id can't be reused while the entry exists."""
    hit = _RECORD_TEXTS.get(id(value))
    if hit is not None and hit[0] is value:
        return hit[1]
    text = repr(value)
    if len(_RECORD_TEXTS) >= _CACHE_MAX:
        _RECORD_TEXTS.clear()
    _RECORD_TEXTS[id(value)] = (value, text)
    return text


def _entries(value: dict[Any, Any]) -> list[tuple[object, object, str, str]]:
    """(value, key, repr(key), "key:text") for each item of a dict; an item whose value
    is a frozen record is kept by the record's identity (with its key)."""
    cache = _ENTRY_TEXTS
    out = []
    for k, v in value.items():
        hit = cache.get(id(v))
        if hit is None or hit[0] is not v or hit[1] != k:
            rk = repr(k)
            hit = (v, k, rk, f"{rk}:{_text(v)}")
            if _frozen_record_type(type(v)):
                if len(cache) >= _CACHE_MAX:
                    cache.clear()
                cache[id(v)] = hit
        out.append(hit)
    return out


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
        if f.metadata.get("when_set") and value == f.default:
            continue  # a field added later, unused by this game (state.WHEN_SET)
        if f.name == "zones":  # an empty zone list is the same as no list (GameState.zone)
            value = {k: v for k, v in value.items() if v}
        h.update(f.name.encode())
        h.update(_text(value).encode())
    return h.hexdigest()


def _text(value: Any) -> str:
    if _frozen_record_type(type(value)):
        return _record_text(value)
    if isinstance(value, dict):
        items = _entries(value)
        items.sort(key=itemgetter(2))
        return "{" + ",".join([item[3] for item in items]) + "}"
    if isinstance(value, frozenset | set):
        return "<" + ",".join(sorted([_text(v) for v in value])) + ">"
    if isinstance(value, list):
        if set(map(type, value)) <= _PLAIN:  # ids and names: their repr is their text
            return "[" + ",".join(map(repr, value)) + "]"
        return "[" + ",".join([_text(v) for v in value]) + "]"
    return repr(value)
