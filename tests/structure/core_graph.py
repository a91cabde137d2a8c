"""The core's module graph, read from the source (an AST scan: imports inside functions
count, `if TYPE_CHECKING:` blocks too), for the shape tests."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "libs" / "arbiter_core"


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(root: Path = CORE) -> dict[str, Path]:
    return {module_name(root, p): p for p in sorted(root.rglob("*.py"))}


def imports(path: Path, tree: ast.Module | None = None
            ) -> Iterator[tuple[ast.stmt, list[str]]]:
    """Each import statement of a module and the modules it names."""
    tree = tree if tree is not None else ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield node, [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node, [node.module, *(f"{node.module}.{a.name}" for a in node.names)]


def graph(root: Path = CORE) -> dict[str, set[str]]:
    """Module -> the core modules it imports."""
    mods = modules(root)
    return {m: {t for _, names in imports(p) for t in names if t in mods and t != m}
            for m, p in mods.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        for v in sorted(edges):
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return out


def nested_imports(root: Path = CORE) -> list[str]:
    """Imports that are not at a module's top level (in a function, a class, a branch)."""
    out: list[str] = []
    for m, p in modules(root).items():
        tree = ast.parse(p.read_text(encoding="utf-8"))
        top = {id(n) for n in tree.body}
        for node, names in imports(p, tree):
            if id(node) not in top:
                out.append(f"{m}:{node.lineno}: imports {names[0]}")
    return out
