"""Combat (CR 506-511, 702.22 banding, 805.10 team combat)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from arbiter_core.kernel.events.base import EventBase


class AttackersDeclared(EventBase):
    type: Literal["AttackersDeclared"] = "AttackersDeclared"
    marker: int
    player: str
    attacks: list[tuple[int, str]]
    bands: list[list[int]] = Field(default_factory=list)  # 702.22c


class BandBlocked(EventBase):
    """Each other creature in a blocked creature's band becomes blocked by the same
    blocking creature (CR 702.22h): the added blocker -> attacker pairs."""

    type: Literal["BandBlocked"] = "BandBlocked"
    marker: int
    blocks: list[tuple[int, int]]


class CombatDamageAssigned(EventBase):
    """A player announced how creatures assign their combat damage (CR 510.1): creature
    -> recipient ("o:<id>" or "p:<name>") -> amount."""

    type: Literal["CombatDamageAssigned"] = "CombatDamageAssigned"
    marker: int
    player: str
    assignments: list[tuple[int, dict[str, int]]]


class BlockersDeclared(EventBase):
    type: Literal["BlockersDeclared"] = "BlockersDeclared"
    marker: int
    player: str
    blocks: list[tuple[int, int]]


class FirstStrikeDamageDealt(EventBase):
    type: Literal["FirstStrikeDamageDealt"] = "FirstStrikeDamageDealt"
    marker: int
    creatures: list[int]


class CombatEnded(EventBase):
    type: Literal["CombatEnded"] = "CombatEnded"
    marker: int
