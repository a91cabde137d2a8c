"""Parsing store URLs (shared by :func:`arbiter_store.open_store` and the migrations)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Literal

from .errors import UnsupportedBackend

__all__ = ["Location", "parse_location", "redact"]

_SCHEME = re.compile(r"^(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]*)://")
_POSTGRES_SCHEMES = frozenset({"postgres", "postgresql", "postgresql+psycopg"})
_PASSWORD = re.compile(r"(?P<head>://[^:/@]*:)[^@/]*@")


@dataclass(frozen=True, slots=True)
class Location:
    """``backend`` and its ``target``: a SQLite path (or ``":memory:"``), or a libpq
    connection URL."""

    backend: Literal["sqlite", "postgresql"]
    target: str


def parse_location(url: str | os.PathLike[str]) -> Location:
    """Classify a store URL.

    * a filesystem path (``"arbiter.sqlite"``, ``Path(...)``) -> SQLite file;
    * ``"sqlite:///relative.db"`` / ``"sqlite:////abs/path.db"`` (SQLAlchemy
      convention: the path is everything after ``sqlite:///``) -> SQLite file;
    * ``":memory:"``, ``"sqlite://"`` or ``"sqlite:///:memory:"`` -> private
      in-memory SQLite store;
    * ``"postgresql://..."`` / ``"postgres://..."`` / ``"postgresql+psycopg://..."``
      -> PostgreSQL (a libpq URL, e.g. ``postgresql://user@host:5432/db``; add
      ``?options=-csearch_path%3Dmyschema`` to use a schema other than ``public``).
    """
    text = os.fspath(url)
    match = _SCHEME.match(text)
    if match is None:
        if not text:
            raise ValueError("store URL must not be empty")
        return Location("sqlite", text)
    scheme = match["scheme"].lower()
    if scheme == "sqlite":
        rest = text[match.end() :]
        if rest in ("", "/:memory:"):
            return Location("sqlite", ":memory:")
        if not rest.startswith("/") or len(rest) == 1:
            raise ValueError(f"SQLite URLs look like 'sqlite:///path/to/file.db', got {text!r}")
        return Location("sqlite", rest[1:])
    if scheme in _POSTGRES_SCHEMES:
        return Location("postgresql", "postgresql://" + text[match.end() :])
    raise UnsupportedBackend(f"unknown event store URL scheme {scheme!r} in {redact(text)!r}")


def redact(url: str) -> str:
    """``url`` with any password replaced by ``***`` (for error messages)."""
    return _PASSWORD.sub(r"\g<head>***@", url)
