"""The cards the engine implements, as declarative `CardDefinition`s.

Printed characteristics (name, mana cost, colors, type line, power/toughness, Oracle
text) come from the generated `facts.py`; the pool only adds each card's abilities, in
Oracle order, one ability per keyword or paragraph (CR 113.2c, 702.1). Pure data: no
I/O, no clock, no randomness. The definitions are in `pool_starter.py` (the reference
starter pool) and `pool_multiplayer.py` (cards for the multiplayer rules); `build.py`
has the shorthands they are written with. A mechanic module adds the cards that show its
rule beside it (`add_card`), so that adding a mechanic edits no shared list.
"""

from __future__ import annotations

from arbiter_core.cards.model import CardDefinition
from arbiter_core.cards.pool_multiplayer import MULTIPLAYER
from arbiter_core.cards.pool_starter import STARTER

POOL: dict[str, CardDefinition] = {card.name: card for card in (*STARTER, *MULTIPLAYER)}
#: the cards mechanic modules added (`add_card`), by name
ADDED: set[str] = set()


def add_card(card: CardDefinition) -> CardDefinition:
    """Add a card definition to the pool (a mechanic's card, beside its rule)."""
    if card.name in POOL:
        raise ValueError(f"{card.name!r} is defined already")
    POOL[card.name] = card
    ADDED.add(card.name)
    return card
