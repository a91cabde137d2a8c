"""Casting, abilities, triggers and resolving (CR 601-608), and choices made on the stack."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from arbiter_core.kernel.events.base import EventBase


class SpellCast(EventBase):
    type: Literal["SpellCast"] = "SpellCast"
    player: str
    obj: int
    new_id: int
    item: int
    marker: int
    targets: list[list[str]] = Field(default_factory=list)
    x: int = 0


class AbilityActivated(EventBase):
    type: Literal["AbilityActivated"] = "AbilityActivated"
    player: str
    source: int
    ability: int
    item: int
    marker: int
    targets: list[list[str]] = Field(default_factory=list)


class AbilityTriggered(EventBase):
    type: Literal["AbilityTriggered"] = "AbilityTriggered"
    source: int
    source_name: str
    controller: str
    ability: int
    marker: int
    that_player: str | None = None
    amount: int = 0
    obj: int | None = None


class TriggerPutOnStack(EventBase):
    type: Literal["TriggerPutOnStack"] = "TriggerPutOnStack"
    index: int  # position in the waiting-trigger list
    item: int
    marker: int


class TriggerTargetsAsked(EventBase):
    """A triggered ability just put on a stack waits for its controller to choose its
    targets (CR 603.3d); `then_priority` receives priority once every waiting trigger is
    on the stack (117.3b-c)."""

    type: Literal["TriggerTargetsAsked"] = "TriggerTargetsAsked"
    item: int
    marker: int
    then_priority: str | None = None


class TriggerTargetsChosen(EventBase):
    """The targets for a triggered ability's next target requirement (CR 603.3d), chosen
    by its controller or, with only one legal way, by the engine."""

    type: Literal["TriggerTargetsChosen"] = "TriggerTargetsChosen"
    item: int
    player: str
    targets: list[str] = Field(default_factory=list)


class TriggerRemoved(EventBase):
    """A triggered ability with no legal targets for a requirement is removed from the
    stack as it is put there (CR 603.3d)."""

    type: Literal["TriggerRemoved"] = "TriggerRemoved"
    item: int
    marker: int


class CopyChosen(EventBase):
    """As a permanent spell with "you may have ~ enter as a copy" resolves, its
    controller chose the creature to copy, or none (707.5, 614.1c)."""

    type: Literal["CopyChosen"] = "CopyChosen"
    item: int
    player: str
    of: int | None = None


class BecameCopy(EventBase):
    """The permanent entered as a copy of `of`: it has that object's copiable values,
    its name and printed characteristics or token values (707.2, 707.3; layer 1,
    613.2a)."""

    type: Literal["BecameCopy"] = "BecameCopy"
    obj: int
    of: int


class CardCycled(EventBase):
    """A player cycled a card: discarded it to pay a cycling cost (CR 702.29a, 702.29c).
    `card` is its id in the hand."""

    type: Literal["CardCycled"] = "CardCycled"
    player: str
    card: int
    name: str


class StackItemResolved(EventBase):
    """The top of a stack finished resolving and leaves it (CR 608.2n, 608.3)."""

    type: Literal["StackItemResolved"] = "StackItemResolved"
    item: int
    marker: int


class StackItemCountered(EventBase):
    type: Literal["StackItemCountered"] = "StackItemCountered"
    item: int
    marker: int


class ResolutionPaused(EventBase):
    """Resolution waits for a decision; it resumes at effect `resume_at`."""

    type: Literal["ResolutionPaused"] = "ResolutionPaused"
    item: int
    resume_at: int


class TeamMemberChosen(EventBase):
    """A team chose the member a resolving effect affects (CR 810.9d)."""

    type: Literal["TeamMemberChosen"] = "TeamMemberChosen"
    item: int
    player: str


class ChooserChosen(EventBase):
    """The player who makes a resolving effect's choice is named ("an opponent
    chooses", 801.5a, 801.5c, 800.4g)."""

    type: Literal["ChooserChosen"] = "ChooserChosen"
    item: int
    player: str


class OptionalActionChosen(EventBase):
    """The controller of a resolving ability answered its "you may" (CR 603.5, 608.2d):
    `accepted` true if they do it, false if they don't."""

    type: Literal["OptionalActionChosen"] = "OptionalActionChosen"
    item: int
    player: str
    accepted: bool


class ModeChosen(EventBase):
    """The mode of a modal spell is chosen as it is cast (CR 601.2b, 700.2), by `player`
    (700.2e: another player when the spell says so; "that player" on resolution)."""

    type: Literal["ModeChosen"] = "ModeChosen"
    item: int
    mode: int  # 0 for the first mode printed
    player: str


class LifePaymentChosen(EventBase):
    """A player chose which of their creatures they pay life for, to keep them (Killing
    Wave); the payments happen together once every player has chosen (119.4, 810.9b)."""

    type: Literal["LifePaymentChosen"] = "LifePaymentChosen"
    item: int
    player: str
    objs: list[int] = Field(default_factory=list)
