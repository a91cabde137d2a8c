"""Backend-free parts of the store: URLs, errors, hashing and signing, subscriptions."""

from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path
from typing import Any

import pytest

from arbiter_store import (
    AlreadyProcessed,
    ChainBreak,
    ConcurrencyConflict,
    CorruptStore,
    StoredEvent,
    StoreError,
    StreamNotFound,
    Subscription,
    UnsupportedBackend,
    Upcasters,
    open_store,
)
from arbiter_store.anchoring import ANCHOR_KEY_ENV, anchor_key_from_env, sign_anchor
from arbiter_store.integrity import GENESIS_HASH, event_hash
from arbiter_store.location import Location, parse_location, redact
from arbiter_store.model import build_stored_event
from arbiter_store.subscription import EventWaiter


@pytest.mark.parametrize(("url", "expected"), [
    ("games.sqlite", Location("sqlite", "games.sqlite")),
    (Path("/tmp/g.db"), Location("sqlite", "/tmp/g.db")),
    ("sqlite:///rel.db", Location("sqlite", "rel.db")),
    ("sqlite:////abs/x.db", Location("sqlite", "/abs/x.db")),
    (":memory:", Location("sqlite", ":memory:")),
    ("sqlite://", Location("sqlite", ":memory:")),
    ("postgres://u@h/db", Location("postgresql", "postgresql://u@h/db")),
    ("postgresql+psycopg://u@h:5433/db?sslmode=disable",
     Location("postgresql", "postgresql://u@h:5433/db?sslmode=disable")),
])
def test_store_urls(url: str | Path, expected: Location) -> None:
    assert parse_location(url) == expected


def test_bad_urls() -> None:
    with pytest.raises(UnsupportedBackend, match=r"unknown event store URL scheme 'mysql'.*\*\*\*"):
        open_store("mysql://root:hunter2@h/db")
    for bad in ("", "sqlite:///", "sqlite://host/x.db"):
        with pytest.raises(ValueError):
            parse_location(bad)


def test_passwords_are_redacted() -> None:
    assert redact("postgresql://arbiter:s3cret@db:5432/x") == "postgresql://arbiter:***@db:5432/x"
    assert redact("postgresql://arbiter@db/x") == "postgresql://arbiter@db/x"


@pytest.mark.parametrize("error", [ConcurrencyConflict("g", 3, 5), AlreadyProcessed("p", 5, 3),
                                   StreamNotFound("g", "anchor")])
def test_errors_are_picklable_store_errors(error: StoreError) -> None:
    copy = pickle.loads(pickle.dumps(error))
    assert isinstance(copy, type(error)) and isinstance(copy, StoreError)
    assert str(copy) == str(error) and vars(copy) == vars(error)


def test_anchor_key_from_env() -> None:
    assert anchor_key_from_env({ANCHOR_KEY_ENV: "s3cret"}) == b"s3cret"
    with pytest.raises(StoreError, match=ANCHOR_KEY_ENV):
        anchor_key_from_env({})


def test_hashes_frame_every_field() -> None:
    base: list[Any] = [GENESIS_HASH, "g", 1, 1, "T", 1, b"{}", None, b"{}"]
    digest = event_hash(*base)
    assert len(digest) == 64 and digest == event_hash(*base)
    variants = [[*base[:7], "", base[8]], [*base[:1], "g1", 1, *base[3:]],
                [*base[:2], 11, *base[3:]], [*base[:3], 2, *base[4:]],
                [*base[:6], b'{"a":1}', *base[7:]], ["1" * 64, *base[1:]]]
    assert len({event_hash(*variant) for variant in variants} | {digest}) == len(variants) + 1
    signature = sign_anchor(b"k", "g", 1, digest, "2024-01-01T00:00:00+00:00")
    assert signature != sign_anchor(b"k", "g", 2, digest, "2024-01-01T00:00:00+00:00")
    assert signature != sign_anchor(b"k2", "g", 1, digest, "2024-01-01T00:00:00+00:00")
    assert signature == sign_anchor("k", "g", 1, digest, "2024-01-01T00:00:00+00:00")


def test_chain_break_messages() -> None:
    assert str(ChainBreak(None, None, 7, "global position 7 is missing")) == (
        "store (position 7): global position 7 is missing")
    assert str(ChainBreak("g", 2, None, "x")) == "stream 'g' version 2: x"


def stored(position: int) -> StoredEvent:
    return StoredEvent("s", position, position, "T", 1, {}, None, {})


def test_a_gap_in_the_log_stops_a_subscription() -> None:
    log = [stored(1), stored(2), stored(4)]
    subscription = Subscription(lambda start, limit: [e for e in log if e.position >= start],
                                EventWaiter(), from_position=1, batch_size=10,
                                poll_interval=0.01, timeout=0)
    with pytest.raises(CorruptStore, match="gap"):
        list(subscription)
    assert subscription.stopped and list(subscription) == []


def test_upcasters_decorator_form() -> None:
    upcasters = Upcasters()

    @upcasters.register("T", 1)
    def rename(payload: dict[str, Any]) -> dict[str, Any]:
        return {"new": payload["old"]}

    assert rename({"old": 1}) == {"new": 1}
    assert upcasters.upcast("T", 1, {"old": 2}) == (2, {"new": 2})
    assert upcasters.upcast("T", 2, {"new": 3}) == (2, {"new": 3})
    assert upcasters.upcast("Other", 1, {}) == (1, {})


def test_a_stored_event_made_in_code_keeps_its_fields() -> None:
    """Only the store's own setters leave a field pending (encoded bytes, arbiter_store.lazy):
    a bytes value given to the constructor is kept as is, and the fields stay frozen."""
    raw: Any = b'{"a":1}'
    event = StoredEvent("s", 1, 1, "T", 1, raw, None, {})
    assert event.payload is raw and event.metadata == {}
    assert event == StoredEvent("s", 1, 1, "T", 1, raw, None, {})
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.payload = {}  # type: ignore[misc]
    assert dataclasses.replace(event, version=2).payload is raw


def test_the_stores_builder_makes_ordinary_frozen_stored_events() -> None:
    """build_stored_event (an unfrozen twin class that becomes a StoredEvent) gives
    events equal to constructed ones, frozen, pickleable; encoded bytes are pending."""
    built = build_stored_event("s", 1, 2, "T", 3, b'{"a":[1]}', "r", b'{"m":1}')
    made = StoredEvent("s", 1, 2, "T", 3, {"a": [1]}, "r", {"m": 1})
    assert type(built) is StoredEvent and built == made and repr(built) == repr(made)
    assert built.payload is built.payload and pickle.loads(pickle.dumps(built)) == made
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.version = 2  # type: ignore[misc]
