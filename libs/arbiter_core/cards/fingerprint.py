"""A hash of the card data the engine plays with, recorded in each game's first event."""

from __future__ import annotations

import hashlib
import json

from arbiter_core.cards.pool import POOL


def _fingerprint() -> str:
    data = {name: card.model_dump(mode="json") for name, card in sorted(POOL.items())}
    blob = json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(blob).hexdigest()


CARD_DATA_HASH = _fingerprint()
