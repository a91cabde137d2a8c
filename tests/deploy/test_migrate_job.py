"""The migration job as deployed writes only JSON lines (issue 12: "All log lines are
JSON"): compose's `migrate` service and each overlay's Job `arbiter-migrate`, their
commands and environments taken from the rendered files, run against a fresh database of
the test machine's PostgreSQL (a throwaway one, dropped afterwards). At a terminal, without
the deployment's `ARBITER_LOG_FORMAT`, `arbiter db upgrade` still prints text."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from arbiter_ops.deployment import OWNER_STORE

from .harness import clean_environ, compose_project, json_problems, of_kind, rendered

ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
OVERLAYS = ("dev", "large-event")


@pytest.fixture
def fresh_db() -> Iterator[str]:
    name = f"deploy_migrate_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgresql://postgres@127.0.0.1:5432/{name}"
    finally:
        with psycopg.connect(ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _base_env() -> dict[str, str]:
    """The image's environment, roughly: PATH finds `arbiter` (this venv's)."""
    env = clean_environ()
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


def _run(command: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, env={**_base_env(), **env}, capture_output=True,
                          text=True, timeout=180, stdin=subprocess.DEVNULL, cwd=cwd)


def _compose_job(store: str) -> tuple[list[str], dict[str, str]]:
    """Compose's `migrate`: its command (a shell line; `$$` is Compose's escaped `$`,
    which the container gets as `$`) and its environment with the owner's URL replaced by
    `store`."""
    svc = compose_project()["services"]["migrate"]
    env = {k: str(v) for k, v in svc["environment"].items()}
    assert OWNER_STORE.env in env
    env[OWNER_STORE.env] = store
    return [part.replace("$$", "$") for part in svc["command"]], env


def _k8s_job(overlay: str, store: str) -> tuple[list[str], dict[str, str]]:
    """An overlay's Job: its command with the kubelet's `$(VAR)` expansion done, its
    literal environment, and the Secret's owner URL as `store`."""
    job = of_kind(rendered(overlay), "Job")["arbiter-migrate"]
    (c,) = job["spec"]["template"]["spec"]["containers"]
    env: dict[str, str] = {}
    for e in c["env"]:
        if "value" in e:
            env[e["name"]] = str(e["value"])
        else:
            assert e["valueFrom"]["secretKeyRef"]["key"] == OWNER_STORE.key
            env[e["name"]] = store
    assert "envFrom" not in c
    command = [re.sub(r"\$\((\w+)\)", lambda m: env[m[1]], part) for part in c["command"]]
    return command, env


def _lines(done: subprocess.CompletedProcess[str]) -> list[dict[str, Any]]:
    text = done.stdout + done.stderr
    assert text.strip(), "the job wrote nothing"
    assert json_problems(done.stdout) == [] and json_problems(done.stderr) == [], text
    return [json.loads(line) for line in text.splitlines()]


def test_the_deployed_migration_jobs_write_only_json(fresh_db: str, tmp_path: Path) -> None:
    command, env = _compose_job(fresh_db)
    first = _run(command, env, tmp_path)
    assert first.returncode == 0, first.stdout + first.stderr
    lines = _lines(first)
    (applied,) = [x for x in lines if x["event"] == "applied migrations"]
    assert applied["migrations"] and applied["service"] == "migrate"
    assert applied["level"] == "info" and "timestamp" in applied
    for overlay in OVERLAYS:  # the Jobs of both overlays, on the migrated database
        command, env = _k8s_job(overlay, fresh_db)
        again = _run(command, env, tmp_path)
        assert again.returncode == 0, again.stdout + again.stderr
        assert "already up to date" in [x["event"] for x in _lines(again)], overlay


def test_a_failing_migration_job_writes_json_too(tmp_path: Path) -> None:
    """No database there (and a password in the URL, which the lines do not carry)."""
    command, env = _compose_job("postgresql://arbiter_owner:s3cret-pw@127.0.0.1:1/arbiter")
    failed = _run(command, env, tmp_path)
    assert failed.returncode == 2
    lines = _lines(failed)
    assert lines[-1]["level"] == "error" and "127.0.0.1" in lines[-1]["event"]
    assert "s3cret-pw" not in failed.stdout + failed.stderr


def test_db_upgrade_prints_text_without_the_deployment_setting(tmp_path: Path) -> None:
    store = str(tmp_path / "store.sqlite")
    done = _run([sys.executable, "-m", "arbiter_cli.main", "db", "upgrade", "--db", store], {},
                tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("applied migrations [") and done.stderr == ""
    wrong = _run([sys.executable, "-m", "arbiter_cli.main", "db", "upgrade", "--db", store],
                 {"ARBITER_LOG_FORMAT": "xml"}, tmp_path)
    assert wrong.returncode == 2 and "ARBITER_LOG_FORMAT" in wrong.stdout
