"""Opening a SQLite file read-only, for the read commands (``replay``, ``diff``,
``verify``): the file is never changed, and anything but an Arbiter store is refused.

* The file must exist; it is opened with SQLite's ``mode=ro`` (no journal-mode
  switch, no migration, no table created), so a foreign file stays byte-identical.
* It must carry Arbiter's ``PRAGMA application_id`` and a schema version this code
  knows, and have the event tables; otherwise :class:`~arbiter_store.errors.NotAStore`.
* A store of an older schema (stored games are forever) is copied into memory and the
  missing migrations are applied to the copy, so every read sees today's layout and
  the new columns read as NULL (what ``verify`` reports as not covered). The file
  itself is not touched; the copy costs the file's size in memory.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Final

from .errors import CorruptStore, NotAStore, StoreError
from .migrations import apply_sqlite_migrations, latest_version

__all__ = ["APPLICATION_ID", "check_foreign", "open_read_only"]

#: ``PRAGMA application_id`` of an Arbiter event store ("ARBS").
APPLICATION_ID: Final = 0x41524253
_TABLES: Final = frozenset({"events", "streams"})


def open_read_only(path: str, timeout: float) -> tuple[sqlite3.Connection, tuple[int, ...]]:
    """A connection that reads the store at ``path`` (migrated in memory if older),
    and the migrations applied to the in-memory copy (``()`` when none)."""
    if path in ("", ":memory:") or path.startswith("file:"):
        raise StoreError(f"a read-only store needs a file, not {path!r}")
    if not Path(path).is_file():
        raise StoreError(f"no event store at {path!r} (file not found)")
    uri = Path(os.path.abspath(path)).as_uri() + "?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None,
                               check_same_thread=False)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open SQLite store {path!r} read-only: {exc}") from exc
    try:
        layout = _check(conn, path)
        if layout == latest_version("sqlite"):
            return conn, ()
        return _migrated_copy(conn, layout, path)
    except BaseException:
        conn.close()
        raise


def check_foreign(conn: sqlite3.Connection, path: str) -> None:
    """Refuse, before anything is written, a file that is another application's (its id,
    or tables of its own): what a store opened for writing checks."""
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    layout = conn.execute("PRAGMA user_version").fetchone()[0]
    if app_id not in (0, APPLICATION_ID) or (layout and app_id != APPLICATION_ID):
        raise NotAStore(f"{path!r} is not an Arbiter event store")
    if layout == 0 and conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
        raise NotAStore(f"{path!r} is not an Arbiter event store (it holds other tables); "
                        "nothing was changed")


def _check(conn: sqlite3.Connection, path: str) -> int:
    """The file's schema version, after checking that it is an Arbiter store."""
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        layout = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as exc:
        raise NotAStore(f"{path!r} is not an Arbiter event store ({exc})") from exc
    if app_id != APPLICATION_ID or layout < 1 or not tables >= _TABLES:
        raise NotAStore(f"{path!r} is not an Arbiter event store (no Arbiter "
                        "application id or event tables); nothing was changed")
    if layout > latest_version("sqlite"):
        raise CorruptStore(f"{path!r} has store schema version {layout}; this code "
                           f"understands up to {latest_version('sqlite')}")
    return int(layout)


def _migrated_copy(conn: sqlite3.Connection, layout: int, path: str
                   ) -> tuple[sqlite3.Connection, tuple[int, ...]]:
    memory = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    try:
        conn.backup(memory)
        conn.close()
        memory.execute("BEGIN IMMEDIATE")
        applied = apply_sqlite_migrations(memory, layout, path)
        memory.execute("COMMIT")
        return memory, tuple(applied)
    except BaseException:
        memory.close()
        raise
