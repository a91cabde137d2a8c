"""The base of every event and the card records used at setup."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class EventBase(BaseModel):
    """Frozen, no unknown fields; `v` is the schema version, `rule` the CR number."""

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
