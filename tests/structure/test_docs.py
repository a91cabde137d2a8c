"""docs/architecture.md's module table is current (issue 11): it lists every module of
the core, and only modules that exist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "libs" / "arbiter_core"
ROW = re.compile(r"^\| `([a-z_/]+\.py)` \|", re.M)


def test_the_module_table_lists_every_core_module() -> None:
    listed = set(ROW.findall((ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")))
    modules = {str(p.relative_to(CORE)) for p in CORE.rglob("*.py") if p.name != "__init__.py"}
    assert sorted(modules - listed) == []
    assert sorted(listed - modules) == []
