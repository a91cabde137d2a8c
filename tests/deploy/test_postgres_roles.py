"""infra/postgres/init-roles.sh (PostgreSQL's first start in compose and the dev overlay)
with the store's migrations, against the real PostgreSQL of the test machine: the
owner role migrates, the services' login role (a member of arbiter_services) then opens
the store (what each pod's wait-store init container checks) and cannot delete events."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid

import psycopg
import pytest

from arbiter_services.stores import wait_until_migrated

from .harness import ROOT

ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"


def test_the_init_script_and_the_migrations_make_the_two_roles() -> None:
    suffix = uuid.uuid4().hex[:8]
    db, owner, app = f"deploy_{suffix}", f"owner_{suffix}", f"app_{suffix}"
    assert shutil.which("psql"), "psql (PostgreSQL's client) is needed"
    try:
        subprocess.run(["sh", str(ROOT / "infra" / "postgres" / "init-roles.sh")], check=True,
                       timeout=60, env={**os.environ, "PGHOST": "127.0.0.1",
                                        "POSTGRES_USER": "postgres", "POSTGRES_DB": "postgres",
                                        "ARBITER_DB": db, "ARBITER_OWNER_ROLE": owner,
                                        "ARBITER_OWNER_PASSWORD": "o-" + suffix,
                                        "ARBITER_APP_ROLE": app,
                                        "ARBITER_APP_PASSWORD": "a-" + suffix})
        with psycopg.connect(ADMIN) as conn:
            roles = {r[0]: tuple(r[1:]) for r in conn.execute(
                "SELECT rolname, rolcanlogin, rolsuper, rolcreaterole, "
                "pg_has_role(rolname, 'arbiter_services', 'MEMBER') FROM pg_roles "
                "WHERE rolname IN (%s, %s)", (owner, app)).fetchall()}
        assert roles == {owner: (True, False, False, False), app: (True, False, False, True)}
        app_url = f"postgresql://{app}@127.0.0.1:5432/{db}"
        assert wait_until_migrated(app_url, timeout=0, every=0) == 1  # not migrated yet
        up = subprocess.run([sys.executable, "-m", "arbiter_cli.main", "db", "upgrade", "--db",
                             f"postgresql://{owner}@127.0.0.1:5432/{db}"],
                            capture_output=True, text=True, timeout=120)
        assert up.returncode == 0, up.stdout + up.stderr
        assert wait_until_migrated(app_url, timeout=0, every=0) == 0
        with psycopg.connect(app_url) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("DELETE FROM events")
    finally:
        with psycopg.connect(ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{db}"')
            for role in (app, owner):
                conn.execute(f'DROP ROLE IF EXISTS "{role}"')
