"""A hash of the card data the engine plays with, recorded in each game's first event."""

from __future__ import annotations

import functools
import hashlib
import json

from arbiter_core.cards.pool import POOL


@functools.cache
def card_data_hash() -> str:
    """The hash of every card definition, once every rule package has added its cards
    (asked as a game starts, never at import)."""
    data = {name: card.model_dump(mode="json") for name, card in sorted(POOL.items())}
    blob = json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(blob).hexdigest()
