"""Typed references (issue 11): players and objects are parsed once, at the boundary
(`kernel/refs.py`: commands' fields, appliers), into `PlayerRef` and `ObjectRef`, which
serialise, compare and hash as the strings they parse. No other core module writes or
parses the "p:"/"o:" prefixes (an AST scan, shown to catch one)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from pydantic import ValidationError

from arbiter_core.kernel.commands import CastSpell
from arbiter_core.kernel.refs import ObjectRef, PlayerRef, object_ref, parse_ref, player_ref

from .core_graph import CORE

BOUNDARY = {CORE / "kernel" / "refs.py"}
PREFIXES = ("p:", "o:")


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def parses(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    out = []
    for node in ast.walk(tree):
        # a string constant, or the first part of an f-string
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in docs and node.value.startswith(PREFIXES)):
            out.append(f"{path.name}:{node.lineno}: {node.value[:12]!r}")
        if (isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "partition"
                and node.args and isinstance(node.args[0], ast.Constant)
                and node.args[0].value == ":"):
            out.append(f"{path.name}:{node.lineno}: partition(':')")
    return out


def test_no_reference_is_parsed_outside_the_boundary() -> None:
    found = [f for p in sorted(CORE.rglob("*.py")) if p not in BOUNDARY for f in parses(p)]
    assert found == []


def test_the_scan_catches_a_parse(tmp_path: Path) -> None:
    source = tmp_path / "x.py"
    source.write_text('"""About "p:<name>" (a docstring is fine)."""\n'
                      'def f(x, o):\n    return x[2:] if x.startswith("p:") else f"o:{o}"\n')
    assert sorted(f.split(": ", 1)[1] for f in parses(source)) == ["'o:'", "'p:'"]


def test_references_are_the_strings_they_parse() -> None:
    p, o = parse_ref("p:Alice"), parse_ref("o:42")
    assert isinstance(p, PlayerRef) and p.player == "Alice" and p == "p:Alice"
    assert isinstance(o, ObjectRef) and o.obj == 42 and repr(o) == repr("o:42")
    assert player_ref("Alice") == p and object_ref(42) == o and hash(o) == hash("o:42")
    assert parse_ref(o) is o
    for bad in ("Alice", "o:", "o:x", "p:", "x:1"):
        with pytest.raises(ValueError):
            parse_ref(bad)


def test_commands_are_parsed_at_the_boundary() -> None:
    cast = CastSpell(player="P1", card=3, targets=[["p:P2", "o:7"]])
    first, second = cast.targets[0]
    assert isinstance(first, PlayerRef) and isinstance(second, ObjectRef)
    assert cast.model_dump(mode="json")["targets"] == [["p:P2", "o:7"]]
    with pytest.raises(ValidationError, match="targets"):
        CastSpell(player="P1", card=3, targets=[["Bob"]])
