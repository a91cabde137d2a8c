"""Contract: the tamper cases of issue 14 that the basic chain let through, each done
with raw SQL as someone with write access to the database would, on every backend.

Each case says what ``verify`` reports with the anchor key and without it (where the
store cannot know, ``strict_ok`` is false and a note says what is not covered).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest

from arbiter_store import EventStore, NewEvent, open_store
from arbiter_store.integrity import GENESIS_HASH, row_hash

from .contract import ContractBase, RawSQL, ev
from .contract_integrity import KEY, raw_rows


def moves(store: EventStore, game: str = "g", count: int = 7) -> None:
    """``count`` events of ``game``, one append each, with the command id in the first
    event's metadata (as the services record it)."""
    for n in range(count):
        store.append(game, n, [NewEvent("Moved", 1, {"n": n}, None, {"command_id": f"c{n}"})],
                     command_id=f"c{n}")


def reasons(report_problems: tuple[object, ...]) -> list[str]:
    return [str(p) for p in report_problems]


class TamperContract(ContractBase):
    @pytest.fixture
    def keyed(self, store_url: str) -> Iterator[EventStore]:
        """A store object that signs (what the services and `arbiter play` open with a
        key), anchoring every 3 events."""
        with open_store(store_url, anchor_key=KEY, anchor_every=3) as store:
            yield store

    def test_anchors_are_made_every_n_events_and_chained(self, keyed: EventStore) -> None:
        moves(keyed, count=7)
        keyed.append("g", 7, [ev(7), ev(8), ev(9), ev(10), ev(11), ev(12), ev(13)])  # to 14
        final = keyed.anchor("g", final=True)
        anchors = [(a.version, a.prev_version, a.final) for a in keyed.anchors("g")]
        assert anchors == [(3, 0, False), (6, 3, False), (9, 6, False), (12, 9, False),
                           (14, 12, True)]
        assert final.final and keyed.anchor("g", final=True) == final  # stored once
        report = keyed.verify(anchor_key=KEY)
        assert report.ok and report.strict_ok and report.anchors == 5, report

    def test_a_game_ending_on_a_periodic_anchor_still_gets_its_final_one(
        self, keyed: EventStore
    ) -> None:
        moves(keyed, count=6)
        keyed.anchor("g", final=True)
        assert [(a.version, a.final) for a in keyed.anchors("g")] == [
            (3, False), (6, False), (6, True)]
        assert keyed.verify(anchor_key=KEY).strict_ok

    def test_deleting_the_last_event_and_fixing_the_stream_record(
        self, keyed: EventStore, raw: RawSQL
    ) -> None:
        moves(keyed, count=7)
        keyed.anchor("g", final=True)
        ((head,),) = raw("SELECT hash FROM events WHERE stream_id = 'g' AND version = 6")
        raw("DELETE FROM commands WHERE stream_id = 'g' AND command_id = 'c6'")
        raw("DELETE FROM events WHERE stream_id = 'g' AND version = 7")
        raw("UPDATE streams SET version = 6, head_hash = ? WHERE stream_id = 'g'", head)
        _fix_counter(raw)
        for key in (KEY, None):
            found = reasons(keyed.verify(anchor_key=key).problems)
            assert found == ["stream 'g' version 7: version 7 was anchored but the stream "
                             "ends at version 6: events were deleted"], found
        # ... and the final anchor removed too: not broken, but no longer covered
        raw("DELETE FROM anchors WHERE stream_id = 'g' AND final = ?", True)
        report = keyed.verify(anchor_key=KEY)
        assert report.ok and not report.strict_ok

    def test_an_unanchored_game_is_not_strictly_verified(self, store: EventStore) -> None:
        moves(store, count=2)
        report = store.verify(anchor_key=KEY)
        assert report.ok and not report.strict_ok
        assert any("not anchored" in n.reason for n in report.notes)
        unsigned = store.verify()
        assert not unsigned.strict_ok and any("signatures not checked" in n.reason
                                              for n in unsigned.notes)

    def test_a_rewritten_game_with_its_chain_recomputed(
        self, keyed: EventStore, raw: RawSQL
    ) -> None:
        moves(keyed, count=4)
        keyed.anchor("g", final=True)
        prev = GENESIS_HASH
        for row in raw_rows(raw, "g"):
            if row.version == 2:
                row = row._replace(payload=b'{"n":666}')
            prev = row_hash(prev, row)
            raw("UPDATE events SET payload = ?, hash = ? WHERE position = ?",
                row.payload, prev, row.position)
            raw("UPDATE anchors SET head_hash = ? WHERE stream_id = 'g' AND version = ?",
                prev, row.version)
        raw("UPDATE streams SET head_hash = ? WHERE stream_id = 'g'", prev)
        found = reasons(keyed.verify(anchor_key=KEY).problems)
        assert found == ["stream 'g' version 3: the anchor at version 3 has an invalid "
                         "signature (forged, altered, or signed with another key)"], found
        unsigned = keyed.verify()  # no key: nothing can tell; it says so
        assert unsigned.ok and not unsigned.strict_ok and not unsigned.signatures_checked

    def test_deleting_an_anchor(self, keyed: EventStore, raw: RawSQL) -> None:
        moves(keyed, count=7)
        keyed.anchor("g", final=True)
        raw("DELETE FROM anchors WHERE stream_id = 'g' AND version = 6")
        found = reasons(keyed.verify(anchor_key=KEY).problems)
        assert found == ["stream 'g' version 7: the anchor at version 7 follows an anchor "
                         "at version 6, which is missing: an anchor was deleted"], found
        raw("DELETE FROM anchors WHERE stream_id = 'g'")  # every anchor: not covered
        report = keyed.verify(anchor_key=KEY)
        assert report.ok and not report.strict_ok
        assert next(n.reason for n in report.notes if n.stream_id == "g").startswith(
            "not anchored")

    def test_an_event_appended_after_the_final_anchor(self, keyed: EventStore) -> None:
        moves(keyed, count=4)
        keyed.anchor("g", final=True)
        keyed.append("g", 4, [ev(99)])  # correctly chained, as any writer can append
        for key in (KEY, None):
            found = reasons(keyed.verify(anchor_key=key).problems)
            assert found == ["stream 'g' version 5: 1 event(s) follow the final anchor at "
                             "version 4: events were appended after the game was closed"]

    def test_editing_a_snapshot(self, keyed: EventStore, raw: RawSQL) -> None:
        moves(keyed, count=4)
        keyed.save_snapshot("g", 2, b"state at 2", "h2")
        keyed.save_snapshot("g", 4, b"state at 4", "h4")
        assert keyed.verify(anchor_key=KEY).ok
        raw("UPDATE snapshots SET state = ?, state_hash = ? WHERE version = 4",
            b"987 life", "recomputed")
        found = reasons(keyed.verify(anchor_key=KEY).problems)
        assert found == ["stream 'g' version 4: the snapshot at version 4 has an invalid "
                         "seal: its state or state hash was altered (or it was signed "
                         "with another key)"], found
        loaded = keyed.load_snapshot("g")  # the forgery is not loaded: the older one is
        assert loaded is not None and loaded.version == 2 and loaded.state == b"state at 2"
        ((chain,),) = raw("SELECT hash FROM events WHERE stream_id = 'g' AND version = 1")
        raw("UPDATE snapshots SET head_hash = ? WHERE version = 2", chain)
        found = reasons(keyed.verify().problems)
        assert found == ["stream 'g' version 2: the snapshot at version 2 was not taken of "
                         "this chain (its head hash differs): the snapshot or the chain "
                         "was rewritten"], found
        assert keyed.load_snapshot("g") is None

    def test_a_snapshot_is_bound_to_the_chain_without_a_key(
        self, store: EventStore, raw: RawSQL
    ) -> None:
        moves(store, count=3)
        saved = store.save_snapshot("g", 3, b"three", "h3")
        ((chain,),) = raw("SELECT hash FROM events WHERE stream_id = 'g' AND version = 3")
        assert saved.head_hash == chain and saved.signature is None
        assert store.load_snapshot("g") == saved
        raw("UPDATE snapshots SET head_hash = ? WHERE version = 3", GENESIS_HASH)
        assert store.load_snapshot("g") is None and not store.verify().ok
        with open_store(self._url(store), anchor_key=KEY) as keyed:  # unsigned: not loaded
            raw("UPDATE snapshots SET head_hash = ? WHERE version = 3", chain)
            assert keyed.load_snapshot("g") is None and store.load_snapshot("g") is not None
            assert any("unsigned" in n.reason for n in keyed.verify(anchor_key=KEY).notes)

    @pytest.mark.parametrize(("statement", "expected"), [
        ("UPDATE commands SET command_id = 'c9' WHERE command_id = 'c1'",
         "the commands record of 'c9' (versions 2-2) does not match the chain: those "
         "events were appended for 'c1'"),
        ("UPDATE commands SET last_version = 9 WHERE command_id = 'c1'",
         "the commands record of 'c1' (versions 2-9) lies outside the stream's versions 1-3"),
        ("UPDATE commands SET first_version = 3, last_version = 3 WHERE command_id = 'c1'",
         "the commands record of 'c2' (versions 3-3) overlaps another command's versions"),
        ("INSERT INTO commands (stream_id, command_id, first_version, last_version) "
         "VALUES ('g', 'a-future-command', 3, 3)",  # would make that command a no-op
         "the commands record of 'a-future-command' (versions 3-3) does not match the "
         "chain: those events were appended for 'c2'"),
    ])
    def test_editing_the_commands_table(self, store: EventStore, raw: RawSQL,
                                        statement: str, expected: str) -> None:
        moves(store, count=3)
        assert store.verify().ok and store.verify().commands == 3
        raw(statement)
        found = reasons(store.verify().problems)
        assert any(problem.endswith(expected) for problem in found), found

    def _url(self, store: EventStore) -> str:
        return str(getattr(store, "_url", None) or getattr(store, "path"))  # noqa: B009


def _fix_counter(raw: RawSQL) -> None:
    """Where the backend keeps a position counter (PostgreSQL), the careful deleter
    fixes it too (the counter alone: test_postgres_security)."""
    with contextlib.suppress(Exception):  # SQLite: no counter table
        raw("UPDATE log_position SET last_position = last_position - 1")
