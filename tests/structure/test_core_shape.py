"""The core's shape (issue 11): no import cycle between its modules and no import
placed inside a function, checked on the source, and shown to catch both."""

from __future__ import annotations

import shutil
from pathlib import Path

from .core_graph import CORE, cycles, graph, nested_imports


def test_no_import_cycle_inside_the_core() -> None:
    edges = graph()
    assert len(edges) > 100
    assert cycles(edges) == []


def test_no_function_level_import_in_the_core() -> None:
    assert nested_imports() == []


def _copy(tmp_path: Path) -> Path:
    dest = tmp_path / "arbiter_core"
    shutil.copytree(CORE, dest, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def test_the_checks_catch_a_cycle_and_a_nested_import(tmp_path: Path) -> None:
    core = _copy(tmp_path)
    kernel_state = core / "kernel" / "state.py"
    kernel_state.write_text(kernel_state.read_text() + "\n\ndef _f() -> None:\n"
                            "    from arbiter_core.kernel.txn import Txn  # noqa\n")
    assert nested_imports(core) == ["arbiter_core.kernel.state:"
                                    f"{len(kernel_state.read_text().splitlines())}: "
                                    "imports arbiter_core.kernel.txn"]
    found = cycles(graph(core))
    assert any({"arbiter_core.kernel.state", "arbiter_core.kernel.txn"} <= set(c)
               for c in found)
