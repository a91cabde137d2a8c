"""Events: facts that happened, past tense, each citing the CR rule that made it.

Every event is a frozen pydantic model with a `type` discriminator, a schema version `v`
and the `rule` (a CR number from the committed index, `rules_index.py`). Outcomes of
randomness (shuffles, random discards) are inside the events, so a replay is exact.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from arbiter_core.cards.model import TokenSpec


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    v: int = 1
    rule: str


class CardSetup(BaseModel):
    """A card put somewhere at setup: a deck card, or a scenario position's card."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    tapped: bool = False
    counters: dict[str, int] = Field(default_factory=dict)
    damage: int = 0
    controller: str | None = None
    sick: bool = False


class GameStarted(_Event):
    type: Literal["GameStarted"] = "GameStarted"
    game_id: str
    variant: str
    seed: int
    seats: list[str]
    teams: dict[str, str]
    life: dict[str, int]
    poison: dict[str, int] = Field(default_factory=dict)
    attack_option: Literal["left", "right", "multiple", "any"] = "multiple"
    range_of_influence: int | None = None
    ranges: dict[str, int] = Field(default_factory=dict)
    shared_team_turns: bool = False
    shared_life: bool = False
    deploy_creatures: bool = False
    attack_adjacent_only: bool = False
    poison_limit: int = 10
    emperors: list[str] = Field(default_factory=list)
    grand_melee: bool = False
    engine_version: str
    rules_edition: str
    card_data_hash: str


class CardsPut(_Event):
    """Cards are put into a zone at setup (decks into libraries, or a position)."""

    type: Literal["CardsPut"] = "CardsPut"
    player: str
    zone: Literal["library", "hand", "battlefield", "graveyard", "exile", "command"]
    cards: list[CardSetup]
    first_id: int


class MarkerPlaced(_Event):
    """A turn marker is given to a player taking a turn (CR 500, 807.4a)."""

    type: Literal["MarkerPlaced"] = "MarkerPlaced"
    marker: int
    holder: str
    turn: int
    step: str
    skip_draw: bool = False
    waiting: bool = False


class MarkerPassed(_Event):
    """A turn marker goes to another player (CR 807.4c); `waiting` when that player
    can't begin their turn yet (807.4d)."""

    type: Literal["MarkerPassed"] = "MarkerPassed"
    marker: int
    to: str
    waiting: bool = False


class MarkerDesignatedForRemoval(_Event):
    type: Literal["MarkerDesignatedForRemoval"] = "MarkerDesignatedForRemoval"
    marker: int
    times: int = 1


class MarkerRemoved(_Event):
    type: Literal["MarkerRemoved"] = "MarkerRemoved"
    marker: int


class NormalTurnOwed(_Event):
    """CR 807.4i-j: after the deferred extra turn, the player's own turn follows."""

    type: Literal["NormalTurnOwed"] = "NormalTurnOwed"
    marker: int
    player: str


class ExtraTurnDeferred(_Event):
    """CR 807.4i-j: the extra turn is taken just before the player's next turn."""

    type: Literal["ExtraTurnDeferred"] = "ExtraTurnDeferred"
    marker: int
    player: str


class LibraryShuffled(_Event):
    type: Literal["LibraryShuffled"] = "LibraryShuffled"
    player: str
    order: list[int]  # object ids, top first


class CardDrawn(_Event):
    type: Literal["CardDrawn"] = "CardDrawn"
    player: str
    obj: int
    new_id: int


class DrawFromEmptyLibraryAttempted(_Event):
    type: Literal["DrawFromEmptyLibraryAttempted"] = "DrawFromEmptyLibraryAttempted"
    player: str


class StateCheckpointed(_Event):
    """The canonical state hash as a turn is about to begin (every turn): a replay, or
    another engine version, finds the first turn where its state differs. Cites 500.1
    (a new turn begins); it changes nothing in the game."""

    type: Literal["StateCheckpointed"] = "StateCheckpointed"
    v: int = 2
    marker: int
    state_hash: str
    # v2: which hash it is. v1 checkpoints were SHA-256 of the canonical JSON; v2 is the
    # faster canonical text (hashing.state_hash). Upcast in arbiter_runtime.codec.
    algorithm: Literal["json-sha256", "text-sha256"]


class TurnBegan(_Event):
    type: Literal["TurnBegan"] = "TurnBegan"
    marker: int
    player: str
    turn: int
    extra: bool = False


class StepBegan(_Event):
    type: Literal["StepBegan"] = "StepBegan"
    marker: int
    step: str


class PermanentsUntapped(_Event):
    type: Literal["PermanentsUntapped"] = "PermanentsUntapped"
    objs: list[int]


class PermanentTapped(_Event):
    type: Literal["PermanentTapped"] = "PermanentTapped"
    obj: int


class WorkQueued(_Event):
    """The engine owes work on a marker (the pending-work marker)."""

    type: Literal["WorkQueued"] = "WorkQueued"
    marker: int
    kind: Literal[
        "turn_based_actions", "check_sba", "put_triggers", "resolve_top", "advance_step"
    ]
    then_priority: str | None = None


class PriorityGiven(_Event):
    type: Literal["PriorityGiven"] = "PriorityGiven"
    marker: int
    player: str


class PriorityPassed(_Event):
    type: Literal["PriorityPassed"] = "PriorityPassed"
    marker: int
    player: str


class DecisionRequested(_Event):
    type: Literal["DecisionRequested"] = "DecisionRequested"
    marker: int
    kind: Literal[
        "choose_mode", "pay_life_for",
        "declare_attackers", "declare_blockers", "assign_combat_damage", "legend_rule", "discard",
        "search", "choose_color", "choose_team_member", "proliferate", "redistribute",
        "choose_opponent", "choose_card", "pay_or_not", "choose_active_player",
    ]
    player: str
    options: list[int] = Field(default_factory=list)
    count: int = 0
    stack_item: int | None = None
    choices: list[str] = Field(default_factory=list)
    min_count: int | None = None


class LandPlayed(_Event):
    type: Literal["LandPlayed"] = "LandPlayed"
    player: str
    obj: int
    new_id: int


class ManaAdded(_Event):
    type: Literal["ManaAdded"] = "ManaAdded"
    player: str
    mana: str
    source: int | None = None


class ManaSpent(_Event):
    type: Literal["ManaSpent"] = "ManaSpent"
    player: str
    mana: str


class ManaEmptied(_Event):
    type: Literal["ManaEmptied"] = "ManaEmptied"
    players: list[str]


class SpellCast(_Event):
    type: Literal["SpellCast"] = "SpellCast"
    player: str
    obj: int
    new_id: int
    item: int
    marker: int
    targets: list[list[str]] = Field(default_factory=list)
    x: int = 0


class AbilityActivated(_Event):
    type: Literal["AbilityActivated"] = "AbilityActivated"
    player: str
    source: int
    ability: int
    item: int
    marker: int
    targets: list[list[str]] = Field(default_factory=list)


class AbilityTriggered(_Event):
    type: Literal["AbilityTriggered"] = "AbilityTriggered"
    source: int
    source_name: str
    controller: str
    ability: int
    marker: int
    that_player: str | None = None
    amount: int = 0
    obj: int | None = None


class TriggerPutOnStack(_Event):
    type: Literal["TriggerPutOnStack"] = "TriggerPutOnStack"
    index: int  # position in the waiting-trigger list
    item: int
    marker: int


class StackItemResolved(_Event):
    """The top of a stack finished resolving and leaves it (CR 608.2n, 608.3)."""

    type: Literal["StackItemResolved"] = "StackItemResolved"
    item: int
    marker: int


class StackItemCountered(_Event):
    type: Literal["StackItemCountered"] = "StackItemCountered"
    item: int
    marker: int


class ResolutionPaused(_Event):
    """Resolution waits for a decision; it resumes at effect `resume_at`."""

    type: Literal["ResolutionPaused"] = "ResolutionPaused"
    item: int
    resume_at: int


class TeamMemberChosen(_Event):
    """A team chose the member a resolving effect affects (CR 810.9d)."""

    type: Literal["TeamMemberChosen"] = "TeamMemberChosen"
    item: int
    player: str


class ChooserChosen(_Event):
    """The player who makes a resolving effect's choice is named ("an opponent
    chooses", 801.5a, 801.5c, 800.4g)."""

    type: Literal["ChooserChosen"] = "ChooserChosen"
    item: int
    player: str


class ModeChosen(_Event):
    """The mode of a modal spell is chosen as it is cast (CR 601.2b, 700.2), by `player`
    (700.2e: another player when the spell says so; "that player" on resolution)."""

    type: Literal["ModeChosen"] = "ModeChosen"
    item: int
    mode: int  # 0 for the first mode printed
    player: str


class LifePaymentChosen(_Event):
    """A player chose which of their creatures they pay life for, to keep them (Killing
    Wave); the payments happen together once every player has chosen (119.4, 810.9b)."""

    type: Literal["LifePaymentChosen"] = "LifePaymentChosen"
    item: int
    player: str
    objs: list[int] = Field(default_factory=list)


class ObjectMoved(_Event):
    """An object changes zones and becomes a new object (CR 400.7)."""

    type: Literal["ObjectMoved"] = "ObjectMoved"
    obj: int
    new_id: int
    to_zone: Literal["library", "hand", "battlefield", "graveyard", "exile", "stack", "command"]
    to_player: str
    controller: str | None = None


class ObjectCeasedToExist(_Event):
    type: Literal["ObjectCeasedToExist"] = "ObjectCeasedToExist"
    obj: int


class DamageDealt(_Event):
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


class LifeGained(_Event):
    type: Literal["LifeGained"] = "LifeGained"
    player: str
    amount: int


class PoisonCountersChanged(_Event):
    """A player gets (`amount` > 0) or loses poison counters (CR 122.1f); in
    Two-Headed Giant the team's count changes (810.10, 810.10b)."""

    type: Literal["PoisonCountersChanged"] = "PoisonCountersChanged"
    player: str
    amount: int


class CountersPut(_Event):
    """Counters are put on a permanent (CR 122.6; proliferate, 701.34a)."""

    type: Literal["CountersPut"] = "CountersPut"
    obj: int
    counters: dict[str, int]


class EffectCreated(_Event):
    type: Literal["EffectCreated"] = "EffectCreated"
    kind: Literal["pt", "prevent_combat_damage", "control", "keyword", "become_creature",
                  "detain", "redirect", "attack_requirement"]
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


class EffectUsed(_Event):
    """Part of a redirection shield is used up (614.9): `amount` points of damage."""

    type: Literal["EffectUsed"] = "EffectUsed"
    effect: int
    amount: int


class PermanentBecameCreature(_Event):
    """Layers 4, 6 and 7b (CR 613.1d, f, g): the permanent is now a creature."""

    type: Literal["PermanentBecameCreature"] = "PermanentBecameCreature"
    obj: int
    power: int
    toughness: int
    subtypes: list[str] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)


class EffectEnded(_Event):
    type: Literal["EffectEnded"] = "EffectEnded"
    effect: int


class LifeLost(_Event):
    """Life lost other than by damage: paid or set (CR 119.3, 119.4, 119.5)."""

    type: Literal["LifeLost"] = "LifeLost"
    player: str
    amount: int


class ControlChanged(_Event):
    """Layer 2 (CR 613.1b): the permanent's controller is now `controller`."""

    type: Literal["ControlChanged"] = "ControlChanged"
    obj: int
    controller: str


class ColorChosen(_Event):
    type: Literal["ColorChosen"] = "ColorChosen"
    obj: int
    color: str


class PlayerChosen(_Event):
    """"As ~ enters, choose an opponent": the permanent's chosen player (CR 614.12)."""

    type: Literal["PlayerChosen"] = "PlayerChosen"
    obj: int
    player: str


class LoopPositionRecorded(_Event):
    """A position where a player would receive priority with a triggered ability on top
    of a stack, kept until the next optional action to find a loop of mandatory actions
    (CR 104.4b, 731.4). `position` is a hash of the game state without object ids;
    `players` control the objects involved; `restart` starts a new record (a new turn)."""

    type: Literal["LoopPositionRecorded"] = "LoopPositionRecorded"
    turn_key: str
    position: str
    players: list[str] = Field(default_factory=list)
    restart: bool = False


class LoopWatchReset(_Event):
    """A player took an optional action (anything but passing priority): the positions
    recorded so far can't be part of a loop of mandatory actions (CR 104.4b)."""

    type: Literal["LoopWatchReset"] = "LoopWatchReset"


class DelayedTriggerCreated(_Event):
    type: Literal["DelayedTriggerCreated"] = "DelayedTriggerCreated"
    card: int
    owner: str
    controller: str
    source_name: str
    kind: Literal["return_from_exile", "destroy_unless_attacked"] = "return_from_exile"
    objs: list[int] = Field(default_factory=list)


class DelayedTriggerRemoved(_Event):
    type: Literal["DelayedTriggerRemoved"] = "DelayedTriggerRemoved"
    index: int


class DamageWoreOff(_Event):
    """Cleanup: damage is removed and "until end of turn" effects end (CR 514.2)."""

    type: Literal["DamageWoreOff"] = "DamageWoreOff"
    marker: int


class AttackersDeclared(_Event):
    type: Literal["AttackersDeclared"] = "AttackersDeclared"
    marker: int
    player: str
    attacks: list[tuple[int, str]]
    bands: list[list[int]] = Field(default_factory=list)  # 702.22c


class BandBlocked(_Event):
    """Each other creature in a blocked creature's band becomes blocked by the same
    blocking creature (CR 702.22h): the added blocker -> attacker pairs."""

    type: Literal["BandBlocked"] = "BandBlocked"
    marker: int
    blocks: list[tuple[int, int]]


class CombatDamageAssigned(_Event):
    """A player announced how creatures assign their combat damage (CR 510.1): creature
    -> recipient ("o:<id>" or "p:<name>") -> amount."""

    type: Literal["CombatDamageAssigned"] = "CombatDamageAssigned"
    marker: int
    player: str
    assignments: list[tuple[int, dict[str, int]]]


class BlockersDeclared(_Event):
    type: Literal["BlockersDeclared"] = "BlockersDeclared"
    marker: int
    player: str
    blocks: list[tuple[int, int]]


class FirstStrikeDamageDealt(_Event):
    type: Literal["FirstStrikeDamageDealt"] = "FirstStrikeDamageDealt"
    marker: int
    creatures: list[int]


class CombatEnded(_Event):
    type: Literal["CombatEnded"] = "CombatEnded"
    marker: int


class TokenCreated(_Event):
    type: Literal["TokenCreated"] = "TokenCreated"
    obj: int
    owner: str
    token: TokenSpec


class Attached(_Event):
    type: Literal["Attached"] = "Attached"
    obj: int
    to: int


class Unattached(_Event):
    type: Literal["Unattached"] = "Unattached"
    obj: int


class CountersRemoved(_Event):
    type: Literal["CountersRemoved"] = "CountersRemoved"
    obj: int
    counters: dict[str, int]


class StateBasedActionsChecked(_Event):
    type: Literal["StateBasedActionsChecked"] = "StateBasedActionsChecked"
    marker: int


class ExtraTurnAdded(_Event):
    type: Literal["ExtraTurnAdded"] = "ExtraTurnAdded"
    marker: int
    player: str


class PlayerLost(_Event):
    type: Literal["PlayerLost"] = "PlayerLost"
    player: str


class PlayerConceded(_Event):
    type: Literal["PlayerConceded"] = "PlayerConceded"
    player: str


class PlayerLeftGame(_Event):
    """A player leaves the game; their objects leave with them (CR 800.4a)."""

    type: Literal["PlayerLeftGame"] = "PlayerLeftGame"
    player: str


class PlayerDrew(_Event):
    """The game is a draw for this player, who leaves it while it goes on for others
    (CR 801.15, 104.4e)."""

    type: Literal["PlayerDrew"] = "PlayerDrew"
    player: str


class GameEnded(_Event):
    type: Literal["GameEnded"] = "GameEnded"
    winners: list[str]
    draw: bool = False


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
    | StackItemResolved
    | StackItemCountered
    | ResolutionPaused
    | TeamMemberChosen
    | ChooserChosen
    | ModeChosen
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
