"""Who saw what: the access stream of a game, `access:<game>` (a side stream, never
in the game's own stream).

- `JudgeRead`: a judge read hidden information of the game (who, when, what): the judge
  view, event payloads, the audit stream, a command's recorded reason, the live stream.
  Recorded before the answer is sent: a read that cannot be recorded is refused (503).
- `GameCreated`: who created the game, the client's seed and the seed the game uses
  (HMAC of the server's seed secret, the game id and the client's seed): judges only.

Judges list everything; organisers list the judges' reads only (the seeds stay with
the judges).
"""

from __future__ import annotations

import hashlib
import hmac
import time
from typing import Any

from arbiter_store import ConcurrencyConflict, EventStore, NewEvent

ACCESS_PREFIX = "access:"
MAX_TRIES = 20
SEED_DERIVATION = "hmac-sha256(seed secret, game id NUL client seed), first 8 bytes >> 1"


def access_stream(game_id: str) -> str:
    return ACCESS_PREFIX + game_id


def derive_seed(secret: bytes, game_id: str, client_seed: int) -> int:
    """The seed of a game created through the gateway (63 bits, never negative)."""
    mac = hmac.new(secret, f"{game_id}\x00{client_seed}".encode(), hashlib.sha256)
    return int.from_bytes(mac.digest()[:8], "big") >> 1


def _append(store: EventStore, game_id: str, kind: str, payload: dict[str, Any]) -> None:
    stream = access_stream(game_id)
    event = NewEvent(type=kind, schema_version=1, payload={"at": time.time(), **payload})
    for _ in range(MAX_TRIES):
        try:
            store.append(stream, store.stream_version(stream), [event])
            return
        except ConcurrencyConflict:
            continue
    raise RuntimeError(f"could not record on {stream}")


def record_read(store: EventStore, game_id: str, judge: str, what: str) -> None:
    _append(store, game_id, "JudgeRead", {"by": judge, "what": what})


def record_created(store: EventStore, game_id: str, organiser: str, command_id: str,
                   client_seed: int, seed: int) -> None:
    _append(store, game_id, "GameCreated", {
        "by": organiser, "command_id": command_id, "client_seed": client_seed,
        "seed": seed, "derivation": SEED_DERIVATION})


def records(store: EventStore, game_id: str, judge: bool) -> list[dict[str, Any]]:
    return [{"position": e.position, "type": e.type, **e.payload}
            for e in store.read_stream(access_stream(game_id))
            if judge or e.type == "JudgeRead"]
