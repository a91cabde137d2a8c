"""Effects of the reference pool's commanders (CR 903): Rafiq of the Many's and exalted's
"that creature" (702.83a), Gisela, Blade of Goldnight's damage replacement and prevention
(614.1a, 615.1a; `effects/damage_replacement.py`) and Bosh, Iron Golem's damage equal to
a sacrificed artifact's mana value (118.3, 608.2h; `effects/sacrifice_cost.py`); and a
Wish's card from outside the game (400.11, 903.11; `game/outside.py`)."""

from __future__ import annotations

from typing import Literal

from arbiter_core.cards.model.base import DataModel, Keyword, TargetRef


class ThatCreatureGains(DataModel):
    """"That creature gets +N/+M until end of turn" or "it gains [keyword] until end of
    turn": the creature a trigger names (an exalted trigger's creature attacking alone,
    702.83a), layer 7c or 6 (613.4c, 613.1f), until end of turn (611.2a)."""

    kind: Literal["that_creature_gains"] = "that_creature_gains"
    power: int = 0
    toughness: int = 0
    keyword: Keyword | None = None


class DoubleDamageToOpponents(DataModel):
    """"If a source would deal damage to an opponent or a permanent an opponent
    controls, that source deals double that damage to that player or permanent
    instead." A replacement effect of a static ability (614.1a)."""

    kind: Literal["double_damage_to_opponents"] = "double_damage_to_opponents"


class PreventHalfDamageToYou(DataModel):
    """"If a source would deal damage to you or a permanent you control, prevent half
    that damage, rounded up." A prevention effect of a static ability (615.1a)."""

    kind: Literal["prevent_half_damage_to_you"] = "prevent_half_damage_to_you"


class DamageEqualToSacrificed(DataModel):
    """"~ deals damage equal to the sacrificed artifact's mana value to [target]": the
    mana value of the object sacrificed to pay the cost, as it last existed (608.2h)."""

    kind: Literal["damage_equal_to_sacrificed"] = "damage_equal_to_sacrificed"
    to: TargetRef = 0


class BringFromOutside(DataModel):
    """"You may reveal a [type] card you own from outside the game and put it into your
    hand." (400.11b; in Commander 903.11, 903.11a)."""

    kind: Literal["bring_from_outside"] = "bring_from_outside"
    card_types: tuple[str, ...]


class ExileSelf(DataModel):
    """"Exile [this card]." as the last instruction of an instant or sorcery: it goes to
    exile instead of its owner's graveyard (608.2n)."""

    kind: Literal["exile_self"] = "exile_self"
