"""Arbiter's append-only event store: pure infrastructure, no game rules.

>>> from arbiter_store import NewEvent, open_store
>>> with open_store(":memory:") as store:
...     stored = store.append("game-1", 0, [NewEvent("GameStarted", 1, {"players": 4})])
...     [(e.version, e.position) for e in store.read_stream("game-1")]
[(1, 1)]

Backends implement :class:`EventStore`; :func:`open_store` picks one from a URL.
"""

from __future__ import annotations

import os
import re

from .codec import CODEC_NAME
from .errors import ConcurrencyConflict, CorruptStore, StoreError, UnsupportedBackend
from .model import EventStore, NewEvent, StoredEvent
from .sqlite import SQLiteEventStore

__all__ = [
    "CODEC_NAME",
    "ConcurrencyConflict",
    "CorruptStore",
    "EventStore",
    "NewEvent",
    "SQLiteEventStore",
    "StoreError",
    "StoredEvent",
    "UnsupportedBackend",
    "open_store",
]

_SCHEME = re.compile(r"^(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]*)://")
_POSTGRES_SCHEMES = frozenset({"postgres", "postgresql", "postgresql+psycopg"})


def open_store(url: str | os.PathLike[str]) -> EventStore:
    """Open the event store named by ``url``.

    * a filesystem path (``"arbiter.sqlite"``, ``Path(...)``) -> SQLite file;
    * ``"sqlite:///relative.db"`` / ``"sqlite:////abs/path.db"`` (SQLAlchemy
      convention: the path is everything after ``sqlite:///``) -> SQLite file;
    * ``":memory:"``, ``"sqlite://"`` or ``"sqlite:///:memory:"`` -> private
      in-memory SQLite store;
    * ``"postgresql://..."`` -> not available yet (:class:`UnsupportedBackend`).
    """
    text = os.fspath(url)
    match = _SCHEME.match(text)
    if match is None:
        if not text:
            raise ValueError("store URL must not be empty")
        return SQLiteEventStore(text)
    scheme = match["scheme"].lower()
    if scheme == "sqlite":
        rest = text[match.end() :]
        if rest in ("", "/:memory:"):
            return SQLiteEventStore(":memory:")
        if not rest.startswith("/") or len(rest) == 1:
            raise ValueError(f"SQLite URLs look like 'sqlite:///path/to/file.db', got {text!r}")
        return SQLiteEventStore(rest[1:])
    if scheme in _POSTGRES_SCHEMES:
        raise UnsupportedBackend("PostgreSQL comes with the event store issue")
    raise UnsupportedBackend(f"unknown event store URL scheme {scheme!r} in {text!r}")
