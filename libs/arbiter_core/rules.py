"""Every rule module, imported once so that each registers what it adds to the kernel's
tables (event appliers, command handlers, engine work, decisions, effects, watchers,
wording, variants, cards).

The rule modules are found, not listed: every module of every subpackage of
`arbiter_core` but the kernel and the card data is imported, in name order, so adding a
mechanic is adding its module - no list to edit. Where the order of registration
matters (watchers of one event, priority actions, replacement effects as a permanent
enters), the registrations say it (`order=`). Importing `arbiter_core` imports this
module, so no caller can forget it.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

import arbiter_core.kernel.actions
import arbiter_core.kernel.decisions

#: packages that register no rule of their own (they hold the tables and the data)
NOT_RULES = frozenset({"kernel", "cards"})


def _rule_modules() -> tuple[ModuleType, ...]:
    root = importlib.import_module("arbiter_core")
    out: list[ModuleType] = [arbiter_core.kernel.actions, arbiter_core.kernel.decisions]
    for package in sorted(pkgutil.iter_modules(root.__path__), key=lambda m: m.name):
        if not package.ispkg or package.name in NOT_RULES:
            continue
        pkg = importlib.import_module(f"arbiter_core.{package.name}")
        for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
            out.append(importlib.import_module(f"{pkg.__name__}.{info.name}"))
    return tuple(out)


MODULES = _rule_modules()
