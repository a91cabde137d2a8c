"""Between core events and stored events: the type, schema version and rule are columns;
the rest of the event is the payload."""

from __future__ import annotations

from typing import Any

from arbiter_core.events import Event, event_from_dict
from arbiter_store import NewEvent, StoredEvent, Upcasters

_ENVELOPE = {"type", "v", "rule"}

# Event schema changes: each upcaster turns a stored payload of (type, version) into the
# next version's. Stored bytes never change; events are upcast as they are read.
UPCASTERS = Upcasters()


@UPCASTERS.register("StateCheckpointed", 1)
def _checkpoint_v1(payload: dict[str, Any]) -> dict[str, Any]:
    """v1 checkpoints hashed the canonical JSON of the state."""
    return {**payload, "algorithm": "json-sha256"}


def to_new_event(event: Event, metadata: dict[str, Any] | None = None) -> NewEvent:
    payload = event.model_dump(mode="json", exclude=_ENVELOPE)
    return NewEvent(type=event.type, schema_version=event.v, payload=payload,
                    rule=event.rule, metadata=metadata or {})


def from_stored(stored: StoredEvent) -> Event:
    version, payload = UPCASTERS.upcast(stored.type, stored.schema_version,
                                        dict(stored.payload),
                                        where=f"{stored.stream_id} v{stored.version}")
    data: dict[str, Any] = dict(payload)
    data["type"] = stored.type
    data["v"] = version
    data["rule"] = stored.rule
    return event_from_dict(data)
