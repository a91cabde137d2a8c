"""Abilities that trigger as blockers are declared (CR 509.3): "Whenever ~ blocks or
becomes blocked" (trigger event `blocks_or_becomes_blocked`, Karn, Silver Golem).

509.3a, 509.3c: it triggers once each combat for the creature, however many creatures
it blocks or is blocked by - a creature that blocks and is blocked in one declaration
(not possible in one combat) would still trigger once.
"""

from __future__ import annotations

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.state import GameState, Obj
from arbiter_core.kernel.txn import watch
from arbiter_core.stack.triggers import each_triggered


@watch(ev.BlockersDeclared, order=20)
def _blocks_or_becomes_blocked(s: GameState, e: ev.BlockersDeclared, current: int | None,
                               before: Obj | None) -> list[ev.Event]:
    """509.3a, 509.3c: each blocker and each blocked attacker, once."""
    involved = {oid for pair in e.blocks for oid in pair}
    if not involved:
        return []
    return list(each_triggered(s, e.marker, "blocks_or_becomes_blocked", current,
                               lambda o, ab: o.id in involved))
