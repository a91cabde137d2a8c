"""What the SQLite store objects of one process share per file (the waiters to wake
after an append, the writers' lock), and switching a new file to WAL mode."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
import time
import weakref
from typing import Any, Final

from .errors import CorruptStore, StoreError
from .model import Anchor, Snapshot
from .subscription import EventWaiter

__all__ = ["REGISTRY_LOCK", "WriteLock", "add_functions", "anchor_values", "enable_wal",
           "file_write_lock", "local_waiters", "snapshot_values", "translate"]

SQLITE_CORRUPT: Final = 11
SQLITE_NOTADB: Final = 26
_SQLITE_BUSY: Final = 5
_SQLITE_LOCKED: Final = 6


def enable_wal(conn: sqlite3.Connection, timeout: float) -> None:
    """Switch to WAL, retrying while another connection holds a lock.

    Changing the journal mode needs an exclusive lock, and SQLite reports a busy
    database immediately (without the busy handler) when several processes open a
    fresh file at once, so the retry is done here, bounded by ``timeout``.
    """
    deadline = time.monotonic() + timeout
    delay = 0.001
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL").fetchone()
            return
        except sqlite3.OperationalError as exc:
            code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
            if code not in (_SQLITE_BUSY, _SQLITE_LOCKED) or time.monotonic() >= deadline:
                raise
        time.sleep(delay)
        delay = min(delay * 2, 0.05)


#: Guards the registries below and every WeakSet of waiters they hold.
REGISTRY_LOCK: Final = threading.Lock()
_WAITERS_BY_FILE: dict[str, weakref.WeakSet[EventWaiter]] = {}


def local_waiters(path: str) -> weakref.WeakSet[EventWaiter]:
    """The waiters to wake after an append: shared by every store object of this
    process on the same file (other processes are heard by polling)."""
    if path in ("", ":memory:") or path.startswith("file:"):
        return weakref.WeakSet()
    with REGISTRY_LOCK:
        return _WAITERS_BY_FILE.setdefault(os.path.realpath(path), weakref.WeakSet())


class WriteLock:
    """A lock that weak references can point to (``threading.Lock`` cannot)."""

    __slots__ = ("__weakref__", "acquire", "release")

    def __init__(self) -> None:
        lock = threading.Lock()
        self.acquire, self.release = lock.acquire, lock.release


_WRITE_LOCKS: weakref.WeakValueDictionary[str, WriteLock] = weakref.WeakValueDictionary()


def file_write_lock(path: str) -> WriteLock:
    """The writers' lock of every store object of this process on the same file."""
    if path in ("", ":memory:") or path.startswith("file:"):
        return WriteLock()
    with REGISTRY_LOCK:
        key = os.path.realpath(path)
        lock = _WRITE_LOCKS.get(key)
        if lock is None:
            lock = _WRITE_LOCKS[key] = WriteLock()
        return lock


def add_functions(conn: sqlite3.Connection) -> None:
    """The SQL functions the queries use (SQLite has no SHA-256 of its own)."""
    conn.create_function("arbiter_sha256", 1, _sha256_hex, deterministic=True)


def _sha256_hex(value: bytes | str) -> str:
    data = value.encode() if isinstance(value, str) else bytes(value)
    return hashlib.sha256(data).hexdigest()


def snapshot_values(snapshot: Snapshot) -> list[Any]:
    return [snapshot.stream_id, snapshot.version, snapshot.state, snapshot.state_hash,
            snapshot.created, snapshot.head_hash, snapshot.signature]


def anchor_values(anchor: Anchor) -> list[Any]:
    return [anchor.stream_id, anchor.version, anchor.head_hash, anchor.signature,
            anchor.created, anchor.prev_version, int(anchor.final)]


def translate(exc: sqlite3.Error, path: str) -> StoreError:
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    if code in (SQLITE_CORRUPT, SQLITE_NOTADB):
        return CorruptStore(f"SQLite store {path!r} is unreadable: {exc}")
    return StoreError(f"SQLite store {path!r}: {exc}")
