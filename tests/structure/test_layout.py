"""The test layout (issue 11): tests live in tiers by how much of the world they need
(`core`, `store`, `services`, `cli`, `structure`, `deploy`), shared helpers live in harness
modules, and no test module imports another test module."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
TIERS = {"core", "store", "services", "cli", "structure", "deploy"}


def _test_modules() -> list[Path]:
    return sorted(p for p in TESTS.rglob("test_*.py") if "scenarios" not in p.parts)


def _imported(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            out.add(base)
            out |= {f"{base}.{a.name}" if base else a.name for a in node.names}
    return out


def importing_test_modules(paths: list[Path]) -> list[tuple[Path, str]]:
    """(importer, name) for every import of a `test_*` module by a test module."""
    return [(p, name) for p in paths for name in sorted(_imported(p))
            if any(part.startswith("test_") for part in name.lstrip(".").split("."))]


def test_no_test_module_imports_another() -> None:
    assert importing_test_modules(_test_modules()) == []


def test_the_check_catches_an_import_of_a_test_module(tmp_path: Path) -> None:
    bad = tmp_path / "test_bad.py"
    bad.write_text("from tests.core.test_cards import POOL\nfrom .test_view import x\n",
                   encoding="utf-8")
    found = {name for _, name in importing_test_modules([bad])}
    assert {"tests.core.test_cards", ".test_view"} <= found


def test_every_test_module_is_in_a_tier() -> None:
    outside = [p.relative_to(TESTS) for p in _test_modules()
               if p.relative_to(TESTS).parts[0] not in TIERS]
    assert outside == []
