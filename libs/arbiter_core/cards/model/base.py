"""The base of the card models: keywords, colours, targets (CR 115) and amounts."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict


class DataModel(BaseModel):
    """Frozen plain data with no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


# Keywords (CR 702): each known keyword, with the words the Oracle prints it with and its
# reminder text (CR 207.2a). A keyword ability names one of them; a mechanic module adds
# its own (`register_keyword`) beside its rule.
KEYWORD_NAMES: dict[str, str] = {
    "flying": "flying",
    "reach": "reach",
    "vigilance": "vigilance",
    "defender": "defender",
    "haste": "haste",
    "first_strike": "first strike",
    "double_strike": "double strike",
    "trample": "trample",
    "deathtouch": "deathtouch",
    "lifelink": "lifelink",
    "persist": "persist",
    "menace": "menace",
    "banding": "banding",
}

# Reminder text for a keyword an effect grants until end of turn (CR 207.2a).
GRANTED_REMINDERS: dict[str, str] = {
    "haste": "It can attack and {T} this turn.",
}

# Reminder text as the Oracle prints it for each keyword (CR 207.2a).
KEYWORD_REMINDERS: dict[str, str] = {
    "flying": "This creature can't be blocked except by creatures with flying or reach.",
    "reach": "This creature can block creatures with flying.",
    "vigilance": "Attacking doesn't cause this creature to tap.",
    "defender": "This creature can't attack.",
    "haste": "This creature can attack and {T} as soon as it comes under your control.",
    "first_strike": "This creature deals combat damage before creatures without first strike.",
    "double_strike": "This creature deals both first-strike and regular combat damage.",
    "trample": (
        "This creature can deal excess combat damage to the player or planeswalker it's attacking."
    ),
    "deathtouch": "Any amount of damage this deals to a creature is enough to destroy it.",
    "lifelink": "Damage dealt by this creature also causes you to gain that much life.",
    "persist": (
        "When this creature dies, if it had no -1/-1 counters on it, return it to the "
        "battlefield under its owner's control with a -1/-1 counter on it."
    ),
    "menace": "This creature can't be blocked except by two or more creatures.",
    "banding": (
        "Any creatures with banding, and up to one without, can attack in a band. Bands are "
        "blocked as a group. If any creatures with banding you control are blocking or being "
        "blocked by a creature, you divide that creature's combat damage, not its controller, "
        "among any of the creatures it's being blocked by or is blocking."
    ),
}



def register_keyword(name: str, words: str, reminder: str, granted_reminder: str = "") -> None:
    """Add a keyword (CR 702) to the vocabulary: its printed words and reminder text."""
    if name in KEYWORD_NAMES:
        raise ValueError(f"keyword {name!r} is registered already")
    KEYWORD_NAMES[name] = words
    KEYWORD_REMINDERS[name] = reminder
    if granted_reminder:
        GRANTED_REMINDERS[name] = granted_reminder


def _known_keyword(name: str) -> str:
    if name not in KEYWORD_NAMES:
        raise ValueError(f"unknown keyword {name!r}")
    return name


Keyword = Annotated[str, AfterValidator(_known_keyword)]

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
    "goblin_card_in_your_graveyard",  # Wort, Boggart Auntie
    "opponent",  # "target opponent" (Bribery)
    "creature_an_opponent_controls",  # Ray of Command
    "creature_planeswalker_or_player",  # Captain's Maneuver (no battles)
    "noncreature_artifact",  # Karn, Silver Golem
    "red_green_or_white_creature_you_control",  # Naya's chaos ability
    "creature_you_control",  # Takenuma's chaos ability
    "creature_card_in_an_opponents_graveyard",  # My Undead Horde Awakens
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
