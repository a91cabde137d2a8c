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
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Self


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


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """An event as recorded.

    ``payload`` and ``metadata`` are always the decoded form of the stored bytes, so
    the events returned by :meth:`EventStore.append` compare equal to the events read
    back later (tuples come back as lists, and so on; see :mod:`arbiter_store.codec`).
    """

    stream_id: str
    version: int
    position: int
    type: str
    schema_version: int
    payload: dict[str, Any]
    rule: str | None
    metadata: dict[str, Any]


class EventStore(ABC):
    """An append-only log of events, partitioned into streams.

    Implementations must be safe to share between threads of one process, and several
    store objects (in one or several processes) may open the same underlying storage;
    appends from all of them serialise, and positions stay gapless.
    """

    @abstractmethod
    def append(
        self, stream_id: str, expected_version: int, events: Sequence[NewEvent]
    ) -> list[StoredEvent]:
        """Atomically append ``events`` to ``stream_id``.

        ``expected_version`` is the stream's current length (0 for a new stream).  If
        it does not match, raise :class:`~arbiter_store.errors.ConcurrencyConflict`
        and write nothing.  Either the whole batch becomes visible, with consecutive
        versions and positions, or none of it does.  An empty batch is a no-op that
        returns ``[]`` without checking the version.
        """

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


def check_stream_id(stream_id: str) -> None:
    if not isinstance(stream_id, str) or not stream_id:
        raise ValueError(f"stream_id must be a non-empty string, got {stream_id!r}")


def check_append_args(stream_id: str, expected_version: int) -> None:
    check_stream_id(stream_id)
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
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
