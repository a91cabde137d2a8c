"""Shared helpers of the deploy tier: the rendered overlays, compose, and a service
process started by hand (to watch its stderr and its health)."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import yaml

from arbiter_ops.deploy_check import render

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def rendered(overlay: str) -> tuple[dict[str, Any], ...]:
    """`kubectl kustomize k8s/overlays/<overlay>` (the committed files)."""
    return tuple(render(ROOT, overlay))


def of_kind(docs: tuple[dict[str, Any], ...], kind: str) -> dict[str, dict[str, Any]]:
    return {d["metadata"]["name"]: d for d in docs if d["kind"] == kind}


def effective_env(docs: tuple[dict[str, Any], ...], container: dict[str, Any]) -> set[str]:
    """The environment variable names a container gets: its `env` and the keys of the
    ConfigMaps it takes whole (`envFrom`)."""
    maps = of_kind(docs, "ConfigMap")
    names = {e["name"] for e in container.get("env", [])}
    for src in container.get("envFrom", []):
        names |= set(maps[src["configMapRef"]["name"]]["data"])
    return names


def config_value(docs: tuple[dict[str, Any], ...], container: dict[str, Any],
                 name: str) -> str | None:
    maps = of_kind(docs, "ConfigMap")
    for e in container.get("env", []):
        if e["name"] == name:
            return str(e.get("value"))
    for src in container.get("envFrom", []):
        data = maps[src["configMapRef"]["name"]]["data"]
        if name in data:
            return str(data[name])
    return None


def compose_doc() -> dict[str, Any]:
    return dict(yaml.safe_load((ROOT / "docker-compose.yml").read_text()))


def get_status(url: str) -> int | None:
    try:
        with urllib.request.urlopen(url, timeout=3) as r:
            return int(r.status)
    except urllib.error.HTTPError as e:
        return int(e.code)
    except OSError:
        return None


def wait_for(predicate: Any, timeout: float, every: float = 0.5) -> bool:
    """Poll (bounded) until `predicate()` holds; the deadline is generous, not a claim."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(every)
    return bool(predicate())


def start_process(args: list[str], env: dict[str, str], stderr: Path) -> subprocess.Popen[bytes]:
    """`python -m <args>` with `env` added, stderr to a file, stdout separately."""
    out = open(stderr, "wb")  # noqa: SIM115
    proc = subprocess.Popen([sys.executable, "-m", *args], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=out,
                            env={**os.environ, **env}, start_new_session=True)
    out.close()
    return proc


def stop(proc: subprocess.Popen[bytes], timeout: float = 30) -> int:
    if proc.poll() is None:
        proc.terminate()
        try:
            return proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
    return proc.wait(10)
