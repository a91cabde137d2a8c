"""The rules core is pure (the "import-linter or equivalent" rule).

Every module under libs/arbiter_core may import only its own package and the explicit
allow-list below: no clock, no global random source, no I/O, no store, no runtime. It
never calls ``open(`` or ``print(`` either. The checker is an AST scan, so it sees
imports inside functions and ``if TYPE_CHECKING:`` blocks too.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "libs" / "arbiter_core"
OWN_PACKAGE = "arbiter_core"

#: Top-level modules a core module may import (besides its own package).
ALLOWED: frozenset[str] = frozenset(
    {
        "__future__",
        "pydantic",
        "pydantic_core",  # pydantic's own engine (its error types)
        "typing",
        "typing_extensions",
        "dataclasses",
        "enum",
        "collections",  # includes collections.abc
        "itertools",
        "functools",
        "re",
        "hashlib",
        "msgspec",  # serialization in C (hashing.canonical); no I/O of its own
        "operator",
        "json",
        "math",
        "abc",
        "types",  # ModuleType, for rules.py
        # rules.py finds the rule modules as the package is imported (never in a game)
        "pkgutil",
        "importlib",
    }
)

#: Named explicitly so the failure message says why; anything not in ALLOWED fails too.
FORBIDDEN: frozenset[str] = frozenset(
    {
        "time",
        "datetime",
        "random",
        "uuid",
        "os",
        "sys",
        "io",
        "pathlib",
        "socket",
        "sqlite3",
        "subprocess",
        "threading",
        "asyncio",
        "logging",
        "arbiter_store",
        "arbiter_runtime",
        "arbiter_cli",
    }
)

#: Builtins the core never calls (I/O, dynamic imports and code).
FORBIDDEN_CALLS: frozenset[str] = frozenset({"open", "print", "input", "__import__"})


def _imported_roots(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name.split(".")[0] for alias in node.names]
    if node.level > 0:  # a relative import stays inside the package
        return [OWN_PACKAGE]
    return [(node.module or "").split(".")[0]]


def scan(root: Path) -> list[str]:
    """Every impurity under `root` (a copy of arbiter_core), as "module:line: what"."""
    problems: list[str] = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root.parent).with_suffix("")
        module = ".".join(rel.parts)
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                for name in _imported_roots(node):
                    if name == OWN_PACKAGE or name in ALLOWED:
                        continue
                    why = "forbidden" if name in FORBIDDEN else "not in the allow-list"
                    problems.append(f"{module}:{node.lineno}: imports {name!r} ({why})")
            elif isinstance(node, ast.Call):
                func = node.func
                called = (func.id if isinstance(func, ast.Name)
                          else func.attr if isinstance(func, ast.Attribute)
                          and isinstance(func.value, ast.Name) and func.value.id == "builtins"
                          else None)
                if called in FORBIDDEN_CALLS:
                    problems.append(f"{module}:{node.lineno}: calls {called}(")
    return problems


def test_allow_list_and_forbidden_list_are_disjoint() -> None:
    assert not ALLOWED & FORBIDDEN
    assert OWN_PACKAGE not in FORBIDDEN


def test_core_is_found() -> None:
    modules = list(CORE.rglob("*.py"))
    assert len(modules) >= 10, f"expected the core package at {CORE}"
    assert (CORE / "kernel" / "decide.py").exists() and (CORE / "kernel" / "evolve.py").exists()


def test_core_imports_only_allowed_modules_and_does_no_io() -> None:
    problems = scan(CORE)
    assert problems == [], "arbiter_core must stay pure:\n" + "\n".join(problems)


def _copy_core(tmp_path: Path) -> Path:
    dest = tmp_path / OWN_PACKAGE
    shutil.copytree(CORE, dest, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return dest


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def test_checker_catches_import_random(tmp_path: Path) -> None:
    core = _copy_core(tmp_path)
    assert scan(core) == scan(CORE)  # the copy scans like the original
    target = core / "kernel" / "evolve.py"
    lines = len(target.read_text(encoding="utf-8").splitlines())
    _append(target, "\nimport random\n")
    problems = scan(core)
    assert f"arbiter_core.kernel.evolve:{lines + 2}: imports 'random' (forbidden)" in problems


def test_checker_catches_other_impurities(tmp_path: Path) -> None:
    core = _copy_core(tmp_path)
    _append(core / "kernel" / "decide.py", "\n\ndef _f() -> None:\n    from time import time\n"
                                "    print(time())\n    open('x')\n")
    _append(core / "cards" / "model" / "base.py", "\nimport arbiter_store.sqlite\nimport yaml\n"
                                                   "from .. import pool as _pool\n")
    new = set(scan(core)) - set(scan(CORE))

    def found(module: str) -> set[str]:
        return {p.split(":", 2)[2].strip() for p in new if p.startswith(module + ":")}

    assert found("arbiter_core.kernel.decide") == {
        "calls open(", "calls print(", "imports 'time' (forbidden)"}
    # the relative import of the package's own module is fine
    assert found("arbiter_core.cards.model.base") == {
        "imports 'arbiter_store' (forbidden)", "imports 'yaml' (not in the allow-list)"}
