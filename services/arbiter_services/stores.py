"""Opening the event store for a service process.

A SQLite store shared by several processes commits with `synchronous=NORMAL` by default
(ARBITER_SQLITE_SYNC): in WAL mode a commit survives the crash of any process (the
crash model of the local deployment), only an OS crash or power loss may lose the last
commits. FULL fsyncs every commit (~4.5 ms here against ~0.1 ms). Production uses
PostgreSQL, which this does not touch.
"""

from __future__ import annotations

from typing import Literal

from arbiter_store import EventStore, SQLiteEventStore, open_store

Sync = Literal["NORMAL", "FULL"]


def sqlite_path(url: str) -> str | None:
    if url.startswith("sqlite:///") and url not in ("sqlite:///:memory:",):
        return url[len("sqlite:///"):]
    if "://" in url or url in (":memory:", ""):
        return None
    return url


def open_service_store(url: str, sync: str = "NORMAL") -> EventStore:
    path = sqlite_path(url)
    if path is None:
        return open_store(url)
    mode: Sync = "FULL" if sync.upper() == "FULL" else "NORMAL"
    return SQLiteEventStore(path, synchronous=mode)
