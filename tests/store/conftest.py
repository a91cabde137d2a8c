"""PostgreSQL fixtures: every test store lives in a fresh schema of the test database.

``ARBITER_TEST_PG_URL`` (default ``postgresql://postgres@127.0.0.1:5432/test``) names
the server.  If it cannot be reached the PostgreSQL tests are skipped, except under CI
(``CI`` set), where they fail.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator

import pytest

DEFAULT_PG_URL = "postgresql://postgres@127.0.0.1:5432/test"


def with_schema(url: str, schema: str) -> str:
    """``url`` whose connections use ``schema`` (libpq ``options`` parameter)."""
    return f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"


@pytest.fixture(scope="session")
def pg_url() -> str:
    import psycopg

    url = os.environ.get("ARBITER_TEST_PG_URL", DEFAULT_PG_URL)
    try:
        psycopg.connect(url, connect_timeout=5).close()
    except psycopg.Error as exc:
        message = f"PostgreSQL is not reachable at {url}: {exc}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return url


@pytest.fixture
def pg_schemas(pg_url: str) -> Iterator[Callable[[], str]]:
    """A factory of URLs of fresh, empty schemas; they are dropped after the test."""
    import psycopg

    created: list[str] = []

    def make() -> str:
        schema = f"test_{uuid.uuid4().hex[:16]}"
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{schema}"')
        created.append(schema)
        return with_schema(pg_url, schema)

    yield make
    with psycopg.connect(pg_url, autocommit=True) as conn:
        for schema in created:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
