"""infra/postgres/init-roles.sh (PostgreSQL's first start in compose and the dev overlay)
against the real PostgreSQL of the test machine: it makes the services' login role, not
a superuser, that may connect; the owner is who runs it."""

from __future__ import annotations

import os
import shutil
import subprocess
import uuid

import psycopg

from .harness import ROOT

ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"


def test_the_init_script_makes_the_services_role() -> None:
    suffix = uuid.uuid4().hex[:8]
    db, role = f"deploy_roles_{suffix}", f"arbiter_app_{suffix}"
    with psycopg.connect(ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{db}"')
    try:
        assert shutil.which("psql"), "psql (PostgreSQL's client) is needed"
        subprocess.run(["sh", str(ROOT / "infra" / "postgres" / "init-roles.sh")], check=True,
                       timeout=60, env={**os.environ, "PGHOST": "127.0.0.1",
                                        "POSTGRES_USER": "postgres", "POSTGRES_DB": db,
                                        "ARBITER_APP_ROLE": role,
                                        "ARBITER_APP_PASSWORD": "pw-" + suffix})
        with psycopg.connect(f"postgresql://postgres@127.0.0.1:5432/{db}") as conn:
            row = conn.execute(
                "SELECT rolcanlogin, rolsuper, rolcreatedb, rolcreaterole, "
                "has_database_privilege(rolname, %s, 'CONNECT'), "
                "has_schema_privilege(rolname, 'public', 'USAGE') "
                "FROM pg_roles WHERE rolname = %s", (db, role)).fetchone()
        assert row == (True, False, False, False, True, True)
    finally:
        with psycopg.connect(ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{db}"')
            conn.execute(f'DROP ROLE IF EXISTS "{role}"')
