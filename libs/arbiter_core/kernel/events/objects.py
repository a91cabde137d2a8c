"""Objects and players changing: zones, damage, life, counters, effects, control, tokens,
attachments, SBA checks and face-down status (CR 120, 122, 400, 611-613, 704, 708)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from arbiter_core.cards.model import TokenSpec
from arbiter_core.kernel.events.base import EventBase


class ObjectMoved(EventBase):
    """An object changes zones and becomes a new object (CR 400.7)."""

    type: Literal["ObjectMoved"] = "ObjectMoved"
    obj: int
    new_id: int
    to_zone: Literal["library", "hand", "battlefield", "graveyard", "exile", "stack", "command"]
    to_player: str
    controller: str | None = None


class ObjectCeasedToExist(EventBase):
    type: Literal["ObjectCeasedToExist"] = "ObjectCeasedToExist"
    obj: int


class DamageDealt(EventBase):
    type: Literal["DamageDealt"] = "DamageDealt"
    source: int
    player: str | None = None
    obj: int | None = None
    amount: int
    combat: bool = False
    deathtouch: bool = False
    # False when the player's life total can't change (119.8, 810.9h): damage is dealt
    # but causes no life loss.
    life_loss: bool = True


class LifeGained(EventBase):
    type: Literal["LifeGained"] = "LifeGained"
    player: str
    amount: int


class PoisonCountersChanged(EventBase):
    """A player gets (`amount` > 0) or loses poison counters (CR 122.1f); in
    Two-Headed Giant the team's count changes (810.10, 810.10b)."""

    type: Literal["PoisonCountersChanged"] = "PoisonCountersChanged"
    player: str
    amount: int


class CountersPut(EventBase):
    """Counters are put on a permanent (CR 122.6; proliferate, 701.34a)."""

    type: Literal["CountersPut"] = "CountersPut"
    obj: int
    counters: dict[str, int]


class EffectCreated(EventBase):
    type: Literal["EffectCreated"] = "EffectCreated"
    kind: Literal["pt", "prevent_combat_damage", "control", "keyword", "become_creature",
                  "detain", "redirect", "attack_requirement", "until_planeswalk", "copy"]
    affected: list[int] = Field(default_factory=list)
    power: int = 0
    toughness: int = 0
    marker: int = 1
    controller: str | None = None
    until: Literal["end_of_turn", "permanent", "your_next_turn"] = "end_of_turn"
    keyword: str | None = None
    subtypes: list[str] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    tap_when_lost: bool = False
    redirect: list[str] = Field(default_factory=list)  # [from, to] of a redirection (614.9)
    amount: int = 0


class EffectUsed(EventBase):
    """Part of a redirection shield is used up (614.9): `amount` points of damage."""

    type: Literal["EffectUsed"] = "EffectUsed"
    effect: int
    amount: int


class PermanentBecameCreature(EventBase):
    """Layers 4, 6 and 7b (CR 613.1d, f, g): the permanent is now a creature."""

    type: Literal["PermanentBecameCreature"] = "PermanentBecameCreature"
    obj: int
    power: int
    toughness: int
    subtypes: list[str] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)


class TurnedFaceDown(EventBase):
    """The object is turned face down (708): a card as it is cast face down (708.4,
    702.37c), or a permanent (708.2a)."""

    type: Literal["TurnedFaceDown"] = "TurnedFaceDown"
    obj: int
    manifested: bool = False  # manifested (701.40a): put onto the battlefield face down


class TurnedFaceUp(EventBase):
    """A face-down permanent is turned face up (708.8; morph's special action, 702.37e):
    the same object, with its normal characteristics."""

    type: Literal["TurnedFaceUp"] = "TurnedFaceUp"
    obj: int


class EffectEnded(EventBase):
    type: Literal["EffectEnded"] = "EffectEnded"
    effect: int


class LifeLost(EventBase):
    """Life lost other than by damage: paid or set (CR 119.3, 119.4, 119.5)."""

    type: Literal["LifeLost"] = "LifeLost"
    player: str
    amount: int


class ControlChanged(EventBase):
    """Layer 2 (CR 613.1b): the permanent's controller is now `controller`."""

    type: Literal["ControlChanged"] = "ControlChanged"
    obj: int
    controller: str


class ColorChosen(EventBase):
    type: Literal["ColorChosen"] = "ColorChosen"
    obj: int
    color: str


class PlayerChosen(EventBase):
    """"As ~ enters, choose an opponent": the permanent's chosen player (CR 614.12)."""

    type: Literal["PlayerChosen"] = "PlayerChosen"
    obj: int
    player: str


class LoopPositionRecorded(EventBase):
    """A position where a player would receive priority with a triggered ability on top
    of a stack, kept until the next optional action to find a loop of mandatory actions
    (CR 104.4b, 731.4). `position` is a hash of the game state without object ids;
    `players` control the objects involved; `restart` starts a new record (a new turn)."""

    type: Literal["LoopPositionRecorded"] = "LoopPositionRecorded"
    turn_key: str
    position: str
    players: list[str] = Field(default_factory=list)
    restart: bool = False


class LoopWatchReset(EventBase):
    """A player took an optional action (anything but passing priority): the positions
    recorded so far can't be part of a loop of mandatory actions (CR 104.4b)."""

    type: Literal["LoopWatchReset"] = "LoopWatchReset"


class DelayedTriggerCreated(EventBase):
    """A resolving ability created a delayed triggered ability (CR 603.7a): its source
    is the source of that ability, its controller that ability's (603.7d-e)."""

    type: Literal["DelayedTriggerCreated"] = "DelayedTriggerCreated"
    card: int
    owner: str
    controller: str
    source_name: str
    kind: Literal["return_from_exile", "destroy_unless_attacked"] = "return_from_exile"
    objs: list[int] = Field(default_factory=list)
    source: int | None = None


class DelayedAbilityTriggered(EventBase):
    """The delayed triggered ability at `index` of the waiting list triggered (603.7):
    it leaves the list (it triggers only once, 603.7b) and waits to be put on marker
    `marker`'s stack (603.3; 807.5b)."""

    type: Literal["DelayedAbilityTriggered"] = "DelayedAbilityTriggered"
    index: int
    marker: int


class DelayedTriggerRemoved(EventBase):
    """A delayed triggered ability done at once, off the stack (logs made before 603.7
    abilities went on the stack; no longer made)."""

    type: Literal["DelayedTriggerRemoved"] = "DelayedTriggerRemoved"
    index: int


class DamageWoreOff(EventBase):
    """Cleanup: damage is removed and "until end of turn" effects end (CR 514.2)."""

    type: Literal["DamageWoreOff"] = "DamageWoreOff"
    marker: int


class TokenCreated(EventBase):
    type: Literal["TokenCreated"] = "TokenCreated"
    obj: int
    owner: str
    token: TokenSpec


class TokenCopyCreated(EventBase):
    """A token was created already a copy of the card `of` (111.10, 707.2): it enters
    with the card's copiable values (`token` holds the token's own values, kept aside),
    so "as ~ enters" and enters-the-battlefield abilities see a copy enter (603.6a), and
    it is a token throughout (111.1)."""

    type: Literal["TokenCopyCreated"] = "TokenCopyCreated"
    obj: int
    owner: str
    token: TokenSpec
    of: int


class CardRevealed(EventBase):
    """`player` revealed the card `obj` from a hidden zone: it was shown to all players
    (701.20a); `name` is what they saw."""

    type: Literal["CardRevealed"] = "CardRevealed"
    player: str
    obj: int
    name: str


class Attached(EventBase):
    type: Literal["Attached"] = "Attached"
    obj: int
    to: int


class Unattached(EventBase):
    type: Literal["Unattached"] = "Unattached"
    obj: int


class CountersRemoved(EventBase):
    type: Literal["CountersRemoved"] = "CountersRemoved"
    obj: int
    counters: dict[str, int]


class StateBasedActionsChecked(EventBase):
    type: Literal["StateBasedActionsChecked"] = "StateBasedActionsChecked"
    marker: int
