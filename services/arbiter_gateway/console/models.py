"""The console's JSON bodies (documented in `/openapi.json` with the gateway's)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from arbiter_core.views.seat import SeatView


class GameRow(BaseModel):
    """One game of the store, for the games list."""

    game_id: str
    variant: str
    players: list[str]
    status: Literal["live", "finished", "not started"]
    events: int
    winners: list[str] = Field(default_factory=list)


class GameList(BaseModel):
    games: list[GameRow]
    total: int  # games matching the filter (the list may be cut at `limit`)


class TimelineRow(BaseModel):
    version: int
    type: str
    rule: str
    actor: str | None = None  # a player, "engine", or None
    summary: str | None = None  # the event in words (judges only: it names hidden cards)


class Timeline(BaseModel):
    """One page of a game's events (`offset` counts the events that match the filters)."""

    game_id: str
    total: int  # events in the game
    matching: int  # events that match the filters (all of them without filters)
    offset: int
    rows: list[TimelineRow]
    indexed: int  # events the filter index covers (filters look only at those)
    complete: bool  # False while the index is still being built
    error: str | None = None


class Progress(BaseModel):
    """How far the console has read a game (its filter index)."""

    game_id: str
    indexed: int
    total: int
    complete: bool


class Board(BaseModel):
    """The game after event `at`, as the reader may see it."""

    at: int
    total: int
    event: TimelineRow | None  # event `at` (None at 0)
    view: SeatView


class Cause(BaseModel):
    """One link of a cause chain: an event, a command or engine work."""

    kind: Literal["event", "command", "work"]
    version: int | None = None  # the event (of the event, or the one that queued work)
    type: str  # the event's type, the command's or the work's kind
    summary: str = ""
    actor: str | None = None
    rule: str = ""
    rule_url: str | None = None  # the rule at the configured CR address (unset: None)


class Why(BaseModel):
    """Event `version` and what led to it, nearest cause first."""

    game_id: str
    version: int
    chain: list[Cause]


class ChainStatus(BaseModel):
    """The game's hash chain (`arbiter verify`'s check of one game)."""

    game_id: str
    verified: bool
    events: int
    broken_at: int | None = None  # the first bad event
    problems: list[str] = Field(default_factory=list)
    # the judge's corrections: "corrected at N by J (event V: reason; signature ...)"
    corrections: list[str] = Field(default_factory=list)


class ScenarioExport(BaseModel):
    """The position after event `at` as a scenario file (`arbiter replay --as-scenario`)."""

    game_id: str
    at: int
    yaml: str
    warnings: list[str] = Field(default_factory=list)


class ConsoleConfig(BaseModel):
    """What the page needs to know: where CR rule links point (None: not linked)."""

    cr_base: str | None = None


class CorrectionRequest(BaseModel):
    """A judge's correction: back the game up to event `at` (the tournament rules'
    backup), for `reason`."""

    at: int = Field(ge=1, le=2**53, description="the event to back up to")
    reason: str = Field(min_length=1, max_length=500)


class CorrectionMade(BaseModel):
    """The correction as appended: the game goes on from the state at `at`."""

    game_id: str
    version: int  # the correction event's own version
    at: int
    judge: str
    reason: str
