"""Bot players: seeded random choices among `legal_actions` (never conceding).

Weights make games progress (lands and spells are usually taken over passing) but every
choice comes from the legal list, so an illegal bot action is an engine defect.
"""

from __future__ import annotations

import random

from arbiter_core.kernel.commands import (
    ActivateAbility,
    CastSpell,
    ChooseOption,
    Concede,
    DeclareAttackers,
    PassPriority,
    PlayerCommand,
    PlayLand,
)
from arbiter_core.kernel.state import GameState
from arbiter_core.stack.mana import mana_ability
from arbiter_core.views.legal import legal_actions


class RandomBot:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState, player: str) -> PlayerCommand | None:
        actions = [a for a in legal_actions(state, player) if not isinstance(a, Concede)]
        if not actions:
            return None
        return self.rng.choices(actions, weights=[self._weight(state, a) for a in actions])[0]

    def _weight(self, state: GameState, a: PlayerCommand) -> float:
        match a:
            case PlayLand():
                return 40.0
            case CastSpell():
                return 6.0
            case ActivateAbility():
                src = state.objects.get(a.source)
                return 0.05 if src is not None and mana_ability(src) is not None else 1.5
            case DeclareAttackers():
                # "everyone attacks" weighs as much as all single attacks together, so
                # boards (Krenko's Goblins) don't pile up for ever
                return 3.0 * len(a.attacks) if len(a.attacks) > 1 else 1.0
            case PassPriority():
                return 2.0
            case ChooseOption(option="yes"):
                return 3.0  # "you may" (603.5): usually worth doing, not always taken
            case ChooseOption(option="mulligan"):
                # 103.5: most opening hands are kept, fewer still after a mulligan
                return 0.4 / (1 + 2 * state.players[a.player].mulligans)
            case _:
                return 1.0
