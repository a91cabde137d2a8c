"""What both backends share: argument checks, encoding, decoding with upcasters,
subscriptions, anchors and verification.  A backend implements the ``_raw`` storage
primitives; everything observable is decided here, once.
"""

from __future__ import annotations

import itertools
import threading
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any

import msgspec

from .anchoring import ANCHOR_EVERY, key_bytes
from .codec import ENCODER, decode_object, encode_object
from .combiner import AppendRequest, Combiner
from .integrity import EncodedEvent, hash_parts
from .model import (
    NewEvent,
    StoredEvent,
    Tracking,
    _is_int,
    build_stored_event,
    check_append_args,
    check_read_all_args,
    check_read_stream_args,
    check_stream_id,
    check_text,
)
from .signing import SignedRecords
from .subscription import Subscription, Waiter
from .upcasting import Upcasters

__all__ = ["StoreBase", "encode_events"]


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


class StoreBase(SignedRecords):
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
