"""Dead letters: messages set aside because handling them keeps failing (issue 14).

A service that fails to handle a message (the engine raised something other than a
rules violation, or the append met a newer version `MAX_TRIES` times in a row) counts
the failure; once a message has failed `DEAD_LETTER_AFTER` times it is recorded here and
not handled again: the next delivery of it is answered `dead_letter` at once. The work
the game owes stays owed; a judge sees the record (the gateway's
`GET /games/{id}/dead-letters`, `arbiter dead-letters`) and rules on the game.

Records live in the store, in a side stream per game, `dead-letters:<game>` (as the
audit stream, `audit.py`: game ids cannot contain ':', so the name never clashes with a
game, and both backends keep it with no migration). Each record names the message by
its key (`command_ids`: a seat's command `c/<actor>/<id>`, engine work
`w/<game>:<version>:<kind>:<marker>`) and is appended once.
"""

from __future__ import annotations

import time
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from arbiter_store import ConcurrencyConflict, EventStore, NewEvent

DEAD_LETTER_PREFIX = "dead-letters:"
DEAD_LETTER_AFTER = 3  # failed deliveries of one message before it is set aside
MAX_REASON = 500  # characters of the failure kept
MAX_TRIES = 20


class DeadLetter(BaseModel):
    """A message set aside. `message` is the message as it was consumed (a command
    envelope or a work item, as JSON); `reason` the last failure."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    key: str
    kind: Literal["command", "work"]
    game_id: str
    service: str
    actor: str | None = None
    message: dict[str, Any]
    reason: str = Field(max_length=MAX_REASON)
    attempts: int = Field(ge=1)
    at_version: int = Field(ge=0)
    recorded_at: float


def dead_letter_stream(game_id: str) -> str:
    return DEAD_LETTER_PREFIX + game_id


def dead_letters(store: EventStore, game_id: str) -> list[DeadLetter]:
    """Every message set aside for a game, oldest first."""
    return [DeadLetter.model_validate(e.payload)
            for e in store.read_stream(dead_letter_stream(game_id)) if e.type == "DeadLettered"]


def all_dead_letters(store: EventStore) -> list[DeadLetter]:
    """Every game's dead letters, in the order they were recorded (the global log)."""
    return [DeadLetter.model_validate(e.payload) for e in store.read_all(1)
            if e.stream_id.startswith(DEAD_LETTER_PREFIX) and e.type == "DeadLettered"]


def record_dead_letter(store: EventStore, letter: DeadLetter) -> bool:
    """Append the record once (False if that message was already set aside)."""
    stream = dead_letter_stream(letter.game_id)
    for _ in range(MAX_TRIES):
        events = store.read_stream(stream)
        if any(e.payload.get("key") == letter.key for e in events):
            return False
        new = NewEvent(type="DeadLettered", schema_version=1,
                       payload=letter.model_dump(mode="json"),
                       metadata={"service": letter.service, "recorded_at": time.time()})
        try:
            store.append(stream, len(events), [new])
            return True
        except ConcurrencyConflict:
            continue
    raise RuntimeError(f"could not record a dead letter on {stream}")


def short_reason(e: BaseException) -> str:
    """A failure as one bounded line (its type and message)."""
    text = f"{type(e).__name__}: {e}".replace("\n", " ")
    return text if len(text) <= MAX_REASON else text[:MAX_REASON - 3] + "..."
