"""``verify``'s checks of the records kept beside the chain: snapshots and the commands
table (see :mod:`arbiter_store.verification`).

Snapshots: a snapshot must lie within its stream and be bound to it (its
``head_hash`` is the chain hash of event ``version``); with the key, its seal must be
genuine (:func:`~arbiter_store.anchoring.snapshot_sealed`).  Whether the bytes rebuild
the state the events make is a question for the game, not the store: ``arbiter
verify`` replays each game to its snapshots' versions and compares the state hashes.

Commands records map a command id to the versions its append wrote.  Each must lie
within its stream, not overlap another, and, where the first of its events records
the id it was appended with (metadata ``command_id`` or ``work_id``, as the services
write), name that id: an edited, moved or invented record is then a problem.  A
record whose events record no id is noted as not checkable; the deletion of a record
cannot be seen (the chain does not list the ids).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, NamedTuple

from .anchoring import seal_matches
from .integrity import RawEvent
from .model import ChainBreak

__all__ = ["ID_KEYS", "CommandRow", "SnapshotRecord", "check_commands", "check_snapshots"]

#: The metadata keys in which an append's first event records the id it was made for:
#: the services' `command_key` (the store's command id since issue 14: scoped per actor,
#: `arbiter_runtime.command_ids`), or before it the bare `command_id` or `work_id`.
ID_KEYS = ("command_key", "command_id", "work_id")


class SnapshotRecord(NamedTuple):
    """What ``verify`` reads of a snapshot: its fields, with its state as a digest."""

    stream_id: str
    version: int
    head_hash: str | None
    state_hash: str
    state_digest: str  # hex SHA-256 of the stored state
    signature: str | None


class CommandRow(NamedTuple):
    stream_id: str
    command_id: str
    version: int  # the first version its append wrote
    last_version: int


def check_snapshots(stream_id: str, hashes: dict[int, str], snapshots: Sequence[SnapshotRecord],
                    key: bytes | str | None, notes: list[ChainBreak]) -> list[ChainBreak]:
    problems: list[ChainBreak] = []
    for snap in sorted(snapshots, key=lambda s: s.version):
        where = f"the snapshot at version {snap.version}"
        if snap.version not in hashes:
            problems.append(ChainBreak(stream_id, snap.version, None, (
                f"{where} is beyond the end of the stream (version {len(hashes)})")))
        elif snap.head_hash is None:
            notes.append(ChainBreak(stream_id, snap.version, None, (
                f"{where} predates store schema 3: it is not bound to the chain (only "
                "`arbiter verify`'s replay checks its state)")))
        elif snap.head_hash != hashes[snap.version]:
            problems.append(ChainBreak(stream_id, snap.version, None, (
                f"{where} was not taken of this chain (its head hash differs): the "
                "snapshot or the chain was rewritten")))
        elif key is not None and snap.signature is None:
            notes.append(ChainBreak(stream_id, snap.version, None, (
                f"{where} is unsigned (saved without the key): loaders with the key "
                "ignore it")))
        elif key is not None and not seal_matches(key, snap.stream_id, snap.version, snap.head_hash,
                                                   snap.state_hash, snap.state_digest,
                                                   snap.signature):
            problems.append(ChainBreak(stream_id, snap.version, None, (
                f"{where} has an invalid seal: its state or state hash was altered "
                "(or it was signed with another key)")))
    return problems


def _recorded_id(metadata: bytes | str) -> str | bool | None:
    """The id the event's metadata records; None if none; False if unreadable."""
    try:
        data: Any = json.loads(metadata)
    except ValueError:
        return False
    if not isinstance(data, dict):
        return False
    for name in ID_KEYS:
        if isinstance(data.get(name), str):
            return str(data[name])
    return None


def check_commands(stream_id: str, rows: Sequence[RawEvent], commands: Sequence[CommandRow],
                   notes: list[ChainBreak]) -> list[ChainBreak]:
    problems: list[ChainBreak] = []
    version, unchecked, end = len(rows), 0, 0
    for row in sorted(commands, key=lambda c: (c.version, c.last_version, c.command_id)):
        where = f"the commands record of {row.command_id!r} (versions {row.version}-" \
                f"{row.last_version})"
        if not 1 <= row.version <= row.last_version <= version:
            problems.append(ChainBreak(stream_id, row.version, None, (
                f"{where} lies outside the stream's versions 1-{version}")))
            continue
        if row.version <= end:
            problems.append(ChainBreak(stream_id, row.version, None, (
                f"{where} overlaps another command's versions")))
        end = max(end, row.last_version)
        recorded = _recorded_id(rows[row.version - 1].metadata)
        if recorded is None:
            unchecked += 1
        elif recorded != row.command_id:
            problems.append(ChainBreak(stream_id, row.version, None, (
                f"{where} does not match the chain: those events were appended for "
                f"{recorded!r}" if recorded else f"{where}: its first event's metadata "
                "is unreadable")))
    if unchecked:
        notes.append(ChainBreak(stream_id, None, None, (
            f"{unchecked} commands record(s) cannot be checked: their events record no "
            "command id")))
    return problems
