"""Effects of transforming double-faced cards (CR 701.27, 712; `layers/transform.py`):
Civilized Scholar's loot that may transform it and Homicidal Brute's "tap it, then
transform it"; and extort's payment (702.101a, `keywords/extort.py`)."""

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


class ExtortPayment(DataModel):
    """Extort's "pay {W/B}. If you do, each opponent loses 1 life and you gain that much
    life" (702.101a), after its "you may" (603.5); `keywords/extort.py`."""

    kind: Literal["extort_payment"] = "extort_payment"
    mana: str = "{W/B}"
