"""Game-state snapshots: a plain-data codec (no pickle) and the every-N-events policy.

A snapshot is the state's canonical JSON (`arbiter_core.kernel.hashing.canonical`: every
record tagged with its class) compressed with zlib. Decoding (msgspec's JSON decoder; a
token's characteristics through the trusted decoder, `fastcodec`) rebuilds the records
and checks the state hash stored beside the snapshot, so a snapshot that does not rebuild
the exact state is refused (`InvalidSnapshot`) and the loader falls back to the events.

Formats read by `decode` (`GameSession.load`): the bare state (format 1, what the
embedded `GameSession` saves), and the services' wrapper (format 3,
`{"__snapshot": 3, "state": ..., "commands": {command key: version}}`) which also carries
the projection's command keys (`command_ids.command_key`, scoped per actor) up to the
snapshot's version, so a service loading the snapshot still knows every command already
applied (idempotency, issue 4). Format 2 carried bare command ids (before issue 14): its
state is read, its ids are not (`decode_with_commands` gives None, so a service replays
the stream from event 1 instead). The stored state hash covers the state only; the keys
are checked for shape and range.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import fields
from typing import Any

import msgspec

from arbiter_core.cards.model import TokenSpec
from arbiter_core.kernel import state as st
from arbiter_core.kernel.hashing import canonical, state_hash
from arbiter_core.kernel.refs import parse_ref, ref_groups, refs
from arbiter_runtime.fastcodec import from_builtins
from arbiter_store import EventStore
from arbiter_store.errors import InvalidSnapshot

SNAPSHOT_EVERY = 500  # events between snapshots of one game
SNAPSHOTS_KEPT = 2
"""Snapshots `save` leaves per game (older ones are deleted as it saves, since a services
snapshot carries every command id and so grows with the game): the newest for a cold
load, one older in case the newest is damaged; the loader falls back to the replay from
event 1 anyway."""


def snapshot_every(players: int) -> int:
    """Events between snapshots of a game of `players`: a snapshot costs in proportion to
    the state (40 ms for 100 players), so large games take one per SNAPSHOT_EVERY events
    per eight players."""
    return SNAPSHOT_EVERY * max(1, players // 8)

_RECORDS = {cls.__name__: cls for cls in (
    st.Obj, st.Player, st.StackItem, st.Effect, st.Combat, st.Work, st.Priority,
    st.Decision, st.Waiting, st.Marker, st.Trigger, st.Delayed, st.CommanderState)}
# GameState fields whose lists stay lists (everything else list-shaped is a tuple)
_LISTS = {"seats", "battlefield", "effects", "triggers", "delayed"}
_json = msgspec.json.Decoder()
_encoder = msgspec.json.Encoder()


FORMAT = 3  # the wrapper with command keys (scoped per actor)
UNSCOPED_FORMAT = 2  # the wrapper with bare command ids: its ids are not used


def encode(state: st.GameState, commands: dict[str, int] | None = None) -> bytes:
    """The state (format 1), or with `commands` the wrapper that carries them (format 3:
    msgspec's encoder and zlib level 1, as the ids are most of it and grow with the game:
    28k random ids take 20 ms so, 120 ms with format 1's)."""
    if commands is None:
        blob = json.dumps(canonical(state), sort_keys=True, separators=(",", ":")).encode()
        return zlib.compress(blob, 6)
    data = {"__snapshot": FORMAT, "state": canonical(state), "commands": commands}
    return zlib.compress(_encoder.encode(data), 1)


def _record(data: Any) -> Any:
    if isinstance(data, dict) and "__kind" in data:
        kind = data["__kind"]
        cls = _RECORDS[kind]
        values = {f.name: _record(data[f.name]) for f in fields(cls) if f.name in data}
        if kind == "Marker":
            values["step"] = st.Step(values["step"])
        for spec in ("token", "own_token"):
            if kind == "Obj" and values.get(spec) is not None:
                values[spec] = from_builtins(TokenSpec, data[spec])
        _typed_refs(kind, values)
        return cls(**values)
    if isinstance(data, list):
        return tuple(_record(v) for v in data)
    if isinstance(data, dict):
        return {k: _record(v) for k, v in data.items()}
    return data


def _typed_refs(kind: str, values: dict[str, Any]) -> None:
    """The records' references as the state holds them (`refs`): a stack item's targets,
    a redirection shield's two ends, combat damage assigned to each recipient."""
    if kind == "StackItem" and "targets" in values:
        values["targets"] = ref_groups(values["targets"])
    elif kind == "Effect" and values.get("redirect") is not None:
        values["redirect"] = refs(values["redirect"])
    elif kind == "Combat" and "assigned" in values:
        values["assigned"] = tuple((c, tuple((parse_ref(k), n) for k, n in split))
                                   for c, split in values["assigned"])


def decode(blob: bytes, expected_hash: str) -> st.GameState:
    """The state of a snapshot of either format (its command ids, if any, ignored)."""
    return decode_with_commands(blob, expected_hash)[0]


def decode_with_commands(blob: bytes, expected_hash: str
                         ) -> tuple[st.GameState, dict[str, int] | None]:
    """The state and the command keys (None for a format-1 snapshot, which has none, and
    for format 2, whose ids are not scoped per actor)."""
    try:
        data = _json.decode(zlib.decompress(blob))
        commands = None
        if isinstance(data, dict) and "__snapshot" in data:
            if data["__snapshot"] not in (FORMAT, UNSCOPED_FORMAT):
                raise ValueError(f"unknown snapshot format {data['__snapshot']!r}")
            if data["__snapshot"] == FORMAT:
                commands = data["commands"]
            data = data["state"]
        values: dict[str, Any] = {}
        for f in fields(st.GameState):
            if f.name in st.HASHED_WHEN_SET and f.name not in data:
                continue  # a field added later, at its default (hashing.canonical)
            raw = data[f.name]
            if f.name in ("objects", "stack_items", "markers"):
                values[f.name] = {int(k): _record(v) for k, v in raw.items()}
            elif f.name == "zones":
                values[f.name] = {tuple(k.split("|", 1)): list(v) for k, v in raw.items()}
            elif f.name == "players":
                values[f.name] = {k: _record(v) for k, v in raw.items()}
            elif f.name == "influence":
                values[f.name] = {k: frozenset(v) for k, v in raw.items()}
            elif f.name in _LISTS:
                values[f.name] = [_record(v) for v in raw]
            elif isinstance(raw, list):
                values[f.name] = tuple(_record(v) for v in raw)
            elif isinstance(raw, dict):  # a variant's record (CommanderState)
                values[f.name] = _record(raw)
            else:
                values[f.name] = raw
        values.pop("__kind", None)
        state = st.GameState(**values)
    except (ValueError, KeyError, TypeError, zlib.error) as e:
        raise InvalidSnapshot(f"snapshot does not decode: {e}") from None
    if state_hash(state) != expected_hash:
        raise InvalidSnapshot("snapshot does not rebuild the state it was taken of")
    if commands is not None and not (isinstance(commands, dict) and all(
            isinstance(k, str) and type(v) is int and 1 <= v <= state.version
            for k, v in commands.items())):
        raise InvalidSnapshot("snapshot's command ids are not ids of versions it covers")
    return state, commands


def save(store: EventStore, game_id: str, state: st.GameState,
         commands: dict[str, int] | None = None) -> None:
    """Save a snapshot of `state` (a service's: with its projection's command ids), leaving
    the game's SNAPSHOTS_KEPT newest."""
    store.save_snapshot(game_id, state.version, encode(state, commands), state_hash(state),
                        keep=SNAPSHOTS_KEPT)


def maybe_snapshot(store: EventStore, game_id: str, state: st.GameState,
                   every: int = SNAPSHOT_EVERY) -> bool:
    """Save a snapshot when the stream has grown by `every` events since the last one."""
    last = store.load_snapshot(game_id)
    if state.version - (last.version if last else 0) < every:
        return False
    store.save_snapshot(game_id, state.version, encode(state), state_hash(state))
    return True
