"""Contract: tamper evidence.  Each test damages the store with raw SQL, as an attacker
with database access would, and checks that :meth:`EventStore.verify` finds it."""

from __future__ import annotations

from typing import Any

import pytest

from arbiter_store import EventStore, NewEvent, StreamNotFound
from arbiter_store.anchoring import sign_anchor
from arbiter_store.integrity import GENESIS_HASH, RawEvent, event_hash, row_hash

from .contract import ContractBase, RawSQL, ev

KEY = b"test anchor key"
ROW = "stream_id, version, position, type, schema_version, payload, rule, metadata, hash"


def two_games(store: EventStore) -> None:
    """g@1 p1, g@2 p2, h@1 p3, g@3 p4, h@2 p5, g@4 p6 (the last event of the log)."""
    store.append("g", 0, [NewEvent("Happened", 1, {"n": 1}, "100.1", {"actor": "a"}), ev(2)])
    store.append("h", 0, [ev(3)])
    store.append("g", 2, [ev(4)])
    store.append("h", 1, [ev(5)])
    store.append("g", 3, [ev(6)])


def raw_rows(raw: RawSQL, stream_id: str) -> list[RawEvent]:
    rows = raw(f"SELECT {ROW} FROM events WHERE stream_id = ? ORDER BY version", stream_id)
    return [RawEvent(r[0], r[1], r[2], r[3], r[4], bytes(r[5]), r[6], bytes(r[7]), r[8])
            for r in rows]


def swap(raw: RawSQL, column: str, where: str, a: Any, b: Any) -> None:
    """Swap the ``column`` values of the rows where ``where`` is ``a`` / ``b``."""
    raw(f"UPDATE events SET {column} = 999999 WHERE {where} = ?", a)
    raw(f"UPDATE events SET {column} = ? WHERE {where} = ?", a, b)
    raw(f"UPDATE events SET {column} = ? WHERE {column} = 999999", b)


def problems(store: EventStore, **kwargs: Any) -> list[tuple[str | None, int | None, str]]:
    report = store.verify(**kwargs)
    assert not report.ok and report.first_problem == report.problems[0]
    return [(p.stream_id, p.version, p.reason) for p in report.problems]


class IntegrityContract(ContractBase):
    def test_an_untouched_store_verifies(self, store: EventStore, raw: RawSQL) -> None:
        assert store.verify().ok
        two_games(store)
        report = store.verify(anchor_key=KEY)
        assert report.ok and bool(report) and report.first_problem is None
        assert (report.streams, report.events, report.anchors) == (2, 6, 0)
        assert store.verify("g").events == 4 and store.verify("missing").ok
        first = raw_rows(raw, "g")[0]
        assert first.hash == event_hash(GENESIS_HASH, "g", 1, 1, "Happened", 1, b'{"n":1}',
                                        "100.1", b'{"actor":"a"}')
        assert all(row.hash == row_hash(prev.hash, row) for prev, row in
                   zip(raw_rows(raw, "g"), raw_rows(raw, "g")[1:], strict=False))

    @pytest.mark.parametrize(("column", "value"), [
        ("payload", b'{"n":666}'), ("metadata", b'{"actor":"mallory"}'), ("type", "Other"),
        ("rule", "999.9"), ("schema_version", 2)])
    def test_editing_an_event_is_detected(self, store: EventStore, raw: RawSQL,
                                          column: str, value: Any) -> None:
        two_games(store)
        raw(f"UPDATE events SET {column} = ? WHERE stream_id = 'g' AND version = 2", value)
        report = store.verify()
        assert [(p.stream_id, p.version, p.position) for p in report.problems] == [("g", 2, 2)]
        assert "hash mismatch" in report.problems[0].reason
        assert "stream 'g' version 2 (position 2): hash mismatch" in str(report.problems[0])
        assert store.verify("h").ok and not store.verify("g").ok

    def test_deleting_an_event_is_detected(self, store: EventStore, raw: RawSQL) -> None:
        two_games(store)
        raw("DELETE FROM events WHERE stream_id = 'g' AND version = 2")
        found = problems(store)
        assert found[0][:2] == ("g", 2) and "found version 3" in found[0][2]
        assert found[1] == (None, None, "global position 2 is missing")

    def test_deleting_a_last_event_is_detected(self, store: EventStore, raw: RawSQL) -> None:
        two_games(store)
        raw("DELETE FROM events WHERE stream_id = 'h' AND version = 2")
        found = problems(store)
        assert found[0][:2] == ("h", 1) and "stream record says version 2" in found[0][2]
        assert found[1] == (None, None, "global position 5 is missing")

    def test_a_careful_deletion_of_the_last_event_breaks_the_anchor(
        self, store: EventStore, raw: RawSQL
    ) -> None:
        two_games(store)
        store.anchor("g", KEY)
        # Remove g@4 (the log's last event) and fix up the stream record to match.
        ((head,),) = raw("SELECT hash FROM events WHERE stream_id = 'g' AND version = 3")
        raw("DELETE FROM events WHERE stream_id = 'g' AND version = 4")
        raw("UPDATE streams SET version = 3, head_hash = ? WHERE stream_id = 'g'", head)
        for kwargs in ({}, {"anchor_key": KEY}):
            found = problems(store, **kwargs)
            assert found[0] == ("g", 4, "version 4 was anchored but the stream ends at "
                                        "version 3: events were deleted")

    def test_reordering_versions_is_detected(self, store: EventStore, raw: RawSQL) -> None:
        two_games(store)
        raw("UPDATE events SET version = 999999 WHERE stream_id = 'g' AND version = 2")
        raw("UPDATE events SET version = 2 WHERE stream_id = 'g' AND version = 3")
        raw("UPDATE events SET version = 3 WHERE stream_id = 'g' AND version = 999999")
        assert problems(store)[0][:2] == ("g", 2)

    def test_reordering_positions_is_detected(self, store: EventStore, raw: RawSQL) -> None:
        two_games(store)
        swap(raw, "position", "position", 4, 5)  # g@3 and h@2 trade places in the log
        assert [found[:2] for found in problems(store)] == [("g", 3), ("h", 2)]
        swap(raw, "position", "position", 4, 5)  # back: all good again
        assert store.verify().ok
        swap(raw, "position", "position", 1, 2)  # g@1 after g@2
        found = problems(store)
        assert found[0][:2] == ("g", 1)

    def test_a_rewritten_chain_and_a_forged_anchor_are_detected(
        self, store: EventStore, raw: RawSQL
    ) -> None:
        two_games(store)
        store.anchor("g", KEY)
        # Edit g@2 and recompute every later hash and the stream head: a valid chain.
        prev = GENESIS_HASH
        for row in raw_rows(raw, "g"):
            if row.version == 2:
                row = row._replace(payload=b'{"n":666}')
            prev = row_hash(prev, row)
            raw("UPDATE events SET payload = ?, hash = ? WHERE position = ?",
                row.payload, prev, row.position)
        raw("UPDATE streams SET head_hash = ? WHERE stream_id = 'g'", prev)
        assert problems(store) == [("g", 4, "the hash of version 4 differs from its anchor: "
                                            "the chain was rewritten")]
        # Re-sign the anchor without the key: only a verifier with the key notices.
        ((created,),) = raw("SELECT created FROM anchors WHERE stream_id = 'g'")
        forged = sign_anchor(b"guessed key", "g", 4, prev, created)
        raw("UPDATE anchors SET head_hash = ?, signature = ? WHERE stream_id = 'g'", prev, forged)
        found = problems(store, anchor_key=KEY)
        assert found[0][:2] == ("g", 4) and "invalid signature" in found[0][2]
        unsigned = store.verify()
        assert unsigned.ok and not unsigned.signatures_checked

    def test_anchors(self, store: EventStore, raw: RawSQL) -> None:
        with pytest.raises(StreamNotFound, match="'g' has no events"):
            store.anchor("g", KEY)
        two_games(store)
        first = store.anchor("g", KEY)
        assert (first.stream_id, first.version) == ("g", 4)
        assert first.head_hash == raw_rows(raw, "g")[-1].hash
        store.append("g", 4, [ev(7)])
        second = store.anchor("g", KEY.decode())  # str keys are encoded as UTF-8
        assert store.anchors("g") == [first, second] and second.version == 5
        assert store.anchors("h") == []
        report = store.verify(anchor_key=KEY)
        assert report.ok and report.signatures_checked and report.anchors == 2
        found = problems(store, anchor_key=b"another key")
        assert found[0][:2] == ("g", 4) and "invalid signature" in found[0][2]
        with pytest.raises(ValueError, match="anchor key"):
            store.anchor("g", b"")
