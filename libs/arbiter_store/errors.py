"""Exceptions raised by event store backends.

Every failure of the store itself derives from :class:`StoreError`, so callers can
catch one type.  Invalid arguments (a negative expected version, an empty stream id,
a payload that cannot be encoded as JSON) are programming errors and raise the usual
``ValueError`` / ``TypeError`` instead.
"""

from __future__ import annotations

from typing import Any


class StoreError(Exception):
    """Base class for every error raised by an event store."""


class ConcurrencyConflict(StoreError):
    """An append's ``expected_version`` did not match the stream's current version.

    Nothing from the rejected batch was written.  ``actual`` is the stream version
    observed inside the append's transaction, so a caller may re-read the stream
    from ``expected + 1`` to ``actual``, re-decide, and retry with
    ``expected_version=actual``.
    """

    def __init__(self, stream_id: str, expected: int, actual: int) -> None:
        self.stream_id = stream_id
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"concurrency conflict on stream {stream_id!r}: expected version {expected}, "
            f"but the stream is at version {actual}"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        # Keep the exception picklable (e.g. across multiprocessing boundaries):
        # the default reduction would call cls(message) with one argument.
        return (type(self), (self.stream_id, self.expected, self.actual))


class UnsupportedBackend(StoreError):
    """The store URL names a backend this build cannot open."""


class CorruptStore(StoreError):
    """The underlying storage is unreadable or violates the store's invariants.

    Raised for files that are not databases, schemas newer than this code understands,
    and stored payloads that cannot be decoded.
    """


class NotAStore(CorruptStore):
    """A file or database opened read-only is not an Arbiter event store (it was not
    changed)."""


class MigrationRequired(StoreError):
    """The database's schema is older than this code (or missing): run the migrations.

    The PostgreSQL store never changes a schema on its own unless it is opened with
    ``auto_migrate=True``; ``arbiter db upgrade --db URL`` applies the pending
    migrations (see :func:`arbiter_store.migrations.upgrade`).
    """


class AlreadyProcessed(StoreError):
    """A consumer's tracking position is not beyond the one already recorded.

    The consumer has already processed the event at ``attempted`` (it recorded
    ``recorded``); nothing from the rejected append was written.
    """

    def __init__(self, consumer: str, recorded: int, attempted: int) -> None:
        self.consumer = consumer
        self.recorded = recorded
        self.attempted = attempted
        super().__init__(
            f"consumer {consumer!r} already processed position {attempted}: "
            f"its recorded position is {recorded}"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.consumer, self.recorded, self.attempted))


class StreamNotFound(StoreError):
    """The operation needs a stream with at least one event."""

    def __init__(self, stream_id: str, what: str) -> None:
        self.stream_id = stream_id
        super().__init__(f"cannot {what}: stream {stream_id!r} has no events")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), str(self), {"stream_id": self.stream_id}))


class InvalidSnapshot(StoreError):
    """A snapshot was saved for a version the stream has not reached."""


class UpcastError(StoreError):
    """An upcaster raised, or did not return a payload dict."""


def _rebuild(cls: type[StoreError], message: str, attrs: dict[str, Any]) -> StoreError:
    error = cls.__new__(cls)
    Exception.__init__(error, message)
    error.__dict__.update(attrs)
    return error
