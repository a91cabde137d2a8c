"""Side streams of a game, kept apart from its event stream (which holds rules events
only, so its log is the same in process and through the services):

- `audit:<game>`: commands the rules rejected (`CommandRejected`, citing the rule), for
  judges. A rejected command changes nothing in the game stream.
- `seats:<game>`: which seats have been claimed through the gateway (never a token).

Game ids cannot contain ':' (`GAME_ID_PATTERN`), so these names never clash with a game.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict

from arbiter_runtime.command_ids import command_id_of, command_key
from arbiter_store import ConcurrencyConflict, EventStore, NewEvent, StoredEvent

GAME_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,79}$"
_GAME_ID = re.compile(GAME_ID_PATTERN)
AUDIT_PREFIX = "audit:"
SEATS_PREFIX = "seats:"
MAX_TRIES = 20


def valid_game_id(game_id: str) -> bool:
    return bool(_GAME_ID.match(game_id))


def audit_stream(game_id: str) -> str:
    return AUDIT_PREFIX + game_id


def seats_stream(game_id: str) -> str:
    return SEATS_PREFIX + game_id


def is_game_stream(stream_id: str) -> bool:
    return valid_game_id(stream_id)


class CommandRejected(BaseModel):
    """A command the engine refused. `rule` is the CR number for a rules violation;
    `field` names the offending field of a malformed command; `code` is a short tag
    (`rule_violation`, `invalid_command`, `stale_version`, `not_started`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    command_id: str
    seat: str | None
    command_type: str
    code: str
    reason: str
    rule: str | None = None
    field: str | None = None


def rejection_of(event: StoredEvent) -> CommandRejected:
    return CommandRejected.model_validate(event.payload)


def rejection_key(r: CommandRejected) -> str:
    """The rejected command's key (`command_ids.command_key`: scoped per actor)."""
    return command_key(r.seat or "", r.command_id)


def rejected(store: EventStore, game_id: str) -> dict[str, CommandRejected]:
    """Every rejection recorded for a game, by command key (`rejection_key`)."""
    out: dict[str, CommandRejected] = {}
    for e in store.read_stream(audit_stream(game_id)):
        if e.type == "CommandRejected":
            r = rejection_of(e)
            out[rejection_key(r)] = r
    return out


def rejection_for(rejections: dict[str, CommandRejected], command_id: str,
                  actor: str | None) -> CommandRejected | None:
    """`actor`'s rejected command `command_id` (with no actor, a judge asking: any
    actor's)."""
    if actor is not None:
        return rejections.get(command_key(actor, command_id))
    return next((r for k, r in rejections.items() if command_id_of(k) == command_id), None)


def record_rejection(store: EventStore, game_id: str, rejection: CommandRejected,
                     metadata: dict[str, Any]) -> bool:
    """Append the rejection once (a redelivered command is not recorded twice).
    Returns False if it was already recorded."""
    stream = audit_stream(game_id)
    for _ in range(MAX_TRIES):
        events = store.read_stream(stream)
        if any(e.payload.get("command_id") == rejection.command_id
               and e.payload.get("seat") == rejection.seat for e in events):
            return False
        new = NewEvent(type="CommandRejected", schema_version=1,
                       payload=rejection.model_dump(mode="json"), rule=rejection.rule,
                       metadata=metadata)
        try:
            store.append(stream, len(events), [new])
            return True
        except ConcurrencyConflict:
            continue
    raise RuntimeError(f"could not record a rejection on {stream}")


def claimed_seats(store: EventStore, game_id: str) -> list[str]:
    return [str(e.payload["seat"]) for e in store.read_stream(seats_stream(game_id))
            if e.type == "SeatClaimed"]


def claim_seat(store: EventStore, game_id: str, seat: str) -> bool:
    """Claim a seat once; False if someone already holds it."""
    stream = seats_stream(game_id)
    for _ in range(MAX_TRIES):
        events = store.read_stream(stream)
        if any(e.payload.get("seat") == seat for e in events):
            return False
        try:
            store.append(stream, len(events),
                         [NewEvent(type="SeatClaimed", schema_version=1,
                                   payload={"seat": seat})])
            return True
        except ConcurrencyConflict:
            continue
    raise RuntimeError(f"could not claim a seat on {stream}")
