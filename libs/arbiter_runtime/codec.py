"""Between core events and stored events: the type, schema version and rule are columns;
the rest of the event is the payload.

Two ways to read stored bodies back: `from_bodies`, for our own store (msgspec mirrors of
the events, no re-validation: `fastcodec`), and `validate_bodies`, pydantic's validating
path, for bodies that did not come from our store. Both apply the upcasters.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from arbiter_core.kernel.events import Event, event_from_dict, event_from_json
from arbiter_runtime.fastcodec import Body, decode_trusted
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


def from_bodies(bodies: Iterable[Body], where: str = "stream") -> Iterator[Event]:
    """Decode event bodies read from our own store (`EventStore.read_bodies`): the fast,
    non-validating path (`fastcodec`). Upcast events, and anything the fast path can't
    decode, are validated by pydantic."""
    return decode_trusted(bodies, UPCASTERS, lambda body: validate_body(body, where))


def validate_bodies(bodies: Iterable[Body], where: str = "stream") -> Iterator[Event]:
    """Decode and validate event bodies with pydantic (for bodies we did not store)."""
    for body in bodies:
        yield validate_body(body, where)


def validate_body(body: Body, where: str = "stream") -> Event:
    """One body through pydantic-core's JSON validator (no intermediate dicts): the
    envelope is spliced in front of the payload. Events to upcast take the dict path."""
    type_, version, payload, rule = body
    if (type_, version) in UPCASTERS:
        up_version, data = UPCASTERS.upcast(type_, version, json.loads(payload), where=where)
        return event_from_dict({**data, "type": type_, "v": up_version, "rule": rule})
    head = b'{"type":%s,"v":%d,"rule":%s' % (json.dumps(type_).encode(), version,
                                              json.dumps(rule).encode())
    body_ = payload.strip()
    blob = head + b"}" if body_ == b"{}" else head + b"," + body_[1:]
    return event_from_json(type_, blob)


def from_stored(stored: StoredEvent) -> Event:
    version, payload = UPCASTERS.upcast(stored.type, stored.schema_version,
                                        dict(stored.payload),
                                        where=f"{stored.stream_id} v{stored.version}")
    data: dict[str, Any] = dict(payload)
    data["type"] = stored.type
    data["v"] = version
    data["rule"] = stored.rule
    return event_from_dict(data)
