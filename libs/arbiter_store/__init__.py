"""Arbiter's append-only event store: pure infrastructure, no game rules.

>>> from arbiter_store import NewEvent, open_store
>>> with open_store(":memory:") as store:
...     stored = store.append("game-1", 0, [NewEvent("GameStarted", 1, {"players": 4})])
...     [(e.version, e.position) for e in store.read_stream("game-1")]
[(1, 1)]

One interface, :class:`EventStore`, two backends that behave the same (one contract
test suite runs against both): :class:`SQLiteEventStore` (embedded default) and
``PostgresEventStore`` (psycopg 3; imported on first use, so SQLite users never load
psycopg).  :func:`open_store` picks one from a URL.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from .codec import CODEC_NAME
from .errors import (
    AlreadyProcessed,
    ConcurrencyConflict,
    CorruptStore,
    InvalidSnapshot,
    MigrationRequired,
    NotAStore,
    StoreError,
    StreamNotFound,
    UnsupportedBackend,
    UpcastError,
)
from .location import parse_location
from .model import (
    Anchor,
    ChainBreak,
    EventStore,
    NewEvent,
    Snapshot,
    StoredEvent,
    Tracking,
    VerifyReport,
)
from .sqlite import SQLiteEventStore
from .subscription import Subscription
from .upcasting import Upcasters

if TYPE_CHECKING:
    from .postgres import PostgresEventStore

__all__ = [
    "CODEC_NAME",
    "AlreadyProcessed",
    "Anchor",
    "ChainBreak",
    "ConcurrencyConflict",
    "CorruptStore",
    "EventStore",
    "InvalidSnapshot",
    "MigrationRequired",
    "NewEvent",
    "NotAStore",
    "PostgresEventStore",
    "SQLiteEventStore",
    "Snapshot",
    "StoreError",
    "StoredEvent",
    "StreamNotFound",
    "Subscription",
    "Tracking",
    "UnsupportedBackend",
    "UpcastError",
    "Upcasters",
    "VerifyReport",
    "open_store",
]


def open_store(
    url: str | os.PathLike[str],
    *,
    upcasters: Upcasters | None = None,
    auto_migrate: bool = False,
    read_only: bool = False,
    anchor_key: bytes | str | None = None,
    anchor_every: int | None = None,
) -> EventStore:
    """Open the event store named by ``url``.

    * a filesystem path (``"arbiter.sqlite"``, ``Path(...)``) -> SQLite file;
    * ``"sqlite:///relative.db"`` / ``"sqlite:////abs/path.db"`` (SQLAlchemy
      convention: the path is everything after ``sqlite:///``) -> SQLite file;
    * ``":memory:"``, ``"sqlite://"`` or ``"sqlite:///:memory:"`` -> private
      in-memory SQLite store;
    * ``"postgresql://user@host:5432/db"`` (also ``postgres://``,
      ``postgresql+psycopg://``) -> PostgreSQL; its schema must have been upgraded
      (``arbiter db upgrade --db URL``) unless ``auto_migrate=True``.  Add
      ``?options=-csearch_path%3Dname`` to use a schema other than ``public``.

    ``upcasters`` are applied to every event read.  SQLite files always migrate
    themselves, so ``auto_migrate`` only matters for PostgreSQL.  ``read_only=True``
    opens an existing Arbiter store for reading and changes nothing (a SQLite file
    that is not an Arbiter store raises :class:`NotAStore`, byte-identical).

    ``anchor_key``: anchors made every ``anchor_every`` events (default
    :data:`~arbiter_store.anchoring.ANCHOR_EVERY`) and snapshot seals are signed with
    it, and only sealed snapshots are loaded (docs/security.md).
    """
    location = parse_location(url)
    if location.backend == "sqlite":
        return SQLiteEventStore(location.target, upcasters=upcasters, read_only=read_only,
                                anchor_key=anchor_key, anchor_every=anchor_every)
    from .postgres import PostgresEventStore

    return PostgresEventStore(location.target, auto_migrate=auto_migrate and not read_only,
                              upcasters=upcasters, read_only=read_only,
                              anchor_key=anchor_key, anchor_every=anchor_every)


def __getattr__(name: str) -> Any:
    if name == "PostgresEventStore":
        from .postgres import PostgresEventStore

        return PostgresEventStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
