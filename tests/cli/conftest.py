"""Fixtures shared by the CLI tests."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest


@pytest.fixture
def foreign(tmp_path: Path) -> list[Path]:
    """Files that are not Arbiter stores: another application's SQLite database, an empty
    file, a text file."""
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (body TEXT)")
        conn.execute("INSERT INTO notes VALUES ('keep me')")
    conn.close()
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    text = tmp_path / "notes.txt"
    text.write_text("just some text\n" * 100)
    return [other, empty, text]
