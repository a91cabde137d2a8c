"""The services' package layers (issue 12): the runtime (`arbiter_services`) imports no
gateway, operations or CLI module; the gateway imports no operations or CLI module. An
AST scan (imports inside functions count too), like test_purity's."""

from __future__ import annotations

import ast
from pathlib import Path

SERVICES = Path(__file__).resolve().parents[2] / "services"

#: package -> the packages it may never import
FORBIDDEN = {
    "arbiter_services": ("arbiter_gateway", "arbiter_ops", "arbiter_cli"),
    "arbiter_gateway": ("arbiter_ops", "arbiter_cli"),
}


def imports_of(path: Path) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module))
    return out


def violations(root: Path, package: str, forbidden: tuple[str, ...]) -> list[str]:
    return [f"{p.relative_to(root)}:{line}: imports {name}"
            for p in sorted((root / package).rglob("*.py"))
            for line, name in imports_of(p) if name.split(".")[0] in forbidden]


def test_the_runtime_and_the_gateway_import_no_higher_layer() -> None:
    found = [v for pkg, bad in FORBIDDEN.items() for v in violations(SERVICES, pkg, bad)]
    assert found == []


def test_the_check_sees_a_lazy_import(tmp_path: Path) -> None:
    pkg = tmp_path / "arbiter_services"
    pkg.mkdir()
    (pkg / "x.py").write_text("def f():\n    from arbiter_ops.launcher import Cluster\n")
    assert violations(tmp_path, "arbiter_services", FORBIDDEN["arbiter_services"]) == [
        "arbiter_services/x.py:2: imports arbiter_ops.launcher"]
