"""The import contracts (pyproject's [tool.importlinter], run by `make lint`) hold, and
they fail on a kernel module that imports a rule package, or on a core module that
reads the clock (run on a copy of the core with the import injected)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINT = Path(sys.executable).with_name("lint-imports")

CONFIG = """
[importlinter]
root_packages =
    arbiter_core
include_external_packages = True

[importlinter:contract:purity]
name = The rules core is pure
type = forbidden
source_modules =
    arbiter_core
forbidden_modules =
    time
    random

[importlinter:contract:kernel]
name = The kernel knows no rule
type = forbidden
source_modules =
    arbiter_core.kernel
forbidden_modules =
    arbiter_core.stack
    arbiter_core.combat
"""


def _lint(cwd: Path, config: str | None = None,
          pythonpath: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    args = [str(LINT), "--no-cache"] + (["--config", config] if config else [])
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300, check=False)


def test_the_project_keeps_its_contracts() -> None:
    done = _lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 kept, 0 broken" in done.stdout


def _copy_core(tmp_path: Path) -> Path:
    libs = tmp_path / "libs"
    shutil.copytree(ROOT / "libs" / "arbiter_core", libs / "arbiter_core",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / ".importlinter").write_text(CONFIG)
    return libs


def test_a_kernel_import_of_a_rule_package_breaks_a_contract(tmp_path: Path) -> None:
    libs = _copy_core(tmp_path)
    clean = _lint(tmp_path, ".importlinter", str(libs))
    assert clean.returncode == 0, clean.stdout + clean.stderr
    decide = libs / "arbiter_core" / "kernel" / "decide.py"
    decide.write_text(decide.read_text() + "\nfrom arbiter_core.stack import priority  # noqa\n")
    broken = _lint(tmp_path, ".importlinter", str(libs))
    assert broken.returncode != 0
    assert "The kernel knows no rule BROKEN" in broken.stdout
    assert "arbiter_core.kernel.decide -> arbiter_core.stack.priority" in broken.stdout


def test_a_clock_in_the_core_breaks_purity(tmp_path: Path) -> None:
    libs = _copy_core(tmp_path)
    rng = libs / "arbiter_core" / "kernel" / "rng.py"
    rng.write_text(rng.read_text() + "\nimport time  # noqa\n")
    broken = _lint(tmp_path, ".importlinter", str(libs))
    assert broken.returncode != 0
    assert "The rules core is pure BROKEN" in broken.stdout
