"""Declarative card abilities: data that the rules core interprets, never callables.

A card definition is a list of abilities (CR 113) built from the frozen pydantic models
below. Each model is plain data a judge can read; `render.py` turns it back into English
so it can be compared with the card's Oracle text. The rules core interprets these in
`effects.py` (resolution, CR 608.2), `casting.py` (targets and costs, CR 601.2) and
`layers.py` (static abilities, CR 604 and 613).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _Data(BaseModel):
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
]


class TargetSpec(_Data):
    """One target requirement of a spell or ability (CR 115.1, 601.2c).

    `min_count`/`max_count` describe "target" (1/1) or "any number of targets"
    (1/None). `not_color` restricts to objects that are not of that color (Doom Blade's
    "nonblack").
    """

    kind: TargetKind
    min_count: int = 1
    max_count: int | None = 1
    not_color: Color | None = None


# ---------------------------------------------------------------- amounts

Amount = int | Literal["X", "goblins_you_control"]

# ---------------------------------------------------------------- effects (CR 608.2c)

TargetRef = int  # index into the ability's `targets` list


class DealDamage(_Data):
    """The source deals damage (CR 120). `to` is a target index, or every player.

    `divided` splits the amount evenly among all chosen targets of that index, rounding
    down (Fireball).
    """

    kind: Literal["deal_damage"] = "deal_damage"
    amount: Amount
    to: TargetRef | Literal["each_player"]
    divided: bool = False


class Destroy(_Data):
    """Destroy (CR 701.8): a target, or all creatures. `no_regenerate` is Wrath's rider."""

    kind: Literal["destroy"] = "destroy"
    what: TargetRef | Literal["all_creatures"]
    no_regenerate: bool = False


class CounterTarget(_Data):
    """Counter target spell (CR 701.6)."""

    kind: Literal["counter"] = "counter"
    what: TargetRef = 0


PTSubject = Literal["target", "self", "enchanted", "equipped", "creatures_you_control"]


class ModifyPowerToughness(_Data):
    """+N/+M in layer 7c (CR 613.4c). `until_end_of_turn` for a resolving effect
    (CR 611.2); otherwise it is the effect of a static ability (CR 604, 611.3)."""

    kind: Literal["modify_pt"] = "modify_pt"
    subject: PTSubject
    target: TargetRef = 0
    power: int
    toughness: int
    until_end_of_turn: bool = False


class CantAttackOrBlock(_Data):
    """A static restriction on the enchanted creature (CR 508.1c, 509.1b)."""

    kind: Literal["cant_attack_or_block"] = "cant_attack_or_block"
    subject: Literal["enchanted"] = "enchanted"


class AddMana(_Data):
    """Add mana to the controller's pool (CR 106.3, 605). `mana` is a string of symbols
    such as "G", "CC" or "BBB"."""

    kind: Literal["add_mana"] = "add_mana"
    mana: str


PlayerRef = Literal["controller", "target_player", "that_player"]


class DrawCards(_Data):
    """A player draws cards (CR 121). `that_player` is the player a trigger names."""

    kind: Literal["draw"] = "draw"
    who: PlayerRef = "controller"
    count: int = 1


class Discard(_Data):
    """A player discards (CR 701.9); `at_random` for Hypnotic Specter."""

    kind: Literal["discard"] = "discard"
    who: PlayerRef
    count: int = 1
    at_random: bool = False


class ReturnToHand(_Data):
    """Return the target to its owner's hand (CR 400.7)."""

    kind: Literal["return_to_hand"] = "return_to_hand"
    what: TargetRef = 0


class TokenSpec(_Data):
    """A token's characteristics (CR 111.4)."""

    name: str
    colors: tuple[Color, ...]
    types: tuple[str, ...]
    subtypes: tuple[str, ...]
    power: int
    toughness: int


class CreateTokens(_Data):
    """Create tokens (CR 111.2, 701.7)."""

    kind: Literal["create_tokens"] = "create_tokens"
    count: Amount
    token: TokenSpec


class PreventCombatDamage(_Data):
    """Prevent all combat damage this turn (CR 615: a prevention shield, Fog)."""

    kind: Literal["prevent_combat_damage"] = "prevent_combat_damage"


class ExtraTurn(_Data):
    """The controller takes an extra turn after this one (CR 500.7)."""

    kind: Literal["extra_turn"] = "extra_turn"


class Attach(_Data):
    """Attach this Equipment to the target creature (CR 701.3, equip 702.6)."""

    kind: Literal["attach"] = "attach"
    target: TargetRef = 0


Effect = (
    DealDamage
    | Destroy
    | CounterTarget
    | ModifyPowerToughness
    | CantAttackOrBlock
    | AddMana
    | DrawCards
    | Discard
    | ReturnToHand
    | CreateTokens
    | PreventCombatDamage
    | ExtraTurn
    | Attach
)

# ---------------------------------------------------------------- costs


class Cost(_Data):
    """An activation cost (CR 118, 602.1a): mana symbols and/or {T}."""

    mana: str = ""  # e.g. "{R}", "{1}"
    tap: bool = False


# ---------------------------------------------------------------- abilities (CR 113)


class KeywordAbility(_Data):
    """A keyword ability (CR 702).

    `reminder` records whether the card's Oracle text prints the keyword's reminder text
    (CR 207.2a: reminder text has no rules effect; whether it is printed varies from card
    to card, e.g. Shivan Dragon's "Flying (...)" but Air Elemental's bare "Flying").
    """

    kind: Literal["keyword"] = "keyword"
    keyword: Keyword
    reminder: bool = False


class SpellAbility(_Data):
    """The effect of an instant or sorcery as it resolves (CR 113.3a)."""

    kind: Literal["spell"] = "spell"
    targets: tuple[TargetSpec, ...] = ()
    effects: tuple[Effect, ...] = Field(min_length=1)
    extra_cost_per_target_beyond_first: int = 0  # Fireball (CR 601.2f)


class ActivatedAbility(_Data):
    """An activated ability (CR 602); a mana ability when it adds mana and has no target
    (CR 605.1a). `sorcery_speed` for equip (CR 702.6a)."""

    kind: Literal["activated"] = "activated"
    cost: Cost
    targets: tuple[TargetSpec, ...] = ()
    effects: tuple[Effect, ...] = Field(min_length=1)
    sorcery_speed: bool = False


TriggerEvent = Literal[
    "deals_damage_to_opponent",  # "Whenever ~ deals damage to an opponent"
    "each_draw_step",  # "At the beginning of each player's draw step"
]


class TriggeredAbility(_Data):
    """A triggered ability (CR 603). `if_untapped` is an intervening-if clause checked
    when it triggers and on resolution (CR 603.4)."""

    kind: Literal["triggered"] = "triggered"
    event: TriggerEvent
    if_untapped: bool = False
    effects: tuple[Effect, ...] = Field(min_length=1)


class StaticAbility(_Data):
    """A static ability (CR 604) whose effects apply while the source is on the
    battlefield, in layer order (CR 613)."""

    kind: Literal["static"] = "static"
    effects: tuple[Effect, ...] = Field(min_length=1)


class EnchantAbility(_Data):
    """Enchant [quality] (CR 702.5): targets as an Aura spell and restricts attachment."""

    kind: Literal["enchant"] = "enchant"
    what: Literal["creature"] = "creature"


class EquipAbility(_Data):
    """Equip [cost] (CR 702.6): attach to target creature you control, sorcery speed."""

    kind: Literal["equip"] = "equip"
    cost: Cost


Ability = (
    KeywordAbility
    | SpellAbility
    | ActivatedAbility
    | TriggeredAbility
    | StaticAbility
    | EnchantAbility
    | EquipAbility
)


class CardDefinition(_Data):
    """A card as the engine knows it: Oracle facts plus the declarative abilities.

    `oracle` is the card's Oracle text (MTGJSON 2022-04-25), kept beside the abilities
    so a judge can compare them; `render.py` renders `abilities` back to English.
    """

    name: str
    mana_cost: str = ""  # "{1}{R}", "" for lands
    colors: tuple[Color, ...] = ()
    supertypes: tuple[str, ...] = ()
    types: tuple[str, ...]
    subtypes: tuple[str, ...] = ()
    power: int | None = None
    toughness: int | None = None
    oracle: str = ""
    abilities: tuple[Ability, ...] = ()
