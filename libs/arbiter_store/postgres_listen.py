"""PostgreSQL connections with a purpose: LISTEN for new events (subscriptions' waiter),
and the pool set-up of a read-only store (see :mod:`arbiter_store.postgres`)."""

from __future__ import annotations

import threading
from collections.abc import Callable

import psycopg
from psycopg import sql

from .errors import StoreError
from .pgarrays import register
from .postgres_admin import Conn

__all__ = ["ListenWaiter", "register_read_only"]


def register_read_only(conn: Conn) -> None:
    """A pooled connection of a read-only store: every transaction is read-only."""
    register(conn)
    conn.execute("SET default_transaction_read_only = on")


class ListenWaiter:
    """Waits for NOTIFY on a dedicated connection; polls if that connection breaks."""

    def __init__(self, conn: Conn, channel: str, send_wake: Callable[[], None]) -> None:
        self._woken = threading.Event()
        self._send_wake = send_wake
        try:
            conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
        except psycopg.Error as exc:
            conn.close()
            raise StoreError(f"cannot LISTEN for new events: {exc}") from exc
        self._conn: Conn | None = conn

    def arm(self) -> None:
        pass  # notifications that arrive during a read are queued, not lost

    def wait(self, timeout: float) -> None:
        conn = self._conn
        if self._woken.is_set():
            return
        if conn is None:
            self._woken.wait(timeout)
            return
        try:
            for _ in conn.notifies(timeout=timeout, stop_after=1):
                pass
        except psycopg.Error:
            self._conn = None  # fall back to polling
            conn.close()

    def wake(self) -> None:
        self._woken.set()
        self._send_wake()

    def close(self) -> None:
        self._woken.set()
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()
