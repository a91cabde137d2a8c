"""Between core events and stored events: the type, schema version and rule are columns;
the rest of the event is the payload."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from arbiter_core.events import EVENT_ADAPTER, Event, event_from_dict
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


def from_bodies(bodies: Iterable[tuple[str, int, bytes, str | None]],
                where: str = "stream") -> Iterator[Event]:
    """Decode stored event bodies straight from their JSON bytes (pydantic-core's JSON
    validator, no intermediate dicts): the envelope is spliced in front of the payload.
    Events that need upcasting take the dict path."""
    for type_, version, payload, rule in bodies:
        if (type_, version) in UPCASTERS:
            up_version, data = UPCASTERS.upcast(type_, version, json.loads(payload),
                                                where=where)
            yield event_from_dict({**data, "type": type_, "v": up_version, "rule": rule})
            continue
        head = b'{"type":%s,"v":%d,"rule":%s' % (json.dumps(type_).encode(), version,
                                                  json.dumps(rule).encode())
        body = payload.strip()
        blob = head + b"}" if body == b"{}" else head + b"," + body[1:]
        yield EVENT_ADAPTER.validate_json(blob)


def from_stored(stored: StoredEvent) -> Event:
    version, payload = UPCASTERS.upcast(stored.type, stored.schema_version,
                                        dict(stored.payload),
                                        where=f"{stored.stream_id} v{stored.version}")
    data: dict[str, Any] = dict(payload)
    data["type"] = stored.type
    data["v"] = version
    data["rule"] = stored.rule
    return event_from_dict(data)
