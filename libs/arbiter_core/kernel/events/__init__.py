"""Events: facts that happened, past tense, each citing the CR rule that made it.

Every event is a frozen pydantic model with a `type` discriminator, a schema version `v`
and the `rule` (a CR number from the committed index, `rules_index.py`). Outcomes of
randomness (shuffles, random discards) are inside the events, so a replay is exact.

The models live in submodules by subject (game, turn, stack, objects, combat); this
package is the one place to import them from. A rule package may define events of its
own beside its rule: every `EventBase` subclass is registered by its `type`.
"""

from __future__ import annotations

from pydantic import ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

from arbiter_core.kernel.events.base import EVENT_TYPES, CardSetup, EventBase
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
    CardRevealed,
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
    TokenCopyCreated,
    TokenCreated,
    TurnedFaceDown,
    TurnedFaceUp,
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

Event = EventBase
"""Any event: the registered event classes all derive from `EventBase`."""


def event_class(type_: str) -> type[EventBase]:
    """The event class registered under `type_` (`MissingEntry` if none is)."""
    return EVENT_TYPES[type_]


def _unknown(type_: object) -> ValidationError:
    """The error pydantic gives for a tagged union's unknown tag."""
    return ValidationError.from_exception_data("Event", [InitErrorDetails(
        type=PydanticCustomError("union_tag_invalid",
                                 "no event type {tag!r} is registered", {"tag": str(type_)}),
        loc=("type",), input=type_)])


def event_from_dict(data: dict[str, object]) -> Event:
    """Decode an event from its stored payload (the `type` field selects the model); an
    unknown type is a `ValidationError`, as any other invalid payload."""
    type_ = data.get("type")
    cls = EVENT_TYPES.table.get(type_) if isinstance(type_, str) else None
    if cls is None:
        raise _unknown(type_)
    return cls.model_validate(data)


def event_from_json(type_: str, blob: bytes) -> Event:
    """Decode and validate an event's JSON (with its envelope) as the class of `type_`."""
    cls = EVENT_TYPES.table.get(type_)
    if cls is None:
        raise _unknown(type_)
    return cls.model_validate_json(blob)


__all__ = [
    "EVENT_TYPES",
    "AbilityActivated",
    "AbilityTriggered",
    "Attached",
    "AttackersDeclared",
    "BandBlocked",
    "BecameCopy",
    "BlockersDeclared",
    "CardCycled",
    "CardDrawn",
    "CardRevealed",
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
    "TokenCopyCreated",
    "TokenCreated",
    "TriggerPutOnStack",
    "TriggerRemoved",
    "TriggerTargetsAsked",
    "TriggerTargetsChosen",
    "TurnBegan",
    "TurnedFaceDown",
    "TurnedFaceUp",
    "Unattached",
    "WorkQueued",
    "event_class",
    "event_from_dict",
    "event_from_json",
]
