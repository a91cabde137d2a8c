"""Each rule in one place (issue 11): every event, effect, command, decision and kind of
engine work has exactly one entry in the kernel's tables - none is an error this test
finds, two are refused as they are registered (`DuplicateEntry`) - and every module of a
rule package is loaded by `arbiter_core.rules`."""

from __future__ import annotations

import ast
import typing
from pathlib import Path

import pytest

import arbiter_core
from arbiter_core import rules
from arbiter_core.cards.model import Effect
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import Command
from arbiter_core.kernel.decide import COMMANDS, WORK
from arbiter_core.kernel.decisions import DECISIONS
from arbiter_core.kernel.events.base import EVENT_TYPES
from arbiter_core.kernel.evolve import APPLIERS, applies
from arbiter_core.kernel.explain import EXPLAIN
from arbiter_core.kernel.registry import DuplicateEntry, Registry
from arbiter_core.stack.items import EFFECTS

from .core_graph import CORE

KERNEL_PACKAGES = {"kernel", "cards"}


def test_every_event_has_one_applier_and_one_explain_line() -> None:
    events = set(EVENT_TYPES.table.values())
    assert len(events) >= 79
    assert events - set(APPLIERS.table) == set()
    assert events - set(EXPLAIN.table) == set()


def test_every_effect_of_the_card_model_has_one_entry() -> None:
    models = set(typing.get_args(Effect))
    assert len(models) >= 59
    assert models - set(EFFECTS.table) == set()


def test_every_command_has_one_handler() -> None:
    commands = set(typing.get_args(typing.get_args(Command)[0]))
    assert commands - set(COMMANDS.table) == set()


def _kinds_asked(keyword: str, call: str) -> set[str]:
    """String kinds passed as `keyword=` to `call(...)` anywhere in the core."""
    out: set[str] = set()
    for path in CORE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == call:
                for kw in node.keywords:
                    if kw.arg == keyword and isinstance(kw.value, ast.Constant):
                        out.add(str(kw.value.value))
    return out


def test_every_decision_asked_is_a_registered_kind_with_answers() -> None:
    asked = _kinds_asked("kind", "DecisionRequested")
    assert len(asked) >= 19
    assert asked - set(DECISIONS.table) == set()
    for kind in DECISIONS.table.values():
        answered = kind.answer is not None or kind.answered_by in COMMANDS.table
        assert answered, f"nothing answers {kind.name}"


def test_every_kind_of_work_queued_is_registered_with_an_owner() -> None:
    queued = _kinds_asked("kind", "WorkQueued")
    assert queued and queued - set(WORK.table) == set()


def test_a_second_entry_is_refused() -> None:
    with pytest.raises(DuplicateEntry, match="two event appliers for PriorityGiven"):
        applies(ev.PriorityGiven)(lambda s, e: None)
    table: Registry[str, int] = Registry("thing")
    table.add("a", 1)
    with pytest.raises(DuplicateEntry):
        table.add("a", 2)


def test_every_rule_module_is_loaded() -> None:
    loaded = {m.__name__ for m in rules.MODULES}
    found = {".".join(p.relative_to(CORE.parent).with_suffix("").parts)
             for p in CORE.rglob("*.py") if p.name != "__init__.py"
             and p.relative_to(CORE).parts[0] not in KERNEL_PACKAGES
             and p.parent != CORE}
    assert found - loaded == set()
    assert arbiter_core.rules is rules


def test_registrations_live_in_their_rule_package() -> None:
    """The kernel registers only its own entries (the pending-work marker's events, the
    answers to ChooseObjects/ChooseOption, RunEngineWork): a rule registered in the
    kernel would be a rule the kernel knows."""
    kernel = {fn.__module__ for fn in (*APPLIERS.table.values(), *COMMANDS.table.values())
              if fn.__module__.startswith("arbiter_core.kernel")}
    assert kernel <= {"arbiter_core.kernel.evolve", "arbiter_core.kernel.decide",
                      "arbiter_core.kernel.decisions"}
    assert Path(CORE / "rules.py").exists()
