"""Snapshot retention: ``save_snapshot(..., keep=n)`` leaves a stream's ``n`` newest
snapshots (by version) and deletes the older ones, in the save's transaction. The same
query for both SQL backends, with the backend's placeholder; ``(stream_id, version)``,
the snapshots table's primary key, serves it, so no index or migration is needed."""

from __future__ import annotations

from .reads import Executor

__all__ = ["prune_query", "prune_snapshots"]


def prune_query(p: str) -> str:
    """Delete a stream's snapshots older than its ``keep``-th newest (parameters: stream
    id, stream id, ``keep - 1``); deletes nothing while it has ``keep`` or fewer, as the
    subquery is then NULL."""
    return (f"DELETE FROM snapshots WHERE stream_id = {p} AND version < ("
            f"SELECT version FROM snapshots WHERE stream_id = {p} "
            f"ORDER BY version DESC LIMIT 1 OFFSET {p})")


def prune_snapshots(conn: Executor, query: str, stream_id: str, keep: int | None) -> None:
    """Leave the ``keep`` newest snapshots of ``stream_id`` (all, if ``keep`` is None)."""
    if keep is not None:
        conn.execute(query, (stream_id, stream_id, keep - 1))
