"""`make deploy-check` passes on the committed files and fails on a broken manifest: each
validator catches its own kind of mistake (not only the drift check)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from arbiter_ops.deploy_check import problems

from .harness import ROOT

FILES = ("k8s", "infra", "docker-compose.yml", ".env.example", "pyproject.toml")


def _copy(tmp: Path) -> Path:
    root = tmp / "repo"
    root.mkdir()
    for name in FILES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, root / name)
        else:
            shutil.copy(src, root / name)
    return root


def test_make_deploy_check_passes() -> None:
    done = subprocess.run([sys.executable, "-m", "arbiter_ops", "deploy-check"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "deploy-check: all passed" in done.stdout


def test_deploy_check_fails_on_broken_manifests(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    workloads = root / "k8s" / "base" / "workloads.yaml"
    # a field Kubernetes does not know (a typo of `readinessProbe`)
    workloads.write_text(workloads.read_text().replace("readinessProbe:", "readynessProbe:", 1))
    topics = root / "k8s" / "overlays" / "large-event" / "topics.yaml"
    topics.write_text(topics.read_text().replace("partitions: 24", "partitions: many", 1))
    compose = root / "docker-compose.yml"
    # a key Compose does not know
    compose.write_text(compose.read_text().replace(
        "    restart: unless-stopped\n", "    restart: unless-stopped\n    restarts: 3\n", 1))
    dockerfile = root / "infra" / "Dockerfile"
    dockerfile.write_text(dockerfile.read_text() + "RUN apt-get install curl\n")
    found = problems(root)
    text = "\n".join(found)
    assert "k8s/base/workloads.yaml: differs" in text  # the drift check
    for overlay in ("dev", "large-event"):
        assert any(p.startswith(f"k8s/overlays/{overlay}: kubernetes-validate")
                   and "readynessProbe" in p for p in found), text
    assert any("kafkatopic_v1.json" in p and "many" in p for p in found), text
    assert any(p.startswith("docker-compose.yml: compose-spec schema") for p in found), text
    assert any(p.startswith("docker-compose.yml: compose config") for p in found), text
    assert any(p.startswith("infra/Dockerfile: hadolint") for p in found), text
    cli = subprocess.run([sys.executable, "-m", "arbiter_ops", "deploy-check", "--root",
                          str(root)], capture_output=True, text=True, timeout=600)
    assert cli.returncode == 1 and "FAIL" in cli.stdout


def test_deploy_check_fails_when_an_overlay_does_not_render(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    kustomization = root / "k8s" / "overlays" / "dev" / "kustomization.yaml"
    kustomization.write_text(kustomization.read_text().replace("- kafka.yaml",
                                                               "- missing.yaml"))
    found = problems(root)
    assert any(p.startswith("k8s/overlays/dev: kubectl kustomize failed") for p in found)


def test_deploy_check_fails_on_a_broken_tansu_file(tmp_path: Path) -> None:
    """Without `!override`, Compose merges the two files' depends_on: the services would
    still wait for Kafka, which the Tansu file leaves out; and a key Compose does not know
    in the merged project."""
    root = _copy(tmp_path)
    tansu = root / "infra" / "compose.tansu.yml"
    text = tansu.read_text()
    tansu.write_text(text.replace("depends_on: !override", "depends_on:"))
    found = problems(root)
    assert any(p.startswith("infra/compose.tansu.yml: compose config")
               and "kafka" in p for p in found), found
    tansu.write_text(text.replace("    restart: unless-stopped\n",
                                  "    restart: unless-stopped\n    restarts: 3\n", 1))
    found = problems(root)
    assert any(p.startswith("infra/compose.tansu.yml: compose") for p in found), found
