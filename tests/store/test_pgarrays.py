"""Arrays packed in PostgreSQL's binary format read back as the values packed."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from arbiter_store.pgarrays import Packed, bigints, byteas, integers, register, texts

CASES: list[tuple[str, Packed, list[Any]]] = [
    ("text[]", texts(["a", "", None, "é-☃", "x" * 300]), ["a", "", None, "é-☃", "x" * 300]),
    ("text[]", texts([None]), [None]),
    ("bytea[]", byteas([b"", b"\x00\xff", b"{}" * 500]), [b"", b"\x00\xff", b"{}" * 500]),
    ("bigint[]", bigints([0, -1, 2**63 - 1, None, -(2**63)]), [0, -1, 2**63 - 1, None, -(2**63)]),
    ("integer[]", integers([1, 2**31 - 1, -(2**31)]), [1, 2**31 - 1, -(2**31)]),
]


@pytest.mark.parametrize(("kind", "packed", "expected"), CASES)
def test_packed_arrays_read_back(pg_url: str, kind: str, packed: Packed,
                                 expected: list[Any]) -> None:
    with psycopg.connect(pg_url) as conn:
        register(conn)
        row = conn.execute(f"SELECT %b::{kind}, cardinality(%b::{kind})",
                           (packed, packed)).fetchone()
    assert row is not None and row[0] == expected and row[1] == len(expected)
