"""What a player holding priority may do, as the rule packages list it: each registers
a lister beside its rule (`@priority_actions(order=...)`: casting spells and playing
lands, cycling, activating abilities), and `views.legal.legal_actions` asks them in
`order` after passing priority. Decisions list their answers themselves
(`decisions.DecisionKind.legal`)."""

from __future__ import annotations

from collections.abc import Callable

from arbiter_core.kernel.commands import PlayerCommand
from arbiter_core.kernel.registry import Hooks
from arbiter_core.kernel.state import GameState, Marker

#: (state, marker, player) -> the commands the player may give with priority on `marker`
Lister = Callable[[GameState, Marker, str], list[PlayerCommand]]
PRIORITY_ACTIONS: Hooks[str, Lister] = Hooks("priority-action lister")
ALL = "all"


def priority_actions(order: float) -> Callable[[Lister], Lister]:
    """Register the decorated lister; listers are asked in `order`."""
    def add(lister: Lister) -> Lister:
        PRIORITY_ACTIONS.add(ALL, lister, order)
        return lister
    return add
