"""``verify``: every check of a store's tamper evidence, over what a backend read in one
consistent snapshot (:class:`VerifyInput`).

Per stream, in order: the hash chain (versions contiguous, positions increasing, each
hash recomputed), the stream record (version and head), the anchors
(:func:`check_anchors`), the snapshots and the commands records
(:mod:`arbiter_store.records`); then, store-wide, the global positions (gapless) and,
where the backend keeps one (PostgreSQL), the position counter.  A problem is
something wrong; a *note* is something the checks cannot cover (see
:class:`~arbiter_store.model.VerifyReport`).
"""

from __future__ import annotations

import hmac
import itertools
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from .anchoring import ANCHOR_KEY_ENV, anchor_signature
from .integrity import GENESIS_HASH, RawEvent, row_hash
from .model import Anchor, ChainBreak, VerifyReport
from .records import CommandRow, SnapshotRecord, check_commands, check_snapshots

__all__ = ["CommandRow", "VerifyInput", "check_anchors", "verify_chains"]

_T = TypeVar("_T", Anchor, SnapshotRecord, CommandRow)


@dataclass(frozen=True, slots=True)
class VerifyInput:
    """What a backend reads, in one consistent snapshot, for :func:`verify_chains`.

    ``events`` are sorted by (stream_id, version); ``heads`` maps each stream to the
    (version, head_hash) of its stream record.  ``global_scope``: every stream was
    read, so global positions are checked too.  ``counter``: the backend's last
    assigned position (None where there is none).
    """

    events: Sequence[RawEvent]
    heads: dict[str, tuple[int, str]]
    anchors: Sequence[Anchor]
    global_scope: bool
    snapshots: Sequence[SnapshotRecord] = ()
    commands: Sequence[CommandRow] = ()
    counter: int | None = None


def _by_stream(items: Iterable[_T], key: str) -> dict[str, list[_T]]:
    out: dict[str, list[_T]] = defaultdict(list)
    for item in items:
        out[getattr(item, key)].append(item)
    return out


def verify_chains(data: VerifyInput, key: bytes | str | None) -> VerifyReport:
    problems: list[ChainBreak] = []
    notes: list[ChainBreak] = []
    anchors = _by_stream(data.anchors, "stream_id")
    snapshots = _by_stream(data.snapshots, "stream_id")
    commands = _by_stream(data.commands, "stream_id")
    positions: list[int] = []
    streams = 0
    for stream_id, rows in itertools.groupby(data.events, key=lambda row: row.stream_id):
        streams += 1
        stream_rows = list(rows)
        positions.extend(row.position for row in stream_rows)
        problem = _check_chain(stream_id, stream_rows, data.heads.get(stream_id))
        if problem is not None:
            problems.append(problem)
            continue  # the rest is checked against a chain that holds
        hashes = {row.version: row.hash for row in stream_rows}
        problems += check_anchors(stream_id, hashes, anchors.pop(stream_id, []), key, notes)
        problems += check_snapshots(stream_id, hashes, snapshots.pop(stream_id, []), key,
                                    notes)
        problems += check_commands(stream_id, stream_rows, commands.pop(stream_id, []),
                                   notes)
    problems += _orphans(data, anchors, snapshots, commands)
    if data.global_scope:
        problems += _positions(sorted(positions), data.counter)
    if key is None and data.events:
        notes.append(ChainBreak(None, None, None, (
            f"signatures not checked ({ANCHOR_KEY_ENV} unset): anyone who can write to the "
            "database could rewrite a whole game, its anchors and its snapshots unnoticed")))
    return VerifyReport(streams, len(data.events), len(data.anchors), key is not None,
                        tuple(problems), len(data.snapshots), len(data.commands),
                        tuple(notes))


def _orphans(data: VerifyInput, anchors: dict[str, list[Anchor]],
             snapshots: dict[str, list[SnapshotRecord]],
             commands: dict[str, list[CommandRow]]) -> list[ChainBreak]:
    """Records of streams that have no events (or whose chain is broken: skipped)."""
    problems: list[ChainBreak] = []
    seen = {row.stream_id for row in data.events}
    for stream_id, (version, _) in sorted(data.heads.items()):
        if stream_id not in seen:
            problems.append(ChainBreak(stream_id, 1, None, f"the stream record says version "
                                       f"{version} but the stream has no events"))
    lost: dict[str, list[int]] = defaultdict(list)
    for what, records in (("anchored", anchors), ("snapshotted", snapshots),
                          ("named by commands records", commands)):
        for stream_id, rows in records.items():
            if stream_id not in seen and not lost[stream_id]:
                lost[stream_id].append(0)
                problems.append(ChainBreak(stream_id, rows[0].version, None,
                                           f"the stream is {what} but has no events"))
    return problems


def _positions(positions: list[int], counter: int | None) -> list[ChainBreak]:
    for expected, position in enumerate(positions, start=1):
        if position != expected:
            return [ChainBreak(None, None, expected, f"global position {expected} is missing")]
    last = positions[-1] if positions else 0
    if counter is not None and counter != last:
        return [ChainBreak(None, None, last + 1, (
            f"the log's position counter is at {counter} but its last event is at "
            f"position {last}: events at the end of the log were deleted"))]
    return []


def _check_chain(stream_id: str, rows: Iterable[RawEvent],
                 head: tuple[int, str] | None) -> ChainBreak | None:
    prev_hash, last_position, version = GENESIS_HASH, 0, 0
    for row in rows:
        version += 1
        if row.version != version:
            return ChainBreak(stream_id, version, row.position, (
                f"expected version {version} but found version {row.version}: "
                "an event was deleted or versions were changed"))
        if row.position <= last_position:
            return ChainBreak(stream_id, version, row.position, (
                f"position {row.position} is not after position {last_position} of the "
                "previous version: events were reordered"))
        if row_hash(prev_hash, row) != row.hash:
            return ChainBreak(stream_id, version, row.position, (
                "hash mismatch: the event was modified or moved, or the event before it "
                "was deleted"))
        prev_hash, last_position = row.hash, row.position
    if head is None:
        return ChainBreak(stream_id, version, last_position,
                          "the stream has events but no stream record")
    if head != (version, prev_hash):
        return ChainBreak(stream_id, version, last_position, (
            f"the stream record says version {head[0]} with head {head[1][:12]}..., "
            f"but the chain ends at version {version} with {prev_hash[:12]}..."))
    return None


def check_anchors(stream_id: str, hashes: dict[int, str], anchors: Sequence[Anchor],
                  key: bytes | str | None, notes: list[ChainBreak]) -> list[ChainBreak]:
    """The stream's anchors against its (intact) chain; notes what they leave uncovered."""
    version = len(hashes)
    if not anchors:
        notes.append(ChainBreak(stream_id, None, None, (
            "not anchored: a deletion of its last events, or a rewrite of the whole game "
            "with its hashes recomputed, would not be detected")))
        return []
    versions = {anchor.version for anchor in anchors} | {0}
    for anchor in sorted(anchors, key=lambda a: a.version):
        if key is not None and not hmac.compare_digest(anchor.signature,
                                                       anchor_signature(key, anchor)):
            return [ChainBreak(stream_id, anchor.version, None, (
                f"the anchor at version {anchor.version} has an invalid signature "
                "(forged, altered, or signed with another key)"))]
        if anchor.version not in hashes:
            return [ChainBreak(stream_id, anchor.version, None, (
                f"version {anchor.version} was anchored but the stream ends at version "
                f"{version}: events were deleted"))]
        if hashes[anchor.version] != anchor.head_hash:
            return [ChainBreak(stream_id, anchor.version, None, (
                f"the hash of version {anchor.version} differs from its anchor: "
                "the chain was rewritten"))]
        if anchor.prev_version is not None and anchor.prev_version not in versions:
            return [ChainBreak(stream_id, anchor.version, None, (
                f"the anchor at version {anchor.version} follows an anchor at version "
                f"{anchor.prev_version}, which is missing: an anchor was deleted"))]
    last = max(anchors, key=lambda a: a.version)
    finals = [a for a in anchors if a.final]
    if finals and version > min(a.version for a in finals):
        end = min(a.version for a in finals)
        return [ChainBreak(stream_id, end + 1, None, (
            f"{version - end} event(s) follow the final anchor at version {end}: "
            "events were appended after the game was closed"))]
    if not finals:
        legacy = any(a.prev_version is None for a in anchors)
        tail = (f"events {last.version + 1}-{version} come after its last anchor "
                f"(version {last.version}) and are not covered by a signature; "
                if last.version < version else "")
        why = ("its anchors are from before store schema 3, which have no end mark"
               if legacy else "a game in progress, or its final anchor was deleted")
        notes.append(ChainBreak(stream_id, last.version, None, (
            f"not closed by a final anchor ({why}): {tail}a deletion of its events back "
            "to an anchor, with the anchors after it, would not be detected")))
    return []
