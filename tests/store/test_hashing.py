"""The hash chain computed in two parts (the position-independent frames before any
lock, then the links once the positions are known) equals the reference formula that
``verify`` recomputes, for any stream, versions, positions and field contents."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbiter_store.integrity import (
    GENESIS_HASH,
    EncodedEvent,
    RawEvent,
    chain_rows,
    event_hash,
    hash_parts,
    link,
)

texts = st.text(st.characters(codec="utf-8"), max_size=12)
events = st.builds(EncodedEvent, texts, st.integers(1, 10**6), st.binary(max_size=64),
                   st.none() | texts, st.binary(max_size=16))


@given(stream_id=texts, expected=st.integers(0, 10**12), base=st.integers(0, 10**15),
       prev=st.sampled_from([GENESIS_HASH, "ab" * 32]),
       batch=st.lists(events, min_size=1, max_size=6))
def test_split_hashing_is_the_reference_chain(stream_id: str, expected: int, base: int,
                                              prev: str, batch: list[EncodedEvent]) -> None:
    hashes = link(prev, base, hash_parts(stream_id, expected, batch), batch)
    reference, head = [], prev
    for offset, e in enumerate(batch, start=1):
        head = event_hash(head, stream_id, expected + offset, base + offset, e.type,
                          e.schema_version, e.payload, e.rule, e.metadata)
        reference.append(head)
    assert hashes == reference


@settings(suppress_health_check=[HealthCheck.too_slow])  # 4 KiB blobs: slow under load
@given(stream_id=texts, expected=st.integers(0, 10**12), base=st.integers(0, 10**15),
       prev=st.sampled_from([GENESIS_HASH, "ab" * 32]),
       batch=st.lists(events | st.builds(EncodedEvent, texts, st.integers(1, 3),
                                         st.binary(min_size=4090, max_size=4200),
                                         st.none(), st.binary(min_size=4090, max_size=4100)),
                      min_size=1, max_size=6))
def test_one_pass_chain_rows_are_the_reference_chain(
        stream_id: str, expected: int, base: int, prev: str,
        batch: list[EncodedEvent]) -> None:
    """chain_rows (SQLite: hashing where it inserts) gives the same rows and hashes,
    also for payloads and metadata past its table of precomputed lengths."""
    values, last = chain_rows(prev, stream_id, expected, base, batch)
    rows = [RawEvent(*values[i:i + 9]) for i in range(0, len(values), 9)]
    head = prev
    for offset, (e, row) in enumerate(zip(batch, rows, strict=True), start=1):
        head = event_hash(head, stream_id, expected + offset, base + offset, e.type,
                          e.schema_version, e.payload, e.rule, e.metadata)
        assert row == RawEvent(stream_id, expected + offset, base + offset, e.type,
                               e.schema_version, e.payload, e.rule, e.metadata, head)
    assert len(rows) == len(batch) and last == head
