"""Variants as behaviour (issue 11): no variant name is compared as a string outside
the variants package - the rest of the code asks the game's variant (`variant_of`,
`get_variant`) for what it does. An AST scan of every package and tool, shown to catch a
comparison."""

from __future__ import annotations

import ast
from pathlib import Path

from arbiter_core.variants.base import known_variants

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("libs", "services", "tools", "benchmarks")
VARIANTS_PACKAGE = ROOT / "libs" / "arbiter_core" / "variants"


def _names(node: ast.expr) -> list[str]:
    """String constants in an expression that may be compared (a name, or a tuple, list
    or set of names)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [n for e in node.elts for n in _names(e)]
    return []


def comparisons(path: Path, names: frozenset[str]) -> list[str]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Compare):
            found = [n for e in (node.left, *node.comparators) for n in _names(e)
                     if n in names]
            out += [f"{path.name}:{node.lineno}: compares {n!r}" for n in found]
    return out


def test_no_variant_name_is_compared_outside_the_variants_package() -> None:
    names = frozenset(known_variants())
    assert "grand_melee" in names and "commander" in names
    found = [c for base in SCANNED for p in sorted((ROOT / base).rglob("*.py"))
             if VARIANTS_PACKAGE not in p.parents for c in comparisons(p, names)]
    assert found == []


def test_the_scan_catches_a_comparison(tmp_path: Path) -> None:
    source = tmp_path / "x.py"
    source.write_text("def f(s):\n    return s.variant == 'emperor' or s.v in ('x', "
                      "'grand_melee')\n")
    found = comparisons(source, frozenset(known_variants()))
    assert [f.split(": ", 1)[1] for f in found] == ["compares 'emperor'",
                                                    "compares 'grand_melee'"]
