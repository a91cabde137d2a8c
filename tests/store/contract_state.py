"""Contract: opaque snapshots, and upcasters applied on read (stored bytes unchanged)."""

from __future__ import annotations

from typing import Any

import pytest

from arbiter_store import (
    EventStore,
    InvalidSnapshot,
    NewEvent,
    UpcastError,
    Upcasters,
)

from .contract import ContractBase, Opener, RawSQL, ev


class SnapshotContract(ContractBase):
    def test_latest_snapshot_at_or_below_a_version(self, store: EventStore) -> None:
        store.append("g", 0, [ev(n) for n in range(6)])
        assert store.load_snapshot("g") is None
        state = bytes(range(256))  # arbitrary bytes, not text
        store.save_snapshot("g", 2, b"two", "h2")
        saved = store.save_snapshot("g", 5, state, "h5")
        loaded = store.load_snapshot("g")
        assert loaded == saved and loaded.state == state and loaded.state_hash == "h5"
        assert (loaded.stream_id, loaded.version) == ("g", 5)
        at_four = store.load_snapshot("g", max_version=4)
        assert at_four is not None and (at_four.version, at_four.state) == (2, b"two")
        assert store.load_snapshot("g", max_version=1) is None
        assert store.load_snapshot("other") is None

    def test_saving_a_version_again_replaces_it(self, store: EventStore) -> None:
        store.append("g", 0, [ev(1), ev(2)])
        store.save_snapshot("g", 2, b"old", "h-old")
        store.save_snapshot("g", 2, b"new", "h-new")
        loaded = store.load_snapshot("g")
        assert loaded is not None and (loaded.state, loaded.state_hash) == (b"new", "h-new")

    def test_a_snapshot_ahead_of_the_stream_is_refused(self, store: EventStore) -> None:
        store.append("g", 0, [ev(1)])
        with pytest.raises(InvalidSnapshot, match="version 1"):
            store.save_snapshot("g", 2, b"x", "h")
        with pytest.raises(InvalidSnapshot, match="'missing'"):
            store.save_snapshot("missing", 1, b"x", "h")
        assert store.load_snapshot("g") is None

    def test_invalid_snapshot_arguments(self, store: EventStore) -> None:
        store.append("g", 0, [ev(1)])
        with pytest.raises(ValueError):
            store.save_snapshot("g", 0, b"x", "h")
        with pytest.raises(TypeError):
            store.save_snapshot("g", 1, "text", "h")  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            store.save_snapshot("g", 1, b"x", "")
        with pytest.raises(ValueError):
            store.load_snapshot("g", max_version=-1)

    def test_keep_leaves_the_newest_snapshots(self, store: EventStore) -> None:
        store.append("g", 0, [ev(n) for n in range(10)])
        store.append("h", 0, [ev(1), ev(2)])
        store.save_snapshot("h", 1, b"h1", "hh1")  # another stream's: untouched
        for version in (2, 4, 6, 8, 10):
            store.save_snapshot("g", version, f"s{version}".encode(), f"h{version}", keep=2)
        kept = [store.load_snapshot("g", v) for v in range(11)]
        assert [s.version if s else None for s in kept] == [None] * 8 + [8, 8, 10]
        newest = store.load_snapshot("g")
        assert newest is not None and (newest.state, newest.state_hash) == (b"s10", "h10")
        # a pruned version falls back to the newest older one kept, else None
        assert store.load_snapshot("g", max_version=7) is None
        at_nine = store.load_snapshot("g", max_version=9)
        assert at_nine is not None and (at_nine.version, at_nine.state) == (8, b"s8")
        h = store.load_snapshot("h")
        assert h is not None and h.version == 1
        # saving a kept version again replaces it and prunes nothing more
        store.save_snapshot("g", 10, b"again", "h10b", keep=2)
        assert [s.version if s else None for s in (store.load_snapshot("g", 8),
                                                    store.load_snapshot("g"))] == [8, 10]

    def test_keep_one_and_keep_none(self, store: EventStore) -> None:
        store.append("g", 0, [ev(n) for n in range(5)])
        for version in range(1, 5):
            store.save_snapshot("g", version, b"x", f"h{version}")  # keep=None: all kept
        assert [s.version if s else None for s in
                (store.load_snapshot("g", v) for v in range(1, 5))] == [1, 2, 3, 4]
        store.save_snapshot("g", 5, b"five", "h5", keep=1)
        assert store.load_snapshot("g", max_version=4) is None
        five = store.load_snapshot("g")
        assert five is not None and five.version == 5

    def test_keep_below_one_is_refused(self, store: EventStore) -> None:
        store.append("g", 0, [ev(1), ev(2)])
        store.save_snapshot("g", 1, b"one", "h1")
        for keep in (0, -1, True, 1.5):
            with pytest.raises(ValueError, match="keep"):
                store.save_snapshot("g", 2, b"x", "h", keep=keep)  # type: ignore[arg-type]
        one = store.load_snapshot("g")
        assert one is not None and one.version == 1  # nothing saved, nothing pruned


def _split_name(payload: dict[str, Any]) -> dict[str, Any]:
    first, _, last = payload.pop("name").partition(" ")
    return {**payload, "first_name": first, "last_name": last}


def _name_upcasters() -> Upcasters:
    upcasters = Upcasters()
    upcasters.register("PlayerJoined", 1, _split_name)  # v1 {name} -> v2 {first, last}
    return upcasters


def joined_v1(name: str, seat: int) -> NewEvent:
    return NewEvent("PlayerJoined", 1, {"name": name, "seat": seat})


class UpcasterContract(ContractBase):
    def test_old_events_are_read_in_the_new_shape(
        self, store: EventStore, open_other: Opener, raw: RawSQL
    ) -> None:
        written = store.append("g", 0, [joined_v1("Ada Lovelace", 1), ev(2),
                                        NewEvent("PlayerJoined", 2, {"first_name": "Alan",
                                                 "last_name": "Turing", "seat": 2})])
        reader = open_other(upcasters=_name_upcasters())
        first, other, modern = reader.read_stream("g")
        assert (first.type, first.schema_version) == ("PlayerJoined", 2)
        assert first.payload == {"first_name": "Ada", "last_name": "Lovelace", "seat": 1}
        assert other == written[1] and modern == written[2]
        assert reader.read_all() == [first, other, modern]
        assert reader.verify().ok  # the stored bytes and their hashes are unchanged
        assert store.read_stream("g") == written  # a store without upcasters: as written
        ((payload, schema_version),) = raw(
            "SELECT payload, schema_version FROM events WHERE position = ?", 1)
        assert (bytes(payload), schema_version) == (b'{"name":"Ada Lovelace","seat":1}', 1)

    def test_append_and_command_replay_return_upcast_events(self, open_other: Opener) -> None:
        store = open_other(upcasters=_name_upcasters())
        (stored,) = store.append("g", 0, [joined_v1("Grace Hopper", 3)], command_id="c")
        assert stored.schema_version == 2 and stored.payload["last_name"] == "Hopper"
        assert store.append("g", 0, [joined_v1("x", 0)], command_id="c") == [stored]
        assert store.read_stream("g") == [stored]

    def test_upcasters_chain(self, open_other: Opener) -> None:
        upcasters = _name_upcasters()

        @upcasters.register("PlayerJoined", 2)
        def add_team(payload: dict[str, Any]) -> dict[str, Any]:
            return {**payload, "team": None}

        open_other().append("g", 0, [joined_v1("Ada Lovelace", 1)])
        (event,) = open_other(upcasters=upcasters).read_all()
        assert event.schema_version == 3
        assert event.payload == {"first_name": "Ada", "last_name": "Lovelace", "seat": 1,
                                 "team": None}

    def test_a_failing_upcaster_is_a_store_error(self, open_other: Opener) -> None:
        open_other().append("g", 0, [NewEvent("PlayerJoined", 1, {"seat": 1})])  # no name
        with pytest.raises(UpcastError, match=r"'PlayerJoined' v1 failed on event 'g'@1"):
            open_other(upcasters=_name_upcasters()).read_all()
        bad = Upcasters()
        bad.register("PlayerJoined", 1, lambda payload: None)  # type: ignore[arg-type,return-value]
        with pytest.raises(UpcastError, match="not a payload dict"):
            open_other(upcasters=bad).read_stream("g")

    def test_registry_rejects_duplicates_and_bad_keys(self) -> None:
        upcasters = _name_upcasters()
        assert ("PlayerJoined", 1) in upcasters and len(upcasters) == 1
        with pytest.raises(ValueError, match="already registered"):
            upcasters.register("PlayerJoined", 1, _split_name)
        for type_, version in [("", 1), ("T", 0)]:
            with pytest.raises(ValueError):
                upcasters.register(type_, version, _split_name)
