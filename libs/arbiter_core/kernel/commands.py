"""Commands: requests to change the game, imperative names.

Player commands come from seats (or bots); engine commands are issued by the service that
owns a kind of pending work (turn orchestrator, stack resolver, SBA checker). Targets and
damage recipients are written "p:<player>" for a player and "o:<object id>" for an
object, and validated into typed references as the command is read (`refs.RefField`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from arbiter_core.kernel.events import CardSetup
from arbiter_core.kernel.refs import RefField


class _Command(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PlayerSetup(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str = Field(min_length=1, max_length=64)
    team: str | None = None
    deck: list[str] = Field(default_factory=list)
    # Commander (903.6): the commander, set apart from `deck` (the rest of the deck)
    commander: str | None = Field(default=None, max_length=200)
    # casual variants: a planar deck (901.3), a scheme deck (904.3), a vanguard (902.3),
    # the archenemy (904.2a)
    planar_deck: list[str] = Field(default_factory=list, max_length=1000)
    scheme_deck: list[str] = Field(default_factory=list, max_length=1000)
    vanguard: str | None = None
    archenemy: bool = False
    # 400.11a: the sideboard, cards outside the game an effect may bring in (100.4; not
    # in Commander, 903.5e)
    sideboard: list[str] = Field(default_factory=list, max_length=1000)


class StartGame(_Command):
    """Begin a game the way its variant begins one (CR 103)."""

    type: Literal["StartGame"] = "StartGame"
    game_id: str
    variant: str
    seed: int
    players: list[PlayerSetup]
    random_seating: bool = False
    starting_life: int | None = None
    attack: Literal["left", "right", "multiple", "any"] | None = None
    range_of_influence: int | None = Field(default=None, ge=1)
    deploy_creatures: bool | None = None
    shared_team_turns: bool | None = None
    #: 103.1: the starting player chosen at random with the game's seed and recorded
    #: (`StartingPlayerChosen`); without it the first seat starts (scenarios, old games)
    random_start: bool = False
    #: 103.5: the London mulligan is offered; without it the opening hands are kept
    mulligans: bool = False
    #: 603.3b: players order their simultaneous triggers (else the engine's order)
    order_triggers: bool = False
    # the base variant of a supplementary one (Commander over Two-Headed Giant, 903.2)
    base_variant: str | None = Field(default=None, max_length=64)
    planar_die_rolls_free: bool = False
    supervillain_rumble: bool = False  # 904.12
    #: 901.15: one communal planar deck (`planar_deck`), no player's own
    single_planar_deck: bool = False
    planar_deck: list[str] = Field(default_factory=list, max_length=1000)


class PositionPlayer(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    team: str | None = None
    life: int | None = None
    poison: int = 0
    zones: dict[
        Literal["library", "hand", "battlefield", "graveyard", "exile", "command",
                "planar_deck", "scheme_deck"],
        list[CardSetup],
    ] = Field(default_factory=dict)
    # Commander: the card (by name) that is this player's commander, wherever it is set
    # up (in the command zone if nowhere), and the combat damage this player has been
    # dealt by each commander so far (903.10a)
    commander: str | None = Field(default=None, max_length=200)
    commander_damage_taken: dict[str, int] = Field(default_factory=dict)
    vanguard: str | None = None
    archenemy: bool = False
    # cards this player owns outside the game (400.11, 400.11a: a sideboard)
    outside: list[str] = Field(default_factory=list, max_length=1000)


class Attachment(BaseModel):
    """Attach the card at (player, battlefield index) to the one at (player, index)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    player: str
    index: int
    to_player: str
    to_index: int


class SetUpPosition(_Command):
    """Set up a position (a judge's scenario): zones exactly as given, nothing shuffled or
    drawn; the game goes on from `turn`/`step` with `active` taking the turn."""

    type: Literal["SetUpPosition"] = "SetUpPosition"
    game_id: str
    variant: str
    seed: int
    players: list[PositionPlayer]
    attachments: list[Attachment] = Field(default_factory=list)
    turn: int = 1
    active: str
    step: str = "precombat_main"
    starting_life: int | None = None
    attack: Literal["left", "right", "multiple", "any"] | None = None
    range_of_influence: int | None = Field(default=None, ge=1)
    deploy_creatures: bool | None = None
    shared_team_turns: bool | None = None
    team_life: dict[str, int] = Field(default_factory=dict)
    team_poison: dict[str, int] = Field(default_factory=dict)
    markers: dict[int, str] = Field(default_factory=dict)  # Grand Melee: number -> holder
    # permanents set up face down (708.2a), as (player, battlefield index)
    face_down: list[tuple[str, int]] = Field(default_factory=list)
    order_triggers: bool = False  # 603.3b, as in StartGame
    base_variant: str | None = Field(default=None, max_length=64)
    planar_die_rolls_free: bool = False
    supervillain_rumble: bool = False  # 904.12
    #: 901.15: the communal planar deck is the one listed in a player's `planar_deck`
    single_planar_deck: bool = False
    # a judge's "suppose the planar die comes up ...": the next results, in order
    planar_die: list[Literal["blank", "chaos", "planeswalker"]] = Field(
        default_factory=list, max_length=100)


class RunEngineWork(_Command):
    """Do the engine work a marker's pending-work marker names (one owner per kind)."""

    type: Literal["RunEngineWork"] = "RunEngineWork"
    marker: int = 1


class PassPriority(_Command):
    type: Literal["PassPriority"] = "PassPriority"
    player: str
    marker: int | None = None


class PlayLand(_Command):
    type: Literal["PlayLand"] = "PlayLand"
    player: str
    card: int
    marker: int | None = None


class CastSpell(_Command):
    type: Literal["CastSpell"] = "CastSpell"
    player: str
    card: int
    targets: list[list[RefField]] = Field(default_factory=list)
    x: int = Field(default=0, ge=0, le=1000)
    pay: list[int] | None = None  # mana sources to use; None pays automatically
    marker: int | None = None


class CastFaceDown(_Command):
    """Cast a card from the hand face down, as a 2/2 creature for {3}, by its morph
    ability (702.37c)."""

    type: Literal["CastFaceDown"] = "CastFaceDown"
    player: str
    card: int
    pay: list[int] | None = None  # mana sources to use; None pays automatically
    marker: int | None = None


class TurnFaceUp(_Command):
    """Turn a face-down permanent you control face up, a special action (116.2b): by
    paying its morph cost (702.37e) or, if it is manifested, the mana cost of its
    creature card (701.40b). `using` names the procedure ("morph", "manifest"); None:
    the first that applies."""

    type: Literal["TurnFaceUp"] = "TurnFaceUp"
    player: str
    card: int
    using: str | None = Field(default=None, max_length=32)
    pay: list[int] | None = None
    marker: int | None = None


class ActivateAbility(_Command):
    type: Literal["ActivateAbility"] = "ActivateAbility"
    player: str
    source: int
    ability: int
    targets: list[list[RefField]] = Field(default_factory=list)
    pay: list[int] | None = None
    marker: int | None = None
    #: permanents sacrificed to pay its cost (118.3, 701.21a; Bosh, Iron Golem Avatar)
    sacrifice: list[int] | None = None


class DeclareAttackers(_Command):
    type: Literal["DeclareAttackers"] = "DeclareAttackers"
    player: str
    attacks: list[tuple[int, str]] = Field(default_factory=list)  # creature -> player
    bands: list[list[int]] = Field(default_factory=list)  # attacking bands (702.22c)
    marker: int | None = None


class DeclareBlockers(_Command):
    type: Literal["DeclareBlockers"] = "DeclareBlockers"
    player: str
    blocks: list[tuple[int, int]] = Field(default_factory=list)  # blocker -> attacker
    marker: int | None = None


class AssignCombatDamage(_Command):
    """Per attacking or blocking creature asked about, damage to each recipient
    ("o:<creature>" or "p:<player>")."""

    type: Literal["AssignCombatDamage"] = "AssignCombatDamage"
    player: str
    assignments: dict[int, dict[RefField, int]]
    marker: int | None = None


class ChooseObjects(_Command):
    """Answer a decision that chooses objects (the legend to keep, cards to discard);
    `players` for a decision that chooses players too (proliferate, 701.34a)."""

    type: Literal["ChooseObjects"] = "ChooseObjects"
    player: str
    choices: list[int]
    players: list[str] = Field(default_factory=list)
    marker: int | None = None


class ChooseOption(_Command):
    """Answer a decision among named options (a color, 614.12)."""

    type: Literal["ChooseOption"] = "ChooseOption"
    player: str
    option: str
    marker: int | None = None


class RollPlanarDie(_Command):
    """Roll the planar die, a special action (CR 901.9)."""

    type: Literal["RollPlanarDie"] = "RollPlanarDie"
    player: str
    marker: int | None = None


class Concede(_Command):
    type: Literal["Concede"] = "Concede"
    player: str


PlayerCommand = (
    PassPriority
    | PlayLand
    | CastSpell
    | CastFaceDown
    | TurnFaceUp
    | ActivateAbility
    | DeclareAttackers
    | DeclareBlockers
    | AssignCombatDamage
    | ChooseObjects
    | ChooseOption
    | RollPlanarDie
    | Concede
)

Command = Annotated[
    StartGame
    | SetUpPosition
    | RunEngineWork
    | PassPriority
    | PlayLand
    | CastSpell
    | CastFaceDown
    | TurnFaceUp
    | ActivateAbility
    | DeclareAttackers
    | DeclareBlockers
    | AssignCombatDamage
    | ChooseObjects
    | ChooseOption
    | RollPlanarDie
    | Concede,
    Field(discriminator="type"),
]

COMMAND_ADAPTER: TypeAdapter[Command] = TypeAdapter(Command)
