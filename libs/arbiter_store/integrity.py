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
a whole chain by someone who recomputes every hash: signed *anchors* and *snapshot
seals* (:mod:`arbiter_store.anchoring`) close those gaps, and
:func:`~arbiter_store.verification.verify_chains` checks all of it (what holds with
and without the key: ``docs/security.md``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any, Final, NamedTuple

__all__ = [
    "GENESIS_HASH",
    "EncodedEvent",
    "HashParts",
    "RawEvent",
    "chain_rows",
    "event_hash",
    "frame",
    "hash_parts",
    "link",
    "row_hash",
]

GENESIS_HASH = "0" * 64

_EVENT_DOMAIN = b"arbiter-event-v1\x00"


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


def frame(tag: bytes, data: bytes) -> bytes:
    """``tag, 8-byte big-endian length, data``: one field of a hash or MAC input."""
    return tag + len(data).to_bytes(8, "big") + data


_frame = frame


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


