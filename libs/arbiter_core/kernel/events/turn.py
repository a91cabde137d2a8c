"""Turns, steps, priority, pending work, draws and mana (CR 500-514, 117, 106)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from arbiter_core.kernel.events.base import EventBase


class LibraryShuffled(EventBase):
    type: Literal["LibraryShuffled"] = "LibraryShuffled"
    player: str
    order: list[int]  # object ids, top first


class CardDrawn(EventBase):
    type: Literal["CardDrawn"] = "CardDrawn"
    player: str
    obj: int
    new_id: int


class DrawFromEmptyLibraryAttempted(EventBase):
    type: Literal["DrawFromEmptyLibraryAttempted"] = "DrawFromEmptyLibraryAttempted"
    player: str


class StateCheckpointed(EventBase):
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


class TurnBegan(EventBase):
    type: Literal["TurnBegan"] = "TurnBegan"
    marker: int
    player: str
    turn: int
    extra: bool = False


class StepBegan(EventBase):
    type: Literal["StepBegan"] = "StepBegan"
    marker: int
    step: str


class PermanentsUntapped(EventBase):
    type: Literal["PermanentsUntapped"] = "PermanentsUntapped"
    objs: list[int]


class PermanentTapped(EventBase):
    type: Literal["PermanentTapped"] = "PermanentTapped"
    obj: int


class WorkQueued(EventBase):
    """The engine owes work on a marker (the pending-work marker)."""

    type: Literal["WorkQueued"] = "WorkQueued"
    marker: int
    kind: Literal[
        "turn_based_actions", "check_sba", "put_triggers", "resolve_top", "advance_step"
    ]
    then_priority: str | None = None


class PriorityGiven(EventBase):
    type: Literal["PriorityGiven"] = "PriorityGiven"
    marker: int
    player: str


class PriorityPassed(EventBase):
    type: Literal["PriorityPassed"] = "PriorityPassed"
    marker: int
    player: str


class DecisionRequested(EventBase):
    type: Literal["DecisionRequested"] = "DecisionRequested"
    marker: int
    kind: Literal[
        "choose_mode", "pay_life_for",
        "declare_attackers", "declare_blockers", "assign_combat_damage", "legend_rule", "discard",
        "search", "choose_color", "choose_team_member", "proliferate", "redistribute",
        "choose_opponent", "choose_card", "choose_plane", "pay_or_not", "choose_active_player",
        "you_may", "self_or_others", "sacrifice", "search_to_hand",
        "choose_targets", "choose_copy", "choose_copy_original", "choose_mana_color",
        "order_library_bottom", "mulligan", "mulligan_bottom",
        "order_triggers", "opening_hand", "opening_hand_order",
        "commander_zone", "put_attacking", "sacrifice_cost", "replacement_order",
        "outside_card", "loot_discard", "choose_mana_type", "hybrid_mana",
        "order_copies",
    ]
    player: str
    options: list[int] = Field(default_factory=list)
    count: int = 0
    stack_item: int | None = None
    choices: list[str] = Field(default_factory=list)
    min_count: int | None = None


class LandPlayed(EventBase):
    type: Literal["LandPlayed"] = "LandPlayed"
    player: str
    obj: int
    new_id: int


class ManaAdded(EventBase):
    type: Literal["ManaAdded"] = "ManaAdded"
    player: str
    mana: str
    source: int | None = None


class ManaSpent(EventBase):
    type: Literal["ManaSpent"] = "ManaSpent"
    player: str
    mana: str


class ManaEmptied(EventBase):
    type: Literal["ManaEmptied"] = "ManaEmptied"
    players: list[str]
