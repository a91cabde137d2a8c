"""`up` / `down`: the broker and every service as separate processes on one machine.

`Cluster` starts Tansu, creates the topics, then the relay, the four services and the
gateway, each `python -m arbiter_services run ROLE` (`python -m arbiter_gateway`) with its
own log file in `run_dir`, with `ARBITER_TOPICS=keeper` (the local broker), and
waits (bounded) until each answers /health/ready. It can kill and restart one process
(the crash tests). `up` writes the pids to `run_dir/pids.json`; `down` reads them,
sends SIGTERM, and SIGKILLs what is still running after a grace period.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from arbiter_ops.tansu import TansuBroker, free_ports
from arbiter_services.topic_admin import ensure_topics
from arbiter_services.topics import SERVICES, STACK

PROCESSES = ("relay", *SERVICES, "gateway")


def process_names(resolvers: int = 1) -> tuple[str, ...]:
    """Every process name; `resolvers` stack-resolver processes share consumer group
    `stack-resolver` (the first keeps the plain name, then stack-resolver-2, ...)."""
    extra = tuple(f"{STACK}-{i}" for i in range(2, resolvers + 1))
    return ("relay", *(s for name in SERVICES for s in ((name, *extra) if name == STACK
                                                        else (name,))), "gateway")


def role_of(name: str) -> str:
    """The role a process name runs (stack-resolver-2 runs the stack-resolver)."""
    return STACK if name.startswith(f"{STACK}-") else name


def process_command(name: str, profiled: bool = False) -> list[str]:
    """The module and arguments that run process `name` (after `python -m`): the same
    commands as the image's in compose and k8s; `profiled`: under cProfile
    (`ARBITER_PROFILE`)."""
    if name == "gateway":
        return ["arbiter_gateway"]
    if profiled:
        return ["arbiter_ops", "profile", role_of(name)]
    return ["arbiter_services", "run", role_of(name)]


def migrate(store_url: str) -> None:
    """Create or upgrade the store's schema once, before any service opens it."""
    from arbiter_store import open_store
    open_store(store_url, auto_migrate=True).close()


def wait_ready(port: int, timeout: float, proc: subprocess.Popen[bytes] | None = None) -> None:
    deadline = time.monotonic() + timeout
    url = f"http://127.0.0.1:{port}/health/ready"
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"process for port {port} exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 204:
                    return
        except OSError:
            pass
        time.sleep(0.1)
    raise TimeoutError(f"{url} not ready after {timeout}s")


class Cluster:
    def __init__(self, store: str, run_dir: Path, broker_port: int | None = None,
                 gateway_port: int | None = None, extra_env: dict[str, str] | None = None,
                 start_broker: bool = True, resolvers: int = 1) -> None:
        if resolvers < 1:
            raise ValueError("at least one stack resolver")
        self.store = store
        self.names = process_names(resolvers)
        self.run_dir = run_dir
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self.broker = TansuBroker(broker_port, run_dir / "tansu.log")
        self.start_broker = start_broker
        self.ports = dict(zip(self.names, free_ports(len(self.names)), strict=True))
        if gateway_port:
            self.ports["gateway"] = gateway_port
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        # the local broker is memory-only: every process keeps the topics (recovery.py)
        # random secrets and staff logins; the gateway sees only the logins' hashes, the
        # passwords are in run_dir/credentials.json (owner-only) for `play --distributed`
        from arbiter_gateway.logins import StaffLogins
        self.logins = StaffLogins.generate()
        self.logins.write(self.run_dir)
        self.env = {**os.environ, "ARBITER_GATEWAY_SECRET": secrets.token_hex(32),
                    "ARBITER_SEED_SECRET": secrets.token_hex(32), **self.logins.environment(),
                    "ARBITER_TOPICS": "keeper", **(extra_env or {})}

    @property
    def gateway_url(self) -> str:
        return f"http://127.0.0.1:{self.ports['gateway']}"

    def start(self, timeout: float = 60.0) -> None:
        migrate(self.store)
        if self.start_broker:
            self.broker.start()
        asyncio.run(ensure_topics(self.broker.bootstrap))
        for name in self.names:
            self.spawn(name)
        for name in self.names:
            self.ready(name, timeout)

    def spawn(self, name: str) -> subprocess.Popen[bytes]:
        cmd = [sys.executable, "-m", *process_command(name, bool(self.env.get(
                   "ARBITER_PROFILE"))), "--store", self.store,
               "--broker", self.broker.bootstrap, "--http-port", str(self.ports[name])]
        log = open(self.run_dir / f"{name}.log", "ab")  # noqa: SIM115
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL,
                                env={**self.env, "ARBITER_INSTANCE": name},
                                start_new_session=True)
        log.close()
        self.procs[name] = proc
        return proc

    def ready(self, name: str, timeout: float = 60.0) -> None:
        wait_ready(self.ports[name], timeout, self.procs.get(name))

    def kill(self, name: str) -> None:
        """SIGKILL one process (a crash)."""
        proc = self.procs.pop(name)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)

    def restart(self, name: str, timeout: float = 60.0) -> None:
        self.spawn(name)
        self.ready(name, timeout)

    def stop(self, timeout: float = 15.0) -> dict[str, int | None]:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        codes: dict[str, int | None] = {}
        deadline = time.monotonic() + timeout
        for name, proc in self.procs.items():
            try:
                codes[name] = proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                codes[name] = proc.wait(5)
        self.procs.clear()
        self.broker.stop()
        return codes

    def log_tails(self, lines: int = 30) -> str:
        """The last `lines` lines of every process's log, for a failed test's report."""
        parts = []
        for log in sorted(self.run_dir.glob("*.log")):
            text = log.read_text(errors="replace").splitlines()[-lines:]
            parts.append(f"--- {log.name} (last {len(text)} lines)\n" + "\n".join(text))
        return "\n".join(parts)

    def write_pids(self) -> None:
        pids = {n: p.pid for n, p in self.procs.items()}
        if self.broker.proc is not None:
            pids["tansu"] = self.broker.proc.pid
        (self.run_dir / "pids.json").write_text(json.dumps(
            {"pids": pids, "gateway": self.gateway_url, "broker": self.broker.bootstrap,
             "store": self.store}, indent=2))


def down(run_dir: Path, timeout: float = 15.0) -> list[str]:
    """Stop what `up` started (SIGTERM, then SIGKILL after `timeout`)."""
    path = run_dir / "pids.json"
    if not path.exists():
        return []
    pids: dict[str, int] = json.loads(path.read_text())["pids"]
    for pid in pids.values():
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    for pid in pids.values():
        while time.monotonic() < deadline and _alive(pid):
            time.sleep(0.1)
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)
    path.unlink()
    return list(pids)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie of ours counts as gone
        done, _ = os.waitpid(pid, os.WNOHANG)
        return done == 0
    except ChildProcessError:
        return True
