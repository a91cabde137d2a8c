"""Damage dealt by a resolving spell or ability (CR 120.3), with deathtouch (702.2b),
lifelink (702.15b), redirection within range of influence (614.9, 801.13a), and damage to
the player or object a trigger names (400.7).
"""

from __future__ import annotations

from arbiter_core.card_types import planeswalkers
from arbiter_core.effects import life
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.state import StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers import redirect
from arbiter_core.layers.characteristics import is_creature, keywords
from arbiter_core.multiplayer.influence import player_in_range


def _source_id(item: StackItem) -> int:
    return item.obj if item.obj is not None else (item.source or 0)


def deal_damage(t: Txn, item: StackItem, n: int, player: str | None = None,
                obj: int | None = None) -> None:
    """CR 120.3: damage to a player causes life loss; to a creature, marked damage.
    Deathtouch (702.2b) and lifelink (702.15b) look at the source. Redirection effects
    (614.9) may send some of it elsewhere, within the item's controller's range of
    influence only (801.13a)."""
    recipient = f"p:{player}" if player is not None else f"o:{obj}"
    if n <= 0 or not redirect.shielded(t.s, recipient):
        _deal_one(t, item, n, player=player, obj=obj)
        return
    for to, k, _ in redirect.split(t, recipient, n, item.controller):
        kind, _, value = to.partition(":")
        _deal_one(t, item, k, player=value if kind == "p" else None,
                  obj=int(value) if kind == "o" else None)


def _deal_one(t: Txn, item: StackItem, n: int, player: str | None = None,
              obj: int | None = None) -> None:
    src = t.s.objects.get(_source_id(item))
    kw = keywords(t.s, src) if src is not None else frozenset()
    # 119.8, 810.9h: damage to a player whose life total can't change causes no loss.
    loss = player is None or not life.cant_change(t.s, player)
    t.emit(ev.DamageDealt(source=_source_id(item), player=player, obj=obj, amount=n,
                          deathtouch="deathtouch" in kw and obj is not None, life_loss=loss,
                          rule="120.3"))
    if obj is not None:
        planeswalkers.damage_removes_loyalty(t, obj, n)  # 120.3c
    if "lifelink" in kw and src is not None:
        life.gain(t, src.controller, n, "702.15b")


def damage_that(t: Txn, item: StackItem, n: int, who: str) -> None:
    """Damage to the player a trigger or a mode names ("that player", Misfortune), or to
    the object a trigger names ("deals 2 damage to it", Aether Flash) if it is still the
    same permanent (400.7)."""
    s = t.s
    if who == "that_player":
        p = item.that_player
        if p is not None and not s.players[p].left and player_in_range(s, item.controller, p):
            deal_damage(t, item, n, player=p)
        return
    o = s.objects.get(item.that_obj) if item.that_obj is not None else None
    if o is not None and o.zone == "battlefield" and is_creature(o):
        deal_damage(t, item, n, obj=o.id)
