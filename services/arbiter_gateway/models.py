"""Request and response bodies of the gateway (documented in `/openapi.json`).

Requests refuse unknown fields (`extra="forbid"`). A game's creation (`CreateGame`) is
a StartGame without its `type`: a field added to both (deck lists, options) passes
through `CreateGame.start` unchanged.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from arbiter_core.kernel.commands import (
    ActivateAbility,
    AssignCombatDamage,
    CastFaceDown,
    CastSpell,
    ChooseObjects,
    ChooseOption,
    Concede,
    DeclareAttackers,
    DeclareBlockers,
    PassPriority,
    PlayerSetup,
    PlayLand,
    RollPlanarDie,
    StartGame,
    TurnFaceUp,
)
from arbiter_runtime.audit import GAME_ID_PATTERN

MAX_BODY = 16 * 1024  # bytes; larger requests get 413
#: creating a game names every player's deck (100 players x 40 cards is ~60 KiB)
MAX_CREATE_BODY = 1024 * 1024
MAX_SEED = 2**63 - 1
MAX_DECK_LIST = 64 * 1024  # characters of one deck list (arbiter_decks.parser.MAX_BYTES)
COMMAND_ID_PATTERN = r"^[A-Za-z0-9_.\-]+$"


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ---------------------------------------------------------------------- requests


class Login(_Body):
    """Which role to log in as; the name and password go in HTTP Basic auth."""

    role: Literal["judge", "organiser"]


class CreateGame(_Body):
    """A StartGame without its `type`; `game_id` is generated when left out. `seed` is
    the client's: the game's seed is HMAC(server secret, game id, seed), recorded for
    judges only, so a client cannot predict its shuffles."""

    game_id: str | None = Field(default=None, pattern=GAME_ID_PATTERN)
    variant: str = Field(min_length=1, max_length=64)
    seed: int = Field(ge=0, le=MAX_SEED)
    players: list[PlayerSetup] = Field(min_length=1, max_length=100)
    random_seating: bool = True
    starting_life: int | None = Field(default=None, ge=1, le=1_000_000)
    attack: Literal["left", "right", "multiple", "any"] | None = None
    range_of_influence: int | None = Field(default=None, ge=1, le=100)
    deploy_creatures: bool | None = None
    shared_team_turns: bool | None = None
    #: 103.1: the starting player chosen with the game's seed (recorded in an event)
    random_start: bool = True
    #: 103.5: the London mulligan; 603.3b: players order their simultaneous triggers
    mulligans: bool = True
    order_triggers: bool = True
    #: the base of a supplementary variant (Commander over Two-Headed Giant, 903.2)
    base_variant: str | None = Field(default=None, min_length=1, max_length=64)
    #: the casual variants' options: 901.9 rolls without cost, 904.12 Supervillain
    #: Rumble, 901.15 one communal planar deck (`planar_deck`, or a list's Planar deck)
    planar_die_rolls_free: bool = False
    supervillain_rumble: bool = False
    single_planar_deck: bool = False
    planar_deck: list[Annotated[str, Field(max_length=200)]] = Field(default_factory=list,
                                                                    max_length=1000)
    #: player name -> deck list text (docs/decks.md), checked with the variant's rules
    deck_lists: dict[str, Annotated[str, Field(max_length=MAX_DECK_LIST)]] = Field(
        default_factory=dict, max_length=100)

    def start(self, game_id: str, seed: int) -> StartGame:
        """The StartGame (deck lists not yet applied: `routes.deck_lists`)."""
        fields = self.model_dump(exclude={"game_id", "seed", "deck_lists"},
                                 exclude_unset=True)
        return StartGame.model_validate({**fields, "game_id": game_id, "seed": seed,
                                         "random_seating": self.random_seating,
                                         "random_start": self.random_start,
                                         "mulligans": self.mulligans,
                                         "order_triggers": self.order_triggers})


class Join(_Body):
    seat: str = Field(min_length=1, max_length=64)


AnyPlayerCommand = Annotated[
    PassPriority | PlayLand | CastSpell | CastFaceDown | TurnFaceUp | ActivateAbility
    | DeclareAttackers | DeclareBlockers | AssignCombatDamage | ChooseObjects | ChooseOption
    | RollPlanarDie | Concede,
    Field(discriminator="type")]


class Submit(_Body):
    """A player command. `command_id` makes a retry safe (the same id is applied once);
    `expected_version` refuses the command if the game moved on since the client looked."""

    command: AnyPlayerCommand
    command_id: str | None = Field(default=None, min_length=8, max_length=80,
                                   pattern=COMMAND_ID_PATTERN)
    expected_version: int | None = Field(default=None, ge=0)


# ---------------------------------------------------------------------- responses


class Token(BaseModel):
    token: str
    role: Literal["organiser", "judge", "seat", "spectator"]
    name: str
    game_id: str | None = None
    expires_at: int  # epoch seconds


class CommandStatus(BaseModel):
    """A command's outcome as its sender (or a judge) may read it."""

    command_id: str
    status: Literal["pending", "applied", "rejected", "dead_letter"]
    version: int | None = None
    code: str | None = None
    rule: str | None = None
    field: str | None = None
    reason: str | None = None


class Created(BaseModel):
    game_id: str
    command_id: str
    outcome: CommandStatus | None = None


class LegalActions(BaseModel):
    version: int
    actions: list[AnyPlayerCommand]


class EventSummary(BaseModel):
    """An event as a seat or spectator gets it: no payload (payloads name hidden cards)."""

    model_config = ConfigDict(extra="forbid")
    version: int
    type: str
    rule: str | None


class FullEvent(BaseModel):
    """An event as a judge gets it."""

    version: int
    position: int
    type: str
    schema_version: int
    payload: dict[str, Any]
    rule: str | None
    metadata: dict[str, Any]


class AuditRecord(BaseModel):
    """A command the rules rejected (`CommandRejected`), as recorded."""

    model_config = ConfigDict(extra="allow")
    position: int
    type: str
    rule: str | None


class AccessRecord(BaseModel):
    """A judge's read of hidden information, or a game's creation (judges only: it
    names the seeds)."""

    model_config = ConfigDict(extra="allow")
    position: int
    type: Literal["JudgeRead", "GameCreated"]
    at: float
    by: str


class Problem(BaseModel):
    error: str
