"""Tamper evidence: a hash chain per stream, and HMAC-signed anchors of stream heads.

Each event row stores::

    hash = sha256(prev_hash || canonical(stream_id, version, position, type,
                                         schema_version, payload, rule, metadata))

``prev_hash`` is the (hex, ASCII) hash of the previous event of the same stream, or
:data:`GENESIS_HASH` (64 zeros) for version 1; ``payload`` and ``metadata`` are the
stored bytes (see :mod:`arbiter_store.codec`), so the chain covers exactly what is on
disk.  ``canonical`` frames every field as ``tag, 8-byte big-endian length, bytes``
after a domain tag, so no two different rows share an encoding.  The global
``position`` is covered too: moving an event to another position, even swapping two
events of different streams, breaks the chain.

A chain alone cannot reveal the deletion of a stream's *last* events, nor a rewrite of
a whole chain by someone who recomputes every hash.  An *anchor* closes that gap: it
stores ``(stream_id, version, head_hash, created)`` with an HMAC-SHA256 signature
under a secret key (``ARBITER_ANCHOR_KEY`` for the CLI).  :func:`verify_chains`
checks that every anchored version still exists with the anchored hash, and (given
the key) that the signature is genuine; anchors should also be copied somewhere the
database's writers cannot reach, since deleting the anchors table is not detectable
from inside the database.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import os
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final, NamedTuple

from .errors import StoreError
from .model import Anchor, ChainBreak, VerifyReport

__all__ = [
    "ANCHOR_KEY_ENV",
    "GENESIS_HASH",
    "EncodedEvent",
    "HashParts",
    "RawEvent",
    "anchor_key_from_env",
    "chain_rows",
    "event_hash",
    "hash_parts",
    "link",
    "make_anchor",
    "sign_anchor",
    "verify_chains",
]

GENESIS_HASH = "0" * 64
ANCHOR_KEY_ENV = "ARBITER_ANCHOR_KEY"

_EVENT_DOMAIN = b"arbiter-event-v1\x00"
_ANCHOR_DOMAIN = b"arbiter-anchor-v1\x00"


class EncodedEvent(NamedTuple):
    """A new event with its payload and metadata already encoded."""

    type: str
    schema_version: int
    payload: bytes
    rule: str | None
    metadata: bytes


class RawEvent(NamedTuple):
    """An event row as stored (columns in this order in every backend)."""

    stream_id: str
    version: int
    position: int
    type: str
    schema_version: int
    payload: bytes
    rule: str | None
    metadata: bytes
    hash: str


def _frame(tag: bytes, data: bytes) -> bytes:
    return tag + len(data).to_bytes(8, "big") + data


_NO_RULE = _frame(b"n", b"")


def event_hash(
    prev_hash: str,
    stream_id: str,
    version: int,
    position: int,
    type_: str,
    schema_version: int,
    payload: bytes,
    rule: str | None,
    metadata: bytes,
) -> str:
    """The chained hash of one event row (hex)."""
    digest = hashlib.sha256(prev_hash.encode("ascii"))
    digest.update(
        b"".join(
            (
                _EVENT_DOMAIN,
                _frame(b"s", stream_id.encode()),
                _frame(b"i", str(version).encode()),
                _frame(b"i", str(position).encode()),
                _frame(b"s", type_.encode()),
                _frame(b"i", str(schema_version).encode()),
                _frame(b"b", bytes(payload)),
                _frame(b"n", b"") if rule is None else _frame(b"s", rule.encode()),
                _frame(b"b", bytes(metadata)),
            )
        )
    )
    return digest.hexdigest()


class HashParts(NamedTuple):
    """The parts of each event's hash input that do not depend on its global position
    or on the previous hash, computed before any lock is taken::

        hash = sha256(prev_hash || pre || frame(position) || mid || payload || end || metadata)

    ``pre`` = domain tag, stream id and version frames; ``mid`` = type and schema
    version frames and the payload's frame header; ``end`` = the rule frame and the
    metadata's frame header.  Identical to :func:`event_hash`, byte for byte.
    """

    pre: list[bytes]
    mid: list[bytes]
    end: list[bytes]


def hash_parts(stream_id: str, expected_version: int,
               events: Sequence[EncodedEvent]) -> HashParts:
    """The position-independent hash input of a batch appended at ``expected_version``."""
    head = _EVENT_DOMAIN + _frame(b"s", stream_id.encode()) + b"i"
    pre: list[bytes] = []
    mid: list[bytes] = []
    end: list[bytes] = []
    kinds, rules = _frame_caches()
    version = expected_version
    for type_, schema_version, payload, rule, metadata in events:
        version += 1
        digits = b"%d" % version
        pre.append(head + len(digits).to_bytes(8, "big") + digits)
        kind = kinds.get((type_, schema_version)) or _kind_frame(type_, schema_version)
        mid.append(kind + len(payload).to_bytes(8, "big"))
        frame = rules.get(rule) or _rule_frame(rule)
        end.append(frame + len(metadata).to_bytes(8, "big"))
    return HashParts(pre, mid, end)


def _frame_caches() -> tuple[dict[tuple[str, int], bytes], dict[str | None, bytes]]:
    kinds, rules = _KIND_FRAMES, _RULE_FRAMES
    if len(kinds) > _CACHE_LIMIT or len(rules) > _CACHE_LIMIT:
        kinds.clear()
        rules.clear()
    return kinds, rules


def _kind_frame(type_: str, schema_version: int) -> bytes:
    """The type and schema version frames and the payload frame's tag (cached)."""
    frame = _KIND_FRAMES[type_, schema_version] = b"".join((
        _frame(b"s", type_.encode()), _frame(b"i", str(schema_version).encode()), b"b"))
    return frame


def _rule_frame(rule: str | None) -> bytes:
    """The rule frame and the metadata frame's tag (cached)."""
    frame = _RULE_FRAMES[rule] = b"".join((
        _NO_RULE if rule is None else _frame(b"s", rule.encode()), b"b"))
    return frame


#: Frames of (type, schema_version) and of rules, which repeat from event to event.
_KIND_FRAMES: dict[tuple[str, int], bytes] = {}
_RULE_FRAMES: dict[str | None, bytes] = {}
_CACHE_LIMIT = 10_000
#: The tag and 8-byte big-endian length of a position's frame, by its digit count
#: (positions are int64: at most 19 digits).
_POSITION_TAGS: Final = tuple(b"i" + n.to_bytes(8, "big") for n in range(21))
#: 8-byte big-endian lengths of the common payload and metadata sizes.
_LENGTHS: Final = tuple(n.to_bytes(8, "big") for n in range(4096))


def link(prev_hash: str, base_position: int, parts: HashParts,
         events: Sequence[EncodedEvent]) -> list[str]:
    """The chained hashes of a batch whose first event gets ``base_position + 1``."""
    hashes: list[str] = []
    append, sha256, join, tags = hashes.append, hashlib.sha256, b"".join, _POSITION_TAGS
    prev, position = prev_hash.encode("ascii"), base_position
    for pre, mid, end, event in zip(parts.pre, parts.mid, parts.end, events, strict=True):
        position += 1
        digits = b"%d" % position
        digest = sha256(join((prev, pre, tags[len(digits)], digits, mid, event[2], end,
                              event[4]))).hexdigest()
        append(digest)
        prev = digest.encode("ascii")
    return hashes


def chain_rows(prev_hash: str, stream_id: str, expected_version: int, base_position: int,
               events: Sequence[EncodedEvent], *, blob: Callable[[bytes], Any] = bytes,
               no_rule: Any = None) -> tuple[list[Any], str]:
    """The rows of a batch appended after ``(expected_version, prev_hash)`` whose first
    event gets ``base_position + 1``, flattened (the 9 :class:`RawEvent` columns of each
    row in turn), and the last event's hash: :func:`hash_parts` and :func:`link` in one
    pass, for a backend that hashes where it inserts (identical hashes).

    In the rows, payload and metadata are ``blob(bytes)`` and a rule of None is
    ``no_rule`` (the forms a driver binds cheapest; by default the values themselves)."""
    head = _EVENT_DOMAIN + _frame(b"s", stream_id.encode())
    kinds, rules = _frame_caches()
    tags, lengths, sha256, join = _POSITION_TAGS, _LENGTHS, hashlib.sha256, b"".join
    values: list[Any] = []
    prev, digest = prev_hash.encode("ascii"), prev_hash
    version, position = expected_version, base_position
    for type_, schema_version, payload, rule, metadata in events:
        version += 1
        position += 1
        v_digits, p_digits, size, meta_size = (
            b"%d" % version, b"%d" % position, len(payload), len(metadata))
        digest = sha256(join((
            prev, head, tags[len(v_digits)], v_digits, tags[len(p_digits)], p_digits,
            kinds.get((type_, schema_version)) or _kind_frame(type_, schema_version),
            lengths[size] if size < 4096 else size.to_bytes(8, "big"), payload,
            rules.get(rule) or _rule_frame(rule),
            lengths[meta_size] if meta_size < 4096 else meta_size.to_bytes(8, "big"),
            metadata))).hexdigest()
        prev = digest.encode("ascii")
        values += (stream_id, version, position, type_, schema_version, blob(payload),
                   no_rule if rule is None else rule, blob(metadata), digest)
    return values, digest


def _raw(value: bytes | str) -> bytes:
    """Stored bytes; a column rewritten as text (tampering) is hashed as its UTF-8."""
    return value.encode() if isinstance(value, str) else bytes(value)


def row_hash(prev_hash: str, row: RawEvent) -> str:
    return event_hash(prev_hash, row.stream_id, row.version, row.position, row.type,
                      row.schema_version, _raw(row.payload), row.rule, _raw(row.metadata))


def _key_bytes(key: bytes | str) -> bytes:
    data = key.encode() if isinstance(key, str) else key
    if not isinstance(data, bytes) or not data:
        raise ValueError("the anchor key must be non-empty bytes or str")
    return data


def sign_anchor(key: bytes | str, stream_id: str, version: int, head_hash: str,
                created: str) -> str:
    """HMAC-SHA256 (hex) of an anchor's fields under ``key``."""
    message = b"".join((_ANCHOR_DOMAIN, _frame(b"s", stream_id.encode()),
                        _frame(b"i", str(version).encode()), _frame(b"s", head_hash.encode()),
                        _frame(b"s", created.encode())))
    return hmac.new(_key_bytes(key), message, hashlib.sha256).hexdigest()


def make_anchor(key: bytes | str, stream_id: str, version: int, head_hash: str) -> Anchor:
    created = datetime.now(UTC).isoformat(timespec="microseconds")
    signature = sign_anchor(key, stream_id, version, head_hash, created)
    return Anchor(stream_id, version, head_hash, signature, created)


def anchor_key_from_env(environ: dict[str, str] | None = None) -> bytes:
    """The anchor key from ``ARBITER_ANCHOR_KEY`` (what the CLI uses)."""
    value = (os.environ if environ is None else environ).get(ANCHOR_KEY_ENV, "")
    if not value:
        raise StoreError(f"set {ANCHOR_KEY_ENV} to the secret key used to sign anchors")
    return value.encode()


@dataclass(frozen=True, slots=True)
class VerifyInput:
    """What a backend reads, in one consistent snapshot, for :func:`verify_chains`.

    ``events`` are sorted by (stream_id, version); ``heads`` maps each stream to the
    (version, head_hash) of its stream record.  ``global_scope``: every stream was
    read, so global positions are checked too.
    """

    events: Sequence[RawEvent]
    heads: dict[str, tuple[int, str]]
    anchors: Sequence[Anchor]
    global_scope: bool


def verify_chains(data: VerifyInput, key: bytes | str | None) -> VerifyReport:
    problems: list[ChainBreak] = []
    anchors: dict[str, list[Anchor]] = defaultdict(list)
    for anchor in data.anchors:
        anchors[anchor.stream_id].append(anchor)
    positions: list[int] = []
    streams = 0
    for stream_id, rows in itertools.groupby(data.events, key=lambda row: row.stream_id):
        streams += 1
        stream_rows = list(rows)
        positions.extend(row.position for row in stream_rows)
        problem = _check_stream(stream_id, stream_rows, data.heads.get(stream_id),
                                anchors.pop(stream_id, []), key)
        if problem is not None:
            problems.append(problem)
    seen = {row.stream_id for row in data.events}
    for stream_id, (version, _) in sorted(data.heads.items()):
        if stream_id not in seen:
            problems.append(ChainBreak(stream_id, 1, None, f"the stream record says version "
                                       f"{version} but the stream has no events"))
    for stream_id, lost in sorted(anchors.items()):
        if stream_id not in data.heads:
            problems.append(ChainBreak(stream_id, lost[0].version, None,
                                       "the stream is anchored but has no events"))
    if data.global_scope:
        positions.sort()
        for expected, position in enumerate(positions, start=1):
            if position != expected:
                problems.append(ChainBreak(None, None, expected,
                                           f"global position {expected} is missing"))
                break
    return VerifyReport(streams, len(data.events), len(data.anchors), key is not None,
                        tuple(problems))


def _check_stream(stream_id: str, rows: Iterable[RawEvent], head: tuple[int, str] | None,
                  anchors: list[Anchor], key: bytes | str | None) -> ChainBreak | None:
    prev_hash, last_position, version = GENESIS_HASH, 0, 0
    hashes: dict[int, str] = {}
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
        hashes[version] = row.hash
    if head is None:
        return ChainBreak(stream_id, version, last_position,
                          "the stream has events but no stream record")
    if head != (version, prev_hash):
        return ChainBreak(stream_id, version, last_position, (
            f"the stream record says version {head[0]} with head {head[1][:12]}..., "
            f"but the chain ends at version {version} with {prev_hash[:12]}..."))
    for anchor in anchors:
        if key is not None and not hmac.compare_digest(anchor.signature, sign_anchor(
                key, anchor.stream_id, anchor.version, anchor.head_hash, anchor.created)):
            return ChainBreak(stream_id, anchor.version, None, (
                f"the anchor at version {anchor.version} has an invalid signature "
                "(forged, altered, or signed with another key)"))
        if anchor.version not in hashes:
            return ChainBreak(stream_id, anchor.version, None, (
                f"version {anchor.version} was anchored but the stream ends at version "
                f"{version}: events were deleted"))
        if hashes[anchor.version] != anchor.head_hash:
            return ChainBreak(stream_id, anchor.version, None, (
                f"the hash of version {anchor.version} differs from its anchor: "
                "the chain was rewritten"))
    return None
