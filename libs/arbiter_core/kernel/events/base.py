"""The base of every event, the registry of event types, and the card records used at
setup.

Defining an event class registers it by its `type` (`EVENT_TYPES`): a rule package may
add events of its own beside its rule, and the store's decoder finds them by name. Two
classes with one `type` raise at import (`DuplicateEntry`).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from arbiter_core.kernel.registry import Registry


class EventBase(BaseModel):
    """Frozen, no unknown fields; `v` is the schema version, `rule` the CR number."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    v: int = 1
    rule: str
    type: str  # each event class narrows it to its own name (a Literal)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        field = cls.model_fields.get("type")
        if field is not None and isinstance(field.default, str):
            EVENT_TYPES.add(field.default, cls)


EVENT_TYPES: Registry[str, type[EventBase]] = Registry("event type")


class CardSetup(BaseModel):
    """A card put somewhere at setup: a deck card, or a scenario position's card."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    tapped: bool = False
    counters: dict[str, int] = Field(default_factory=dict)
    damage: int = 0
    controller: str | None = None
    sick: bool = False
