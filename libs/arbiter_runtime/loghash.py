"""The hash of a game's event log: the same seed and inputs give the same hash, in
process or through the services. It covers each event's (version, type, payload, rule)
and leaves out metadata (ids, times, traces, hosts)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

from arbiter_store import StoredEvent


def log_entry(event: StoredEvent) -> list[Any]:
    return [event.version, event.type, event.payload, event.rule]


def log_hash(events: Iterable[StoredEvent]) -> str:
    h = hashlib.sha256()
    for e in events:
        h.update(json.dumps(log_entry(e), sort_keys=True, separators=(",", ":")).encode())
        h.update(b"\n")
    return h.hexdigest()
