""""Which marker owes engine work" has one definition (issue 11): `owed_work` and
`owed_marker` in `arbiter_core/kernel/shell_loop.py`. Anything else that walks a state's
markers testing for `Work` pending is a second definition, and fails here.

The AST scan covers libs/, services/, tools/, benchmarks/ and tests/: an
`isinstance(..., Work)` inside a `for` loop or a comprehension over something named
`markers`. Two files are exempt because they must run unchanged on source trees from
before the loop existed (their imports are the ones every tree since 23bc8a9 has):
`tools/same_events.py` (`record` on an old tree) and `benchmarks/engine_workload.py`
(`python -m benchmarks.engine --against REV` runs it on REV's tree).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("libs", "services", "tools", "benchmarks", "tests")
DEFINITION = Path("libs/arbiter_core/kernel/shell_loop.py")
#: must run on trees without shell_loop.py (see the module docstring)
EXEMPT = frozenset({Path("tools/same_events.py"), Path("benchmarks/engine_workload.py")})

Loop = ast.For | ast.comprehension


def _mentions_markers(node: ast.expr) -> bool:
    return any((isinstance(n, ast.Attribute) and n.attr == "markers")
               or (isinstance(n, ast.Name) and n.id == "markers") for n in ast.walk(node))


def _is_work_test(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "isinstance" and len(node.args) == 2
            and any(isinstance(n, ast.Name | ast.Attribute)
                    and (getattr(n, "id", None) == "Work" or getattr(n, "attr", None) == "Work")
                    for n in ast.walk(node.args[1])))


def _loops_over_markers(tree: ast.AST) -> Iterator[ast.AST]:
    """The bodies of loops and comprehensions over a state's markers."""
    for node in ast.walk(tree):
        if isinstance(node, ast.For) and _mentions_markers(node.iter):
            yield from node.body
        elif (isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp)
              and any(_mentions_markers(g.iter) for g in node.generators)):
            yield node


def definitions(source: str) -> list[int]:
    """Line numbers of marker walks that test for pending `Work` in `source`."""
    tree = ast.parse(source)
    return sorted({n.lineno for body in _loops_over_markers(tree) for n in ast.walk(body)
                   if isinstance(n, ast.Call) and _is_work_test(n)})


def test_no_second_definition_of_the_owed_marker() -> None:
    found: dict[str, list[int]] = {}
    for top in SCANNED:
        for path in (ROOT / top).rglob("*.py"):
            rel = path.relative_to(ROOT)
            if ".venv" in rel.parts or rel in EXEMPT or rel == DEFINITION:
                continue
            lines = definitions(path.read_text(encoding="utf-8"))
            if lines:
                found[str(rel)] = lines
    assert found == {}, ("which marker owes engine work is defined in "
                         f"{DEFINITION} only (owed_work, owed_marker): {found}")


def test_the_definition_is_where_this_test_looks() -> None:
    assert definitions((ROOT / DEFINITION).read_text(encoding="utf-8")), DEFINITION


def test_the_scan_finds_the_shapes_it_forbids() -> None:
    shapes = [
        "for m in s.markers.values():\n    if isinstance(m.pending, Work):\n        x = 1\n",
        "x = next((m.number for m in s.markers.values() if isinstance(m.pending, Work)),"
        " None)\n",
        "x = [n for n, m in state.markers.items() if isinstance(m.pending, state_mod.Work)]\n",
        "for m in markers:\n    p = m.pending\n    if isinstance(p, Work) and p.kind:\n"
        "        pass\n",
        "x = any(isinstance(m.pending, Work) for m in s.markers.values())\n",
    ]
    for source in shapes:
        assert definitions(source), source
    # not a definition: a marker already chosen, tested for what it waits for
    assert definitions("m = s.markers[1]\nassert isinstance(m.pending, Work)\n") == []
    assert definitions("for m in s.markers.values():\n"
                       "    if isinstance(m.pending, Priority):\n        pass\n") == []
