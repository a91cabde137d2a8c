"""Shared helpers of the deploy tier: the rendered overlays, compose, and a service
process started by hand (to watch its stderr and its health)."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import yaml

from arbiter_ops.compose import TANSU_FILE
from arbiter_ops.deploy_check import compose_config, render
from arbiter_ops.deployment import IMAGE

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
    """docker-compose.yml as written (interpolations such as `${X:?...}` unresolved)."""
    return dict(yaml.safe_load((ROOT / "docker-compose.yml").read_text()))


@functools.cache
def compose_project(tansu: bool = False) -> dict[str, Any]:
    """The project Compose itself makes of docker-compose.yml (and the Tansu file on top
    of it), with `.env.example`'s values interpolated (`docker compose config`)."""
    files = ("docker-compose.yml", TANSU_FILE) if tansu else ("docker-compose.yml",)
    code, out = compose_config(ROOT, *files, fmt="json")
    assert code == 0, out
    return dict(json.loads(out))


def arbiter_containers(docs: tuple[dict[str, Any], ...]) -> list[tuple[str, dict[str, Any]]]:
    """Every container of a rendered overlay that runs the Arbiter image (processes, their
    init containers, the migration Job): (workload/container, container)."""
    out = []
    for d in docs:
        if d["kind"] not in ("Deployment", "StatefulSet", "Job"):
            continue
        pod = d["spec"]["template"]["spec"]
        for c in [*pod.get("initContainers", []), *pod["containers"]]:
            if c["image"].split(":")[0] == IMAGE:
                out.append((f"{d['kind']} {d['metadata']['name']}/{c['name']}", c))
    return out


ANSI = ("\x1b", "\\u001b")  # raw, or escaped inside a JSON string


def json_problems(text: str) -> list[str]:
    """Lines of `text` that are not one JSON object each, or carry colour codes."""
    bad = []
    for line in text.splitlines():
        try:
            ok = isinstance(json.loads(line), dict) and not any(a in line for a in ANSI)
        except ValueError:
            ok = False
        if not ok:
            bad.append(line)
    return bad


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


def clean_environ() -> dict[str, str]:
    """This process's environment without any Arbiter or OpenTelemetry setting."""
    return {k: v for k, v in os.environ.items() if not k.startswith(("ARBITER_", "OTEL_"))}


def start_process(args: list[str], env: dict[str, str], stderr: Path,
                  base: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """`python -m <args>` with `env` added to `base` (default: this process's
    environment), stderr to a file, stdout separately."""
    out = open(stderr, "wb")  # noqa: SIM115
    proc = subprocess.Popen([sys.executable, "-m", *args], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=out,
                            env={**(os.environ if base is None else base), **env},
                            start_new_session=True)
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
