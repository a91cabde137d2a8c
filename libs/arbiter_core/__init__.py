"""Arbiter's rules core: `decide(state, command) -> events` and `evolve(state, event) ->
state`, pure. Importing the package loads every rule package (`rules.py`), so the
kernel's registries are complete before any game is decided."""

from arbiter_core import rules as _rules  # noqa: F401
