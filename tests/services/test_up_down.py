"""`up` starts the broker and every service as processes; `down` stops them all; and a
PostgreSQL-backed deployment plays the same game (when the PG backend is available)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from arbiter_gateway.client import GatewayClient, play_through_gateway
from arbiter_gateway.logins import StaffLogins
from arbiter_ops.launcher import Cluster
from arbiter_ops.tansu import free_port
from arbiter_runtime.botgame import start_command
from arbiter_runtime.loghash import log_hash
from arbiter_store import StoreError, open_store

from .harness import reference_hash

pytestmark = pytest.mark.integration
PG_URL = os.environ.get("ARBITER_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return not Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z")


def test_up_then_down(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    cmd = [sys.executable, "-m", "arbiter_ops"]
    ports = ["--broker-port", str(free_port()), "--gateway-port", str(free_port())]
    up = subprocess.run([*cmd, "up", "--run-dir", str(run_dir), *ports], timeout=120,
                        capture_output=True, text=True)
    try:
        assert up.returncode == 0, up.stdout + up.stderr
        info = json.loads((run_dir / "pids.json").read_text())
        assert set(info["pids"]) == {"tansu", "relay", "turn-orchestrator", "stack-resolver",
                                     "sba-checker", "variants", "gateway"}
        r = httpx.get(info["gateway"] + "/health/ready", timeout=5)
        assert r.status_code == 204
        # the local cluster's judge login: its password owner-only on disk, its hash only
        # in the gateway's environment (issue 14)
        assert (run_dir / "credentials.json").stat().st_mode & 0o777 == 0o600
        judge = StaffLogins.load(run_dir).judge
        r = httpx.post(info["gateway"] + "/auth/token", json={"role": "judge"},
                       auth=(judge.name, judge.password), timeout=10)
        assert r.status_code == 200, r.text
    finally:
        down = subprocess.run([*cmd, "down", "--run-dir", str(run_dir)], timeout=60,
                              capture_output=True, text=True)
    assert down.returncode == 0, down.stderr
    assert not any(_alive(pid) for pid in info["pids"].values())
    assert not (run_dir / "pids.json").exists()


def test_postgres_store_plays_the_same_game(tmp_path: Path) -> None:
    try:
        open_store(PG_URL, auto_migrate=True).close()
    except (StoreError, OSError) as e:
        pytest.skip(f"the PostgreSQL event store is not available: {e}")
    cluster = Cluster(PG_URL, tmp_path)
    cluster.start(timeout=90)
    gid = f"pg-{os.getpid()}-{free_port()}"
    try:
        async def go() -> int:
            async with httpx.AsyncClient(base_url=cluster.gateway_url, timeout=30) as http:
                return (await play_through_gateway(GatewayClient(http, cluster.logins),
                                                   start_command(gid, 2, 3, deck_size=8),
                                                   240)).seed
        try:
            seed = asyncio.run(go())
        except TimeoutError as e:  # say where it stopped: every process's last lines
            pytest.fail(f"{e}\n{cluster.log_tails()}")
        with open_store(PG_URL) as store:
            assert log_hash(store.read_stream(gid)) == reference_hash(gid, 2, seed, 8)
    finally:
        cluster.stop()
