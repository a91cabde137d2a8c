"""Events: facts that happened, past tense, each citing the CR rule that made it.

Every event is a frozen pydantic model with a `type` discriminator, a schema version `v`
and the `rule` (a CR number from the committed index, `rules_index.py`). Outcomes of
randomness (shuffles, random discards) are inside the events, so a replay is exact.

The models live in submodules by subject (game, turn, stack, objects, combat); this
package is the one place to import them from, with the `Event` union.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, TypeAdapter

from arbiter_core.kernel.events.base import CardSetup, EventBase
from arbiter_core.kernel.events.combat import (
    AttackersDeclared,
    BandBlocked,
    BlockersDeclared,
    CombatDamageAssigned,
    CombatEnded,
    FirstStrikeDamageDealt,
)
from arbiter_core.kernel.events.game import (
    CardsPut,
    ExtraTurnAdded,
    ExtraTurnDeferred,
    GameEnded,
    GameStarted,
    MarkerDesignatedForRemoval,
    MarkerPassed,
    MarkerPlaced,
    MarkerRemoved,
    NormalTurnOwed,
    PlayerConceded,
    PlayerDrew,
    PlayerLeftGame,
    PlayerLost,
)
from arbiter_core.kernel.events.objects import (
    Attached,
    ColorChosen,
    ControlChanged,
    CountersPut,
    CountersRemoved,
    DamageDealt,
    DamageWoreOff,
    DelayedAbilityTriggered,
    DelayedTriggerCreated,
    DelayedTriggerRemoved,
    EffectCreated,
    EffectEnded,
    EffectUsed,
    LifeGained,
    LifeLost,
    LoopPositionRecorded,
    LoopWatchReset,
    ObjectCeasedToExist,
    ObjectMoved,
    PermanentBecameCreature,
    PlayerChosen,
    PoisonCountersChanged,
    StateBasedActionsChecked,
    TokenCreated,
    Unattached,
)
from arbiter_core.kernel.events.stack import (
    AbilityActivated,
    AbilityTriggered,
    BecameCopy,
    CardCycled,
    ChooserChosen,
    CopyChosen,
    LifePaymentChosen,
    ModeChosen,
    OptionalActionChosen,
    ResolutionPaused,
    SpellCast,
    StackItemCountered,
    StackItemResolved,
    TeamMemberChosen,
    TriggerPutOnStack,
    TriggerRemoved,
    TriggerTargetsAsked,
    TriggerTargetsChosen,
)
from arbiter_core.kernel.events.turn import (
    CardDrawn,
    DecisionRequested,
    DrawFromEmptyLibraryAttempted,
    LandPlayed,
    LibraryShuffled,
    ManaAdded,
    ManaEmptied,
    ManaSpent,
    PermanentsUntapped,
    PermanentTapped,
    PriorityGiven,
    PriorityPassed,
    StateCheckpointed,
    StepBegan,
    TurnBegan,
    WorkQueued,
)

Event = Annotated[
    GameStarted
    | CardsPut
    | MarkerPlaced
    | MarkerPassed
    | MarkerDesignatedForRemoval
    | MarkerRemoved
    | ExtraTurnDeferred
    | NormalTurnOwed
    | LibraryShuffled
    | CardDrawn
    | DrawFromEmptyLibraryAttempted
    | StateCheckpointed
    | TurnBegan
    | StepBegan
    | PermanentsUntapped
    | PermanentTapped
    | WorkQueued
    | PriorityGiven
    | PriorityPassed
    | DecisionRequested
    | LandPlayed
    | ManaAdded
    | ManaSpent
    | ManaEmptied
    | SpellCast
    | AbilityActivated
    | AbilityTriggered
    | TriggerPutOnStack
    | TriggerTargetsAsked
    | TriggerTargetsChosen
    | TriggerRemoved
    | CardCycled
    | CopyChosen
    | BecameCopy
    | StackItemResolved
    | StackItemCountered
    | ResolutionPaused
    | TeamMemberChosen
    | ChooserChosen
    | ModeChosen
    | OptionalActionChosen
    | LifePaymentChosen
    | ObjectMoved
    | ObjectCeasedToExist
    | DamageDealt
    | LifeGained
    | PoisonCountersChanged
    | CountersPut
    | EffectCreated
    | EffectEnded
    | EffectUsed
    | PermanentBecameCreature
    | LifeLost
    | ControlChanged
    | ColorChosen
    | PlayerChosen
    | LoopPositionRecorded
    | LoopWatchReset
    | DelayedTriggerCreated
    | DelayedAbilityTriggered
    | DelayedTriggerRemoved
    | DamageWoreOff
    | AttackersDeclared
    | BandBlocked
    | CombatDamageAssigned
    | BlockersDeclared
    | FirstStrikeDamageDealt
    | CombatEnded
    | TokenCreated
    | Attached
    | Unattached
    | CountersRemoved
    | StateBasedActionsChecked
    | ExtraTurnAdded
    | PlayerLost
    | PlayerConceded
    | PlayerLeftGame
    | PlayerDrew
    | GameEnded,
    Field(discriminator="type"),
]

EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)


def event_from_dict(data: dict[str, object]) -> Event:
    """Decode an event from its stored payload (the `type` field selects the model)."""
    return EVENT_ADAPTER.validate_python(data)

__all__ = [
    "EVENT_ADAPTER",
    "AbilityActivated",
    "AbilityTriggered",
    "Attached",
    "AttackersDeclared",
    "BandBlocked",
    "BecameCopy",
    "BlockersDeclared",
    "CardCycled",
    "CardDrawn",
    "CardSetup",
    "CardsPut",
    "ChooserChosen",
    "ColorChosen",
    "CombatDamageAssigned",
    "CombatEnded",
    "ControlChanged",
    "CopyChosen",
    "CountersPut",
    "CountersRemoved",
    "DamageDealt",
    "DamageWoreOff",
    "DecisionRequested",
    "DelayedAbilityTriggered",
    "DelayedTriggerCreated",
    "DelayedTriggerRemoved",
    "DrawFromEmptyLibraryAttempted",
    "EffectCreated",
    "EffectEnded",
    "EffectUsed",
    "Event",
    "EventBase",
    "ExtraTurnAdded",
    "ExtraTurnDeferred",
    "FirstStrikeDamageDealt",
    "GameEnded",
    "GameStarted",
    "LandPlayed",
    "LibraryShuffled",
    "LifeGained",
    "LifeLost",
    "LifePaymentChosen",
    "LoopPositionRecorded",
    "LoopWatchReset",
    "ManaAdded",
    "ManaEmptied",
    "ManaSpent",
    "MarkerDesignatedForRemoval",
    "MarkerPassed",
    "MarkerPlaced",
    "MarkerRemoved",
    "ModeChosen",
    "NormalTurnOwed",
    "ObjectCeasedToExist",
    "ObjectMoved",
    "OptionalActionChosen",
    "PermanentBecameCreature",
    "PermanentTapped",
    "PermanentsUntapped",
    "PlayerChosen",
    "PlayerConceded",
    "PlayerDrew",
    "PlayerLeftGame",
    "PlayerLost",
    "PoisonCountersChanged",
    "PriorityGiven",
    "PriorityPassed",
    "ResolutionPaused",
    "SpellCast",
    "StackItemCountered",
    "StackItemResolved",
    "StateBasedActionsChecked",
    "StateCheckpointed",
    "StepBegan",
    "TeamMemberChosen",
    "TokenCreated",
    "TriggerPutOnStack",
    "TriggerRemoved",
    "TriggerTargetsAsked",
    "TriggerTargetsChosen",
    "TurnBegan",
    "Unattached",
    "WorkQueued",
    "event_from_dict",
]
