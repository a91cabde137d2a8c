"""Starting the game, turn markers (CR 807.4), leaving and ending the game (104, 800.4)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from arbiter_core.kernel.events.base import CardSetup, EventBase


class GameStarted(EventBase):
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


class CardsPut(EventBase):
    """Cards are put into a zone at setup (decks into libraries, or a position)."""

    type: Literal["CardsPut"] = "CardsPut"
    player: str
    zone: Literal["library", "hand", "battlefield", "graveyard", "exile", "command",
                  "planar_deck", "scheme_deck"]
    cards: list[CardSetup]
    first_id: int


class MarkerPlaced(EventBase):
    """A turn marker is given to a player taking a turn (CR 500, 807.4a)."""

    type: Literal["MarkerPlaced"] = "MarkerPlaced"
    marker: int
    holder: str
    turn: int
    step: str
    skip_draw: bool = False
    waiting: bool = False


class MarkerPassed(EventBase):
    """A turn marker goes to another player (CR 807.4c); `waiting` when that player
    can't begin their turn yet (807.4d)."""

    type: Literal["MarkerPassed"] = "MarkerPassed"
    marker: int
    to: str
    waiting: bool = False


class MarkerDesignatedForRemoval(EventBase):
    type: Literal["MarkerDesignatedForRemoval"] = "MarkerDesignatedForRemoval"
    marker: int
    times: int = 1


class MarkerRemoved(EventBase):
    type: Literal["MarkerRemoved"] = "MarkerRemoved"
    marker: int


class NormalTurnOwed(EventBase):
    """CR 807.4i-j: after the deferred extra turn, the player's own turn follows."""

    type: Literal["NormalTurnOwed"] = "NormalTurnOwed"
    marker: int
    player: str


class ExtraTurnDeferred(EventBase):
    """CR 807.4i-j: the extra turn is taken just before the player's next turn."""

    type: Literal["ExtraTurnDeferred"] = "ExtraTurnDeferred"
    marker: int
    player: str


class ExtraTurnAdded(EventBase):
    type: Literal["ExtraTurnAdded"] = "ExtraTurnAdded"
    marker: int
    player: str


class PlayerLost(EventBase):
    type: Literal["PlayerLost"] = "PlayerLost"
    player: str


class PlayerConceded(EventBase):
    type: Literal["PlayerConceded"] = "PlayerConceded"
    player: str


class PlayerLeftGame(EventBase):
    """A player leaves the game; their objects leave with them (CR 800.4a)."""

    type: Literal["PlayerLeftGame"] = "PlayerLeftGame"
    player: str


class PlayerDrew(EventBase):
    """The game is a draw for this player, who leaves it while it goes on for others
    (CR 801.15, 104.4e)."""

    type: Literal["PlayerDrew"] = "PlayerDrew"
    player: str


class GameEnded(EventBase):
    type: Literal["GameEnded"] = "GameEnded"
    winners: list[str]
    draw: bool = False
