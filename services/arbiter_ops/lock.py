"""requirements.lock: the production image's dependencies, pinned with hashes.

`make lock` resolves the project's dependencies and its `services` extra (and the
image's build requirements, `infra/build-requirements.in`) for CPython 3.11 on
manylinux x86_64 with uv, and writes the digest of those inputs in the header. The
development broker (the `local` extra), the test and the deploy-check tools are not in
it. `tests/deploy/test_lock.py` fails when pyproject.toml changed since (the digest),
or when a pinned version does not satisfy a requirement.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import tomllib
from pathlib import Path

LOCK = "requirements.lock"
BUILD = "infra/build-requirements.in"
EXTRAS = ("services",)
DIGEST = re.compile(r"^# inputs sha256: ([0-9a-f]{64})$", re.M)
PIN = re.compile(r"^([A-Za-z0-9_.-]+)(\[[^\]]*\])?==([^\s;\\]+)", re.M)


def requirements(root: Path) -> list[str]:
    """What the lock must satisfy: the dependencies, the extras' and the build's."""
    project = tomllib.loads((root / "pyproject.toml").read_text())["project"]
    reqs = list(project["dependencies"])
    for extra in EXTRAS:
        reqs += project["optional-dependencies"][extra]
    reqs += [line.strip() for line in (root / BUILD).read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    return reqs


def digest(root: Path) -> str:
    return hashlib.sha256(json.dumps(requirements(root)).encode()).hexdigest()


def pins(text: str) -> dict[str, str]:
    return {normalize(m.group(1)): m.group(3) for m in PIN.finditer(text)}


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def write(root: Path, uv: str) -> Path:
    out = subprocess.run(
        [uv, "pip", "compile", "pyproject.toml", BUILD, *(f"--extra={e}" for e in EXTRAS),
         "--python-version", "3.11", "--python-platform", "x86_64-manylinux_2_28",
         "--generate-hashes", "--no-header"],
        cwd=root, check=True, capture_output=True, text=True).stdout
    path = root / LOCK
    path.write_text("# The production image's dependencies (`make lock`; arbiter_ops/lock.py):\n"
                    "# pyproject.toml's dependencies and extras "
                    f"{', '.join(EXTRAS)}, and {BUILD}.\n"
                    f"# inputs sha256: {digest(root)}\n" + out)
    return path
