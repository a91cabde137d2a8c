"""Request bodies of the gateway (unknown fields are refused: `extra="forbid"`)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from arbiter_runtime.audit import GAME_ID_PATTERN

MAX_BODY = 16 * 1024  # bytes; larger requests get 413
MAX_DECK_LIST = 64 * 1024  # characters of one deck list (arbiter_decks.parser.MAX_BYTES)
#: creating a game names every player's deck (100 players x 40 cards is ~60 KiB)
MAX_CREATE_BODY = 1024 * 1024


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateGame(_Body):
    """A StartGame without its `type`; `game_id` is generated when left out."""

    game_id: str | None = Field(default=None, pattern=GAME_ID_PATTERN)
    variant: str = Field(min_length=1, max_length=64)
    seed: int
    players: list[dict[str, Any]] = Field(min_length=1, max_length=100)
    options: dict[str, Any] = Field(default_factory=dict)  # other StartGame fields
    random_seating: bool = True
    #: player name -> deck list text (docs/decks.md), checked with the variant's rules
    deck_lists: dict[str, Annotated[str, Field(max_length=MAX_DECK_LIST)]] = Field(
        default_factory=dict, max_length=100)


class Join(_Body):
    seat: str = Field(min_length=1, max_length=64)


class Submit(_Body):
    """A player command. `command_id` makes a retry safe (the same id is applied once);
    `expected_version` refuses the command if the game moved on since the client looked."""

    command: dict[str, Any]
    command_id: str | None = Field(default=None, min_length=8, max_length=80,
                                   pattern=r"^[A-Za-z0-9_.:\-]+$")
    expected_version: int | None = Field(default=None, ge=0)
