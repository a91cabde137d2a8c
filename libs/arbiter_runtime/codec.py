"""Between core events and stored events: the type, schema version and rule are columns;
the rest of the event is the payload."""

from __future__ import annotations

from typing import Any

from arbiter_core.events import Event, event_from_dict
from arbiter_store import NewEvent, StoredEvent

_ENVELOPE = {"type", "v", "rule"}


def to_new_event(event: Event, metadata: dict[str, Any] | None = None) -> NewEvent:
    payload = event.model_dump(mode="json", exclude=_ENVELOPE)
    return NewEvent(type=event.type, schema_version=event.v, payload=payload,
                    rule=event.rule, metadata=metadata or {})


def from_stored(stored: StoredEvent) -> Event:
    data: dict[str, Any] = dict(stored.payload)
    data["type"] = stored.type
    data["v"] = stored.schema_version
    data["rule"] = stored.rule
    return event_from_dict(data)
