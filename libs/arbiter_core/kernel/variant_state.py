"""The records of a variant's own part of the game state, for variants that keep more
than the options `GameStarted` records: the Commander variant (CR 903).

A game of another variant leaves these unset (None), and the state hash and the
canonical view leave an unset one out (`hashing.py`), so such games hash as before.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CommanderState:
    """What a Commander game remembers (CR 903). `commanders` are (card, owner): the
    designation belongs to the card (903.3), so it is kept by the card's stable number,
    not by an object id. `casts` counts each commander's casts from the command zone
    (903.8), `damage` the combat damage each player has been dealt by each commander
    ((player, card, total), 903.10a), `declined` the commander objects whose owner chose
    to leave them where they are (903.9a), `drawn` the commander objects their owner drew
    (903.9b, asked right after the draw)."""

    combat_damage_rule: bool = True  # 704.6c (Brawl doesn't use it, 903.12h)
    commanders: tuple[tuple[int, str], ...] = ()
    casts: tuple[tuple[int, int], ...] = ()
    damage: tuple[tuple[str, int, int], ...] = ()
    declined: tuple[int, ...] = ()
    drawn: tuple[int, ...] = ()

    def owner_of(self, card: int) -> str | None:
        for c, owner in self.commanders:
            if c == card:
                return owner
        return None

    def cast_count(self, card: int) -> int:
        return next((n for c, n in self.casts if c == card), 0)

    def damage_to(self, player: str, card: int) -> int:
        return next((n for p, c, n in self.damage if p == player and c == card), 0)
