"""The benchmark module runs end to end at a tiny scale (the numbers are not checked:
they depend on the machine), and its rows have the documented shape."""

from __future__ import annotations

from typing import Any

import pytest

from arbiter_store.bench import format_rows, run_store_benchmarks

KEYS = {"backend", "benchmark", "unit", "n", "ours_per_s", "theirs_per_s", "ratio", "theirs"}
BENCHMARKS = {"append 1 event", "append 100-event batch", "append 1 event, 8 threads",
              "read one stream"}


def check_rows(rows: list[dict[str, Any]], backend: str) -> None:
    assert rows and {row["backend"] for row in rows} == {backend}
    assert {row["benchmark"] for row in rows} == BENCHMARKS
    assert len(rows) == 7  # appends against both recorders, reads against one
    for row in rows:
        assert set(row) >= KEYS and row["n"] > 0
        assert row["theirs"] in ("AggregateRecorder", "ApplicationRecorder")
        assert row["ours_per_s"] > 0 and row["theirs_per_s"] > 0
        # ratio = ours / theirs (rounded independently)
        assert row["ratio"] == pytest.approx(row["ours_per_s"] / row["theirs_per_s"],
                                             rel=0.05, abs=0.006)  # rounded to 0.01
        if "threads" in row["benchmark"]:
            assert row["gapless"] is True


def test_sqlite_benchmarks_run() -> None:
    rows = run_store_benchmarks(None, scale=0.05)
    check_rows(rows, "sqlite")
    table = format_rows(rows)
    assert table.splitlines()[0].split()[:2] == ["backend", "benchmark"]
    assert all(benchmark in table for benchmark in BENCHMARKS)


def test_postgres_benchmarks_run_in_a_temporary_schema(pg_url: str) -> None:
    import psycopg

    rows = run_store_benchmarks(pg_url, scale=0.05)
    check_rows([row for row in rows if row["backend"] == "postgresql"], "postgresql")
    check_rows([row for row in rows if row["backend"] == "sqlite"], "sqlite")
    with psycopg.connect(pg_url) as conn:
        left = conn.execute("SELECT count(*) FROM pg_namespace "
                            "WHERE nspname LIKE 'arbiter_bench_%'").fetchone()
    assert left == (0,)  # the benchmark schema was dropped
