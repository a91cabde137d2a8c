"""Opening the event store for a service process.

A SQLite store shared by several processes commits with `synchronous=NORMAL` by default
(ARBITER_SQLITE_SYNC): in WAL mode a commit survives the crash of any process (the
crash model of the local deployment), only an OS crash or power loss may lose the last
commits. FULL fsyncs every commit (~4.5 ms here against ~0.1 ms). Production uses
PostgreSQL, which this does not touch.

With `ARBITER_ANCHOR_KEY` set the store signs: it anchors each game every ANCHOR_EVERY
events, seals the snapshots it saves and loads only sealed ones, and `close_game`
gives a finished game its final anchor (docs/security.md).
"""

from __future__ import annotations

import logging
import time
from typing import Literal

from arbiter_services.observability import log
from arbiter_store import EventStore, SQLiteEventStore, StoreError, open_store
from arbiter_store.anchoring import optional_key_from_env

Sync = Literal["NORMAL", "FULL"]


def sqlite_path(url: str) -> str | None:
    if url.startswith("sqlite:///") and url not in ("sqlite:///:memory:",):
        return url[len("sqlite:///"):]
    if "://" in url or url in (":memory:", ""):
        return None
    return url


def open_service_store(url: str, sync: str = "NORMAL") -> EventStore:
    key = optional_key_from_env()
    path = sqlite_path(url)
    if path is None:
        store = open_store(url, anchor_key=key)
        superuser = getattr(store, "connected_as_superuser", None)
        if superuser is not None and superuser():
            logging.getLogger("arbiter_store").warning(
                "the services connect to PostgreSQL as a superuser, who can rewrite stored "
                "events: give them a login in the arbiter_services role (docs/security.md)")
        return store
    mode: Sync = "FULL" if sync.upper() == "FULL" else "NORMAL"
    return SQLiteEventStore(path, synchronous=mode, anchor_key=key)


def close_game(store: EventStore, game_id: str) -> None:
    """The final anchor of a game that just ended, if the store signs (never raises: the
    game is stored; `verify` reports a game without one as not closed)."""
    if not store.signs:
        return
    try:
        store.anchor(game_id, final=True)
    except (StoreError, ValueError):
        logging.getLogger("arbiter_store").warning("could not close %r with a final anchor",
                                                   game_id, exc_info=True)


def wait_until_migrated(url: str, timeout: float, every: float = 2.0) -> int:
    """0 once the store opens without `MigrationRequired` (the migration job has run),
    1 after `timeout` seconds: a service then never starts against an old schema, and
    never migrates one itself (it connects as a role that may not)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            open_store(url).close()
            log().info("store migrated: starting")
            return 0
        except Exception as e:  # not up yet (OSError), or not migrated (MigrationRequired)
            if time.monotonic() > deadline:
                log().error("store not migrated in time", error=type(e).__name__,
                            timeout_s=timeout)
                return 1
            log().info("waiting for the store's migrations", error=type(e).__name__)
            time.sleep(every)
