"""Effects of transforming double-faced cards (CR 701.28, 712; `layers/transform.py`):
Civilized Scholar's loot that may transform it and Homicidal Brute's "tap it, then
transform it"."""

from __future__ import annotations

from typing import Literal

from arbiter_core.cards.model.base import DataModel


class LootThenTransform(DataModel):
    """"Draw a card, then discard a card. If a creature card is discarded this way,
    untap ~, then transform it." (121.1, 701.9, 701.26b, 701.28a)"""

    kind: Literal["loot_then_transform"] = "loot_then_transform"


class TapThenTransform(DataModel):
    """"Tap ~, then transform it." (701.26a, 701.28a)"""

    kind: Literal["tap_then_transform"] = "tap_then_transform"
