"""What both backends share: argument checks, encoding, decoding with upcasters,
subscriptions, anchors and verification.  A backend implements the ``_raw`` storage
primitives; everything observable is decided here, once.
"""

from __future__ import annotations

import itertools
import logging
import threading
from abc import abstractmethod
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import msgspec

from .anchoring import ANCHOR_EVERY, key_bytes, make_anchor, seal_snapshot, snapshot_sealed
from .codec import ENCODER, decode_object, encode_object
from .combiner import AppendRequest, Combiner
from .errors import StreamNotFound
from .integrity import EncodedEvent, hash_parts
from .model import (
    Anchor,
    EventStore,
    NewEvent,
    Snapshot,
    StoredEvent,
    Tracking,
    VerifyReport,
    _is_int,
    build_stored_event,
    check_append_args,
    check_read_all_args,
    check_read_stream_args,
    check_stream_id,
    check_text,
)
from .subscription import Subscription, Waiter
from .upcasting import Upcasters
from .verification import VerifyInput, verify_chains

__all__ = ["StoreBase", "encode_events"]

_log = logging.getLogger("arbiter_store")
#: Snapshots :meth:`StoreBase.load_snapshot` considers, newest first, for a trusted one.
SNAPSHOT_CANDIDATES = 4

#: The SELECT list matching :class:`~arbiter_store.integrity.RawEvent`.
RAW_COLUMNS = "stream_id, version, position, type, schema_version, payload, rule, metadata, hash"
#: The SELECT list of an :data:`EventRow` (what reads decode: no hash).
EVENT_COLUMNS = "stream_id, version, position, type, schema_version, payload, rule, metadata"
#: A row of :data:`EVENT_COLUMNS`, as the driver returns it.
EventRow = Sequence[Any]


def encode_events(events: Sequence[NewEvent]) -> list[EncodedEvent]:
    """Encode a batch (outside any lock): an unencodable event raises ``TypeError``."""
    encode, new = ENCODER.encode, tuple.__new__  # skips NamedTuple's Python __new__
    try:
        return [new(EncodedEvent, (event.type, event.schema_version, encode(event.payload),
                                   event.rule,
                                   encode(event.metadata) if event.metadata else b"{}"))
                for event in events]
    except (TypeError, msgspec.EncodeError, OverflowError):
        pass
    for event in events:  # say which one (encode_object raises the TypeError)
        encode_object(event.payload, what=f"payload of {event.type!r}")
        encode_object(event.metadata, what=f"metadata of {event.type!r}")
    raise AssertionError("unreachable: an event failed to encode only once")  # pragma: no cover


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


class StoreBase(EventStore):
    """Shared implementation of :class:`EventStore` over a few storage primitives."""

    #: Seconds between re-reads when a subscription hears no append.
    default_poll_interval: float = 1.0
    #: Whether appends carry their position-independent hash input
    #: (:func:`~arbiter_store.integrity.hash_parts`, framed before any lock) to the
    #: backend; else ``AppendRequest.parts`` is None and the backend hashes in one pass.
    _frames_hash_input: bool = True

    def __init__(self, upcasters: Upcasters | None = None, *,
                 anchor_key: bytes | str | None = None,
                 anchor_every: int | None = None) -> None:
        if upcasters is not None and not isinstance(upcasters, Upcasters):
            raise TypeError(f"upcasters must be an Upcasters registry, got {upcasters!r}")
        if anchor_every is not None and (not _is_int(anchor_every) or anchor_every < 1):
            raise ValueError(f"anchor_every must be an int >= 1 or None, got {anchor_every!r}")
        self._upcasters = upcasters
        #: Signs anchors made every ``anchor_every`` events and snapshots (None: none).
        self._anchor_key = None if anchor_key is None else key_bytes(anchor_key)
        self._anchor_every = ANCHOR_EVERY if anchor_every is None else anchor_every
        self._subscriptions: set[Subscription] = set()
        self._subscriptions_lock = threading.Lock()
        self._combiner = Combiner(self._append_group)

    @property
    def signs(self) -> bool:
        return self._anchor_key is not None

    # -- storage primitives --------------------------------------------------------

    @abstractmethod
    def _append_group(self, group: list[AppendRequest]) -> None:
        """Run a group of appends (distinct streams and consumers) in one transaction
        and set each request's outcome (see :mod:`arbiter_store.combiner`): for each,
        the earlier rows of a known ``command_id``; else check the tracking and the
        version, then number, hash and insert its events."""

    @abstractmethod
    def _record_tracking(self, tracking: Tracking) -> None: ...

    @abstractmethod
    def _read_stream_rows(self, stream_id: str, from_version: int,
                          to_version: int | None) -> list[EventRow]: ...

    @abstractmethod
    def _read_all_rows(self, from_position: int, limit: int | None) -> list[EventRow]: ...

    @abstractmethod
    def _consumer_position_raw(self, consumer: str) -> int: ...

    @abstractmethod
    def _save_snapshot_raw(self, snapshot: Snapshot, keep: int | None) -> Snapshot:
        """In one transaction: raise InvalidSnapshot if the stream has not reached the
        version; seal the snapshot with the hash of event ``version``
        (:meth:`_seal`); upsert it; delete all but the stream's ``keep`` newest (None:
        keep all).  Returns the sealed snapshot."""

    @abstractmethod
    def _snapshot_candidates(self, stream_id: str, max_version: int | None, limit: int
                             ) -> list[tuple[Snapshot, str | None]]:
        """The newest ``limit`` snapshots at or below ``max_version``, newest first, each
        with the chain hash of its version (None if the stream has no such event)."""

    @abstractmethod
    def _snapshots_raw(self, stream_id: str) -> list[Snapshot]: ...

    @abstractmethod
    def _stream_head(self, stream_id: str) -> tuple[int, str]:
        """(version, hash) of the stream's last event row; (0, "") if none."""

    @abstractmethod
    def _event_hash_at(self, stream_id: str, version: int) -> str | None: ...

    @abstractmethod
    def _insert_anchor(self, anchor: Anchor) -> Anchor:
        """Insert unless the stream has an anchor of that version; return the stored one."""

    @abstractmethod
    def _anchors_raw(self, stream_id: str | None) -> list[Anchor]: ...

    @abstractmethod
    def _verify_input(self, stream_id: str | None) -> VerifyInput: ...

    @abstractmethod
    def _new_waiter(self) -> Waiter:
        """A waiter for a new subscription (raises StoreError if the store is closed)."""

    @abstractmethod
    def _close_backend(self) -> None: ...

    # -- the interface -------------------------------------------------------------

    def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        *,
        command_id: str | None = None,
        tracking: Tracking | None = None,
    ) -> list[StoredEvent]:
        check_append_args(stream_id, expected_version)
        if command_id is not None:
            if not isinstance(command_id, str) or not command_id:
                raise ValueError(f"command_id must be a non-empty string or None, "
                                 f"got {command_id!r}")
            check_text(command_id, "command_id")
        if tracking is not None and not isinstance(tracking, Tracking):
            raise TypeError(f"tracking must be a Tracking or None, got {tracking!r}")
        encoded = encode_events(events)
        if not encoded:
            if tracking is not None:
                self._record_tracking(tracking)
            return []
        request = AppendRequest(stream_id, expected_version, encoded,
                                hash_parts(stream_id, expected_version, encoded)
                                if self._frames_hash_input else None,
                                command_id, tracking)
        self._combiner.submit(request)
        if request.error is not None:
            raise request.error
        self._appended()
        if request.earlier is not None:
            return self._decode_rows(request.earlier)
        assert request.base is not None
        if self._anchor_key is not None:
            self._anchor_crossed(stream_id, expected_version, len(encoded))
        return self._stored(stream_id, expected_version, request.base, encoded)

    def _anchor_crossed(self, stream_id: str, before: int, count: int) -> None:
        """Anchor each multiple of ``anchor_every`` that this append's events reached.

        After the append's commit (so a failure here never undoes or repeats an append):
        an anchor that could not be made is logged, and ``verify`` then reports the
        events after the last anchor as not covered, not as broken."""
        every = self._anchor_every
        for version in range((before // every + 1) * every, before + count + 1, every):
            try:
                self._anchor_version(stream_id, version, final=False)
            except Exception:  # the append is stored: report, never undo it
                _log.warning("could not anchor %r at version %d", stream_id, version,
                             exc_info=True)

    def _stored(self, stream_id: str, expected_version: int, base: int,
                events: list[EncodedEvent]) -> list[StoredEvent]:
        """What :meth:`append` returns for a new batch: the bytes it stored (what a later
        read decodes), decoded on first access (:mod:`.lazy`); upcast payloads eagerly."""
        upcasters, build = self._upcasters, build_stored_event
        versions = range(expected_version + 1, expected_version + len(events) + 1)
        if upcasters is None or not any((e[0], e[1]) in upcasters for e in events):
            return [build(stream_id, version, position, type_, schema_version, payload, rule,
                          metadata)  # payload and metadata bytes: pending
                    for (type_, schema_version, payload, rule, metadata), version, position
                    in zip(events, versions, itertools.count(base + 1))]
        stored: list[StoredEvent] = []
        for (type_, schema_version, payload, rule, metadata), version, position in zip(
                events, versions, itertools.count(base + 1)):
            data: dict[str, Any] | bytes = payload
            if (type_, schema_version) in upcasters:
                schema_version, data = upcasters.upcast(
                    type_, schema_version, _decoder.decode(payload),
                    where=f"event {stream_id!r}@{version} (position {position})")
            stored.append(build(stream_id, version, position, type_, schema_version, data,
                                rule, metadata))
        return stored

    def _appended(self) -> None:
        """Hook run after a successful append (wakes in-process subscribers)."""

    def read_bodies(self, stream_id: str, from_version: int = 1,
                    to_version: int | None = None) -> list[tuple[str, int, bytes, str | None]]:
        """For replay: each event's (type, schema_version, payload bytes as stored, rule),
        in version order, without decoding anything or upcasting (the reader decodes and
        upcasts). Much cheaper than `read_stream` when only the game state is wanted."""
        check_stream_id(stream_id)
        return [(r[3], r[4], bytes(r[5]), r[6])
                for r in self._read_stream_rows(stream_id, from_version, to_version)]

    def read_stream(
        self, stream_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[StoredEvent]:
        check_read_stream_args(stream_id, from_version, to_version)
        return self._decode_rows(self._read_stream_rows(stream_id, from_version, to_version))

    def read_all(self, from_position: int = 1, limit: int | None = None) -> list[StoredEvent]:
        check_read_all_args(from_position, limit)
        return self._decode_rows(self._read_all_rows(from_position, limit))

    def subscribe(
        self,
        from_position: int = 1,
        *,
        batch_size: int = 100,
        poll_interval: float | None = None,
        timeout: float | None = None,
    ) -> Subscription:
        interval = self.default_poll_interval if poll_interval is None else poll_interval
        waiter = self._new_waiter()
        try:
            subscription = Subscription(
                self.read_all, waiter, from_position=from_position, batch_size=batch_size,
                poll_interval=interval, timeout=timeout, on_close=self._forget_subscription)
        except BaseException:  # invalid arguments
            waiter.close()
            raise
        with self._subscriptions_lock:
            self._subscriptions.add(subscription)
        return subscription

    def _forget_subscription(self, subscription: Subscription) -> None:
        with self._subscriptions_lock:
            self._subscriptions.discard(subscription)

    def _stop_subscriptions(self) -> None:
        with self._subscriptions_lock:
            live = list(self._subscriptions)
        for subscription in live:
            subscription.stop()

    def consumer_position(self, consumer: str) -> int:
        if not isinstance(consumer, str) or not consumer:
            raise ValueError(f"consumer must be a non-empty string, got {consumer!r}")
        check_text(consumer, "consumer")
        return self._consumer_position_raw(consumer)

    def save_snapshot(
        self, stream_id: str, version: int, state: bytes, state_hash: str,
        keep: int | None = None,
    ) -> Snapshot:
        check_stream_id(stream_id)
        if keep is not None and (not _is_int(keep) or keep < 1):
            raise ValueError(f"keep must be an int >= 1 or None, got {keep!r}")
        if not _is_int(version) or version < 1:
            raise ValueError(f"snapshot version must be an int >= 1, got {version!r}")
        if not isinstance(state, bytes | bytearray | memoryview):
            raise TypeError(f"snapshot state must be bytes, got {type(state).__name__}")
        if not isinstance(state_hash, str) or not state_hash:
            raise ValueError(f"state_hash must be a non-empty string, got {state_hash!r}")
        check_text(state_hash, "state_hash")
        snapshot = Snapshot(stream_id, version, bytes(state), state_hash, utc_now())
        return self._save_snapshot_raw(snapshot, keep)

    def _seal(self, snapshot: Snapshot, head_hash: str) -> Snapshot:
        """The snapshot bound to the chain hash of its version, signed with the key."""
        return seal_snapshot(self._anchor_key, snapshot, head_hash)

    def load_snapshot(self, stream_id: str, max_version: int | None = None) -> Snapshot | None:
        check_stream_id(stream_id)
        if max_version is not None and (not _is_int(max_version) or max_version < 0):
            raise ValueError(f"max_version must be an int >= 0 or None, got {max_version!r}")
        for snapshot, chain_hash in self._snapshot_candidates(stream_id, max_version,
                                                              SNAPSHOT_CANDIDATES):
            if self._trusted(snapshot, chain_hash):
                return snapshot
            _log.warning("snapshot of %r at version %d is not trusted (not bound to the "
                         "chain, or not sealed with the key): ignored", stream_id,
                         snapshot.version)
        return None

    def _trusted(self, snapshot: Snapshot, chain_hash: str | None) -> bool:
        """Bound to the chain as it is now; with a key, sealed with it. Without a key a
        snapshot from before store schema 3 (unbound) is trusted as it used to be."""
        if self._anchor_key is not None:
            return snapshot.head_hash == chain_hash and snapshot_sealed(self._anchor_key,
                                                                        snapshot)
        return snapshot.head_hash is None or snapshot.head_hash == chain_hash

    def snapshots(self, stream_id: str) -> list[Snapshot]:
        check_stream_id(stream_id)
        return self._snapshots_raw(stream_id)

    def anchor(self, stream_id: str, key: bytes | str | None = None, *,
               final: bool = False) -> Anchor:
        check_stream_id(stream_id)
        if key is not None:
            key = key_bytes(key)
        version, _ = self._stream_head(stream_id)
        if version == 0:
            raise StreamNotFound(stream_id, "anchor")
        return self._anchor_version(stream_id, version, final=final, key=key)

    def _anchor_version(self, stream_id: str, version: int, *, final: bool,
                        key: bytes | None = None) -> Anchor:
        key = self._anchor_key if key is None else key
        if key is None:
            raise ValueError("anchoring needs a key: pass one, or open the store with "
                             "anchor_key")
        head_hash = self._event_hash_at(stream_id, version)
        if head_hash is None:
            raise StreamNotFound(stream_id, f"anchor version {version}")
        before = [a.version for a in self._anchors_raw(stream_id) if a.version < version]
        anchor = make_anchor(key, stream_id, version, head_hash,
                             prev_version=max(before, default=0), final=final)
        return self._insert_anchor(anchor)

    def anchors(self, stream_id: str) -> list[Anchor]:
        check_stream_id(stream_id)
        return self._anchors_raw(stream_id)

    def verify(
        self, stream_id: str | None = None, *, anchor_key: bytes | str | None = None
    ) -> VerifyReport:
        if stream_id is not None:
            check_stream_id(stream_id)
        return verify_chains(self._verify_input(stream_id), anchor_key)

    def close(self) -> None:
        self._stop_subscriptions()
        self._close_backend()

    # -- decoding ------------------------------------------------------------------

    def _decode_rows(self, rows: Sequence[EventRow]) -> list[StoredEvent]:
        """Stored events from rows of :data:`EVENT_COLUMNS` (decoded, upcast)."""
        decode, upcasters, build = _decoder.decode, self._upcasters, build_stored_event
        events: list[StoredEvent] = []
        append = events.append
        try:
            for stream_id, version, position, type_, schema_version, payload, rule, \
                    metadata in rows:
                data = decode(payload)
                if upcasters is not None and (type_, schema_version) in upcasters:
                    schema_version, data = upcasters.upcast(
                        type_, schema_version, data,
                        where=f"event {stream_id!r}@{version} (position {position})")
                append(build(stream_id, version, position, type_, schema_version, data, rule,
                             {} if metadata == b"{}" else decode(metadata)))
        except (msgspec.DecodeError, msgspec.ValidationError):
            for row in rows[len(events):]:  # name the damaged row (raises CorruptStore)
                where = f"event {row[0]!r}@{row[1]} (position {row[2]})"
                decode_object(row[5], what=f"payload of {where}")
                decode_object(row[7], what=f"metadata of {where}")
            raise
        return events


_decoder = msgspec.json.Decoder(dict[str, Any])
