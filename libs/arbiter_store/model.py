"""Event records and the backend-neutral :class:`EventStore` interface.

The store is pure infrastructure: an event is an opaque ``type`` tag, a
``schema_version`` (so later upcasters can migrate old payload shapes on read), a
JSON-object ``payload``, an optional ``rule`` reference and free-form ``metadata``
(correlation ids, actor, wall-clock time...).  Nothing here knows about game rules.

Numbering, shared by every backend:

* ``version`` is 1-based and contiguous within one stream; a stream's version is the
  number of events in it (0 for a stream that does not exist yet).
* ``position`` is 1-based, global and gapless, assigned in commit order: once a
  reader sees position ``n`` it has already been able to see ``1..n-1``.  Catch-up
  subscriptions and projections can therefore track a single integer.

Beyond the log itself every backend offers, with the same behaviour: idempotent
appends (``command_id``), exactly-once consumer tracking (:class:`Tracking`),
opaque snapshots (:class:`Snapshot`), upcasting on read
(:class:`~arbiter_store.upcasting.Upcasters`), catch-up subscriptions
(:class:`~arbiter_store.subscription.Subscription`) and a tamper-evident hash chain
per stream with HMAC-signed anchors (:meth:`EventStore.verify`,
:mod:`arbiter_store.integrity`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

from .lazy import lazy_fields, slot_builder
from .reports import ChainBreak, VerifyReport

if TYPE_CHECKING:
    from .subscription import Subscription

__all__ = ["Anchor", "ChainBreak", "EventStore", "NewEvent", "Snapshot", "StoredEvent",
           "Tracking", "VerifyReport", "build_stored_event"]


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event to append; the store assigns its version and position."""

    type: str
    schema_version: int
    payload: dict[str, Any]
    rule: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.type, str) or not self.type:
            raise ValueError(f"event type must be a non-empty string, got {self.type!r}")
        if (
            not isinstance(self.schema_version, int)
            or isinstance(self.schema_version, bool)
            or self.schema_version < 1
        ):
            raise ValueError(
                f"schema_version of {self.type!r} must be an int >= 1, "
                f"got {self.schema_version!r}"
            )
        if not isinstance(self.payload, dict):
            raise TypeError(f"payload of {self.type!r} must be a dict, got {type(self.payload)}")
        if not isinstance(self.metadata, dict):
            raise TypeError(
                f"metadata of {self.type!r} must be a dict, got {type(self.metadata)}"
            )
        if self.rule is not None and not isinstance(self.rule, str):
            raise TypeError(f"rule of {self.type!r} must be a str or None, got {self.rule!r}")
        check_text(self.type, "event type")
        if self.rule is not None:
            check_text(self.rule, f"rule of {self.type!r}")


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """An event as recorded.

    ``payload`` and ``metadata`` are always the decoded form of the stored bytes, so
    the events returned by :meth:`EventStore.append` compare equal to the events read
    back later (tuples come back as lists, and so on; see :mod:`arbiter_store.codec`);
    those of :meth:`EventStore.append` decode on first access (:mod:`.lazy`).
    """

    stream_id: str
    version: int
    position: int
    type: str
    schema_version: int
    payload: dict[str, Any]
    rule: str | None
    metadata: dict[str, Any]


#: ``build_stored_event(stream_id, version, ..., metadata)``: how the store builds its
#: records (a third of the cost of the frozen dataclass's ``__init__``, which calls
#: ``object.__setattr__`` per field); the result is an ordinary, equal, immutable
#: instance.  ``payload`` and ``metadata`` given as the encoded ``bytes`` decode on
#: first access (see :mod:`.lazy`).
build_stored_event = slot_builder(StoredEvent)
lazy_fields(StoredEvent, ("payload", "metadata"))


@dataclass(frozen=True, slots=True)
class Tracking:
    """A consumer's progress: it has processed the event at global ``position``.

    Passed to :meth:`EventStore.append`, it is recorded in the same transaction as the
    consumer's own writes, so a crash can never record one without the other.
    """

    consumer: str
    position: int

    def __post_init__(self) -> None:
        if not isinstance(self.consumer, str) or not self.consumer:
            raise ValueError(f"consumer must be a non-empty string, got {self.consumer!r}")
        check_text(self.consumer, "consumer")
        if not _is_int(self.position) or self.position < 1:
            raise ValueError(f"tracking position must be an int >= 1, got {self.position!r}")


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Opaque state of a stream as of ``version`` (the store never looks inside).

    ``head_hash`` is the chain hash of event ``version`` when the snapshot was saved
    (None: saved before store schema 3, unbound); ``signature`` seals it under the
    anchor key (:func:`~arbiter_store.anchoring.seal_snapshot`; None: saved without a
    key).  A loader trusts a snapshot only if it is bound to the chain it reads (and,
    with a key, sealed): :meth:`EventStore.load_snapshot`."""

    stream_id: str
    version: int
    state: bytes
    state_hash: str
    created: str  # ISO-8601, UTC
    head_hash: str | None = None
    signature: str | None = None


@dataclass(frozen=True, slots=True)
class Anchor:
    """A signed record of a stream's head: ``head_hash`` is the hash of event
    ``version``; ``signature`` is HMAC-SHA256 (:mod:`arbiter_store.anchoring`).

    ``prev_version`` is the version of the stream's anchor before it (0 for the first),
    so a deleted anchor that a later one follows is noticed; ``final`` marks the end
    of the stream (a finished game: nothing may follow).  Anchors made before store
    schema 3 have ``prev_version`` None, ``final`` False, and a signature over (stream,
    version, head, created) only."""

    stream_id: str
    version: int
    head_hash: str
    signature: str
    created: str  # ISO-8601, UTC
    prev_version: int | None = None
    final: bool = False


class EventStore(ABC):
    """An append-only log of events, partitioned into streams.

    Implementations must be safe to share between threads of one process, and several
    store objects (in one or several processes) may open the same underlying storage;
    appends from all of them serialise, and positions stay gapless.
    """

    @abstractmethod
    def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        *,
        command_id: str | None = None,
        tracking: Tracking | None = None,
    ) -> list[StoredEvent]:
        """Atomically append ``events`` to ``stream_id``.

        ``expected_version`` is the stream's current length (0 for a new stream).  If
        it does not match, raise :class:`~arbiter_store.errors.ConcurrencyConflict`
        and write nothing.  Either the whole batch becomes visible, with consecutive
        versions and positions, or none of it does.  An empty batch is a no-op that
        returns ``[]`` without checking the version (but still records ``tracking``).

        ``command_id``: if an append to this stream with the same command id was
        committed before, return that append's stored events and write nothing (not
        even ``tracking``); the version is not checked.  Otherwise the id is recorded
        with the events.

        ``tracking``: record the consumer's position in the same transaction; if it is
        not greater than the recorded one, raise
        :class:`~arbiter_store.errors.AlreadyProcessed` and write nothing.
        """

    @abstractmethod
    def read_bodies(self, stream_id: str, from_version: int = 1,
                    to_version: int | None = None) -> list[tuple[str, int, bytes, str | None]]:
        """For replay: (type, schema_version, payload bytes as stored, rule) of each
        event, in version order; nothing decoded or upcast."""

    @abstractmethod
    def read_stream(
        self, stream_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[StoredEvent]:
        """Events of one stream with ``from_version <= version <= to_version``.

        ``to_version=None`` reads to the end.  A missing stream reads as ``[]``.
        """

    @abstractmethod
    def read_all(self, from_position: int = 1, limit: int | None = None) -> list[StoredEvent]:
        """Events of every stream with ``position >= from_position``, in position
        order, at most ``limit`` of them (``None``: no limit)."""

    @abstractmethod
    def stream_version(self, stream_id: str) -> int:
        """The number of events in ``stream_id``; 0 if it does not exist."""

    @abstractmethod
    def stream_ids(self) -> list[str]:
        """Every stream id, in order of each stream's first append."""

    @abstractmethod
    def close(self) -> None:
        """Release resources.  Idempotent; other calls fail after it."""

    @abstractmethod
    def subscribe(
        self,
        from_position: int = 1,
        *,
        batch_size: int = 100,
        poll_interval: float | None = None,
        timeout: float | None = None,
    ) -> Subscription:
        """Every event with ``position >= from_position``, then the live log.

        The returned :class:`~arbiter_store.subscription.Subscription` is an iterator
        that yields each position exactly once, in order, waiting for new events
        (woken by appends, re-checking every ``poll_interval`` seconds).  It ends when
        :meth:`~arbiter_store.subscription.Subscription.stop` is called, when the store
        is closed, or after ``timeout`` seconds without a new event.
        """

    @abstractmethod
    def consumer_position(self, consumer: str) -> int:
        """The last position recorded for ``consumer`` (0 if none)."""

    @abstractmethod
    def save_snapshot(
        self, stream_id: str, version: int, state: bytes, state_hash: str,
        keep: int | None = None,
    ) -> Snapshot:
        """Store ``state`` as the stream's state at ``version`` (replacing an earlier
        snapshot of that version).  ``version`` must be between 1 and the stream's
        version, else :class:`~arbiter_store.errors.InvalidSnapshot`.  With ``keep``
        (an int >= 1, else ValueError) the stream's older snapshots are then deleted so
        that its ``keep`` newest by version remain (the one just saved among them unless
        it is older than those); ``None`` keeps them all."""

    @abstractmethod
    def load_snapshot(self, stream_id: str, max_version: int | None = None) -> Snapshot | None:
        """The trusted snapshot with the highest version ``<= max_version`` (any, if
        ``None``), among the newest few.  Trusted: bound to the chain as it is now (its
        ``head_hash`` is the hash of event ``version``) and, if the store has an anchor
        key, sealed with it; without a key a snapshot from before store schema 3
        (unbound) is trusted as before.  Others are skipped (and logged)."""

    @abstractmethod
    def snapshots(self, stream_id: str) -> list[Snapshot]:
        """Every stored snapshot of the stream, oldest version first, trusted or not
        (for ``verify``; loaders use :meth:`load_snapshot`)."""

    @abstractmethod
    def anchor(self, stream_id: str, key: bytes | str | None = None, *,
               final: bool = False) -> Anchor:
        """Record the stream's current head hash, signed with HMAC-SHA256 ``key`` (the
        store's own ``anchor_key`` if None; ValueError if it has none either), naming
        the stream's anchor before it.  ``final=True`` closes the stream: ``verify``
        reports any event after it as a forgery.  If that anchor exists already it is
        returned as stored.

        Raises :class:`~arbiter_store.errors.StreamNotFound` for an empty stream.
        """

    @abstractmethod
    def anchors(self, stream_id: str) -> list[Anchor]:
        """The stream's anchors, oldest version first."""

    @abstractmethod
    def verify(
        self, stream_id: str | None = None, *, anchor_key: bytes | str | None = None
    ) -> VerifyReport:
        """Recompute the hash chain of one stream (or of every stream, plus the global
        positions) and check it against the stream records and the anchors.

        With ``anchor_key`` the anchors' signatures are checked too; without it an
        anchor still has to match the chain, but a forged one is not recognised.
        The scope is read in one consistent snapshot, into memory.
        """

    @abstractmethod
    def event_hash(self, stream_id: str, version: int) -> str | None:
        """The chain hash of event ``version`` of the stream (None: no such event)."""

    @property
    def signs(self) -> bool:
        """Whether the store was opened with an anchor key (it anchors every N events,
        seals snapshots and loads only sealed ones)."""
        return False

    def iter_all(self, from_position: int = 1, batch_size: int = 1000) -> Iterator[StoredEvent]:
        """Iterate over :meth:`read_all` in pages of ``batch_size``.

        Events appended while iterating are included; iteration stops at the first
        short page.
        """
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        position = from_position
        while True:
            page = self.read_all(position, limit=batch_size)
            yield from page
            if len(page) < batch_size:
                return
            position = page[-1].position + 1

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


# Argument checks shared by the backends (programming errors -> ValueError).


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_text(value: str, what: str) -> None:
    """Strings stored in text columns must be valid UTF-8 without NUL characters (which
    PostgreSQL cannot store), so that every backend accepts the same strings."""
    if "\x00" in value:
        raise ValueError(f"{what} must not contain NUL characters, got {value!r}")
    try:
        value.encode()
    except UnicodeEncodeError as exc:
        raise ValueError(f"{what} is not valid Unicode text ({exc.reason}): {value!r}") from None


def check_stream_id(stream_id: str) -> None:
    if not isinstance(stream_id, str) or not stream_id:
        raise ValueError(f"stream_id must be a non-empty string, got {stream_id!r}")
    check_text(stream_id, "stream_id")


def check_append_args(stream_id: str, expected_version: int) -> None:
    check_stream_id(stream_id)
    if not _is_int(expected_version):
        raise TypeError(f"expected_version must be an int, got {expected_version!r}")
    if expected_version < 0:
        raise ValueError(f"expected_version must be >= 0, got {expected_version}")


def check_read_stream_args(stream_id: str, from_version: int, to_version: int | None) -> None:
    check_stream_id(stream_id)
    if from_version < 1:
        raise ValueError(f"from_version must be >= 1, got {from_version}")
    if to_version is not None and to_version < 0:
        raise ValueError(f"to_version must be >= 0 or None, got {to_version}")


def check_read_all_args(from_position: int, limit: int | None) -> None:
    if from_position < 1:
        raise ValueError(f"from_position must be >= 1, got {from_position}")
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be >= 0 or None, got {limit}")
