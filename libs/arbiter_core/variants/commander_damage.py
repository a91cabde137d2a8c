"""Commander damage (CR 903.10a, 704.6c).

Combat damage a commander deals to a player is recorded per commander card and per
player dealt it (`CommanderDamageTaken`), also when that player's team shares a life
total (810.9: the damage is still dealt to the player). A player who has been dealt 21
or more combat damage by the same commander over the game loses, as a state-based
action (`sba.conditions.PLAYER_SBAS`); Brawl doesn't use it (903.12h).
"""

from __future__ import annotations

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.state import GameState, Obj
from arbiter_core.kernel.txn import watch
from arbiter_core.sba.conditions import PLAYER_SBAS
from arbiter_core.variants.commander import CommanderDamageTaken, commander_owner

LETHAL = 21  # 903.10a


@watch(ev.DamageDealt, order=5)
def _combat_damage(s: GameState, e: ev.DamageDealt, current: int | None,
                   before: Obj | None) -> list[ev.Event]:
    """903.10a: combat damage from a commander to a player is counted."""
    if s.commander is None or not e.combat or e.player is None or e.amount <= 0:
        return []
    src = s.objects.get(e.source)
    if src is None or commander_owner(s, src.card) is None:
        return []
    return [CommanderDamageTaken(player=e.player, card=src.card, amount=e.amount,
                                 rule="903.10a")]


def _losers(s: GameState) -> list[tuple[str, str]]:
    """704.6c: 21 or more combat damage from one commander."""
    c = s.commander
    if c is None or not c.combat_damage_rule:
        return []
    return [(p, "704.6c") for p, _, total in c.damage
            if total >= LETHAL and p in s.players and not s.players[p].left]


PLAYER_SBAS.add("all", _losers)


def commander_damage(s: GameState, player: str, card_name: str) -> int:
    """The combat damage `player` has been dealt by the commander named `card_name`."""
    c = s.commander
    if c is None:
        return 0
    names = {o.card: o.printed or o.name for o in s.objects.values()}
    return sum(total for p, card, total in c.damage
               if p == player and names.get(card) == card_name)
