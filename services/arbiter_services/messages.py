"""Payloads of every Kafka topic (pydantic, `extra="forbid"`). Topics are in topics.py."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from arbiter_runtime.audit import GAME_ID_PATTERN

GameId = Field(pattern=GAME_ID_PATTERN)


class _Msg(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CommandEnvelope(_Msg):
    """A command for one game, published by the gateway (or a tool) to the topic of the
    one service that consumes its kind. `command` is the core command as JSON; `actor` is
    the authenticated seat (or `organizer` for StartGame). `expected_version`, when set,
    rejects the command if the game has moved on since the sender looked."""

    game_id: str = GameId
    command_id: str = Field(min_length=8, max_length=80)
    actor: str = Field(min_length=1, max_length=64)
    command: dict[str, Any]
    expected_version: int | None = Field(default=None, ge=0)
    correlation_id: str | None = None
    causation_id: str | None = None


class WorkItem(_Msg):
    """Engine work the game owes, seen by the dispatcher at stream `version`. The owner
    acts only if the game is still at `version` with this work pending on `marker`, so a
    redelivered or stale item is a no-op; `work_id` is (game, version, kind, marker)."""

    game_id: str = GameId
    marker: int = Field(ge=1)
    version: int = Field(ge=1)
    kind: str
    owner: str
    correlation_id: str | None = None
    causation_id: str | None = None
    #: the W3C trace context of the relay's dispatch (the relay publishes many games'
    #: work in one batch, whose headers can carry only one)
    trace: dict[str, str] | None = None

    @property
    def work_id(self) -> str:
        return f"{self.game_id}:{self.version}:{self.kind}:{self.marker}"


class EventMessage(_Msg):
    """A stored event of a game stream, published after commit by the relay. It carries
    hidden information (libraries, hands): for services and judges only; the gateway
    turns it into seat views."""

    game_id: str = GameId
    version: int = Field(ge=1)
    position: int = Field(ge=1)
    type: str
    schema_version: int = Field(ge=1)
    payload: dict[str, Any]
    rule: str | None
    metadata: dict[str, Any]
    last_in_batch: bool = True


class AuditMessage(_Msg):
    """An entry of a game's audit stream (a rejected command), published by the relay."""

    game_id: str = GameId
    position: int = Field(ge=1)
    type: Literal["CommandRejected"]
    payload: dict[str, Any]
    rule: str | None
    metadata: dict[str, Any]
