"""The base of the card models: keywords, colours, targets (CR 115) and amounts."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class DataModel(BaseModel):
    """Frozen plain data with no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


Keyword = Literal[
    "flying",
    "reach",
    "vigilance",
    "defender",
    "haste",
    "first_strike",
    "double_strike",
    "trample",
    "deathtouch",
    "lifelink",
    "persist",  # 702.79
    "menace",  # 702.111
    "banding",  # 702.22 (no "bands with other" in the pool)
]

Color = Literal["W", "U", "B", "R", "G"]

# ---------------------------------------------------------------- targets (CR 115)

TargetKind = Literal[
    "any",  # creature, player, planeswalker or battle (115.4)
    "creature",
    "player",
    "player_or_planeswalker",
    "spell",
    "artifact_or_enchantment",
    "creature_card_in_your_graveyard",
    "opponent",  # "target opponent" (Bribery)
    "creature_an_opponent_controls",  # Ray of Command
    "creature_planeswalker_or_player",  # Captain's Maneuver (no battles)
]


class TargetSpec(DataModel):
    """One target requirement of a spell or ability (CR 115.1, 601.2c).

    `min_count`/`max_count` describe "target" (1/1) or "any number of targets"
    (1/None). `not_color` restricts to objects that are not of that color (Doom Blade's
    "nonblack").
    """

    kind: TargetKind
    min_count: int = 1
    max_count: int | None = 1
    not_color: Color | None = None
    another: bool = False  # "another target": not one chosen for an earlier target


# ---------------------------------------------------------------- amounts

# "that_much": the amount of the event a trigger refers to (Souls of the Faultless's
# "that much life"), or of the effect just before it (Leeches' "that much damage").
Amount = int | Literal["X", "goblins_you_control", "that_much"]

# ---------------------------------------------------------------- effects (CR 608.2c)

TargetRef = int  # index into the ability's `targets` list
