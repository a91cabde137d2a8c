"""Damage dealt by a resolving spell or ability (CR 120.3), with deathtouch (702.2b),
lifelink (702.15b), redirection within range of influence (614.9, 801.13a), and damage to
the player or object a trigger names (400.7).
"""

from __future__ import annotations

from collections.abc import Callable

from arbiter_core.card_types import planeswalkers
from arbiter_core.cards.model import DealDamage
from arbiter_core.effects import damage_replacement as replacement
from arbiter_core.effects import life
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.edits import change_life, set_obj
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.refs import PlayerRef, Ref, object_ref, player_ref
from arbiter_core.kernel.registry import Hooks
from arbiter_core.kernel.state import GameState, Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import is_creature, keywords
from arbiter_core.multiplayer.influence import player_in_range
from arbiter_core.multiplayer.seating import turn_order_from
from arbiter_core.stack.items import Legal, amount, effect, group

#: prevention effects of damage to a player (615): (state, source id, player) -> how
#: much of it is prevented (Nothing Can Stop Me Now: 1 from an opponent's source)
PREVENT_TO_PLAYER: Hooks[str, Callable[[GameState, int, str], int]] = Hooks(
    "damage prevention to a player")


def after_prevention(s: GameState, source: int, player: str, n: int) -> int:
    """CR 615.1: the damage a player is dealt, less what prevention effects prevent."""
    for prevent in PREVENT_TO_PLAYER["all"]:
        n -= min(n, prevent(s, source, player))
    return n


def _source_id(item: StackItem) -> int:
    return item.obj if item.obj is not None else (item.source or 0)


def deal_damage(t: Txn, item: StackItem, n: int, player: str | None = None,
                obj: int | None = None) -> None:
    """CR 120.3: damage to a player causes life loss; to a creature, marked damage.
    Deathtouch (702.2b) and lifelink (702.15b) look at the source. Redirection effects
    (614.9) may send some of it elsewhere, within the item's controller's range of
    influence only (801.13a)."""
    recipient: Ref = player_ref(player) if player is not None else object_ref(obj or 0)
    if n <= 0:
        _deal_one(t, item, n, player=player, obj=obj)
        return
    # 614.1a, 614.9, 615.1a in the order chosen (616.1): effects/damage_replacement.py
    for to, k in replacement.route(t, _source_id(item), recipient, n,
                                   replacement.item_orders(item), item.controller):
        if isinstance(to, PlayerRef):
            _deal_one(t, item, k, player=to.player)
        else:
            _deal_one(t, item, k, obj=to.obj)


def _deal_one(t: Txn, item: StackItem, n: int, player: str | None = None,
              obj: int | None = None) -> None:
    src = t.s.objects.get(_source_id(item))
    if player is not None:
        n = after_prevention(t.s, _source_id(item), player, n)
        if n <= 0:
            return
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


def that_recipients(s: GameState, item: StackItem, who: str) -> list[Ref]:
    """The player a trigger or a mode names ("that player", Misfortune, Aether Sting) if
    still in the game and in range, or the object a trigger names ("deals 2 damage to
    it", Aether Flash) if it is still the same permanent (400.7)."""
    if who == "that_player":
        p = item.that_player
        if p is not None and not s.players[p].left and player_in_range(s, item.controller, p):
            return [player_ref(p)]
        return []
    o = s.objects.get(item.that_obj) if item.that_obj is not None else None
    if o is not None and o.zone == "battlefield" and is_creature(o):
        return [object_ref(o.id)]
    return []


@applies(ev.DamageDealt)
def _damage_dealt(s: GameState, e: ev.DamageDealt) -> None:
    """120.3: damage to a player is life loss (unless it can't change, 119.8); damage
    to a creature is marked on it, with deathtouch noted for 704.5h."""
    if e.player is not None and e.life_loss:
        change_life(s, e.player, -e.amount)
    if e.obj is not None and e.obj in s.objects:
        o = s.objects[e.obj]
        set_obj(s, e.obj, damage=o.damage + e.amount,
                deathtouch_hit=o.deathtouch_hit or e.deathtouch)


@effect(DealDamage)
def _deal_damage(t: Txn, m: Marker, item: StackItem, eff: DealDamage, legal: Legal,
                 index: int) -> bool:
    """The source deals damage (CR 120): to each player in turn order, all at once
    (608.2f; within range, 801.10), to the player or creature a trigger names, or to each
    legal target (a divided amount split evenly, 601.2d)."""
    n = amount(t, item, eff.amount)
    if eff.to == "that_player" or eff.to == "that_creature":
        to: list[Ref] = that_recipients(t.s, item, eff.to)  # asked too (616.1)
    elif eff.to == "each_player":
        to = [player_ref(p) for p in turn_order_from(t.s, m.holder)
              if player_in_range(t.s, item.controller, p)]
    else:
        to = list(group(legal, eff.to))
        if eff.divided and item.targets:
            n = n // max(1, len(item.targets[eff.to]))
    return deal_to_each(t, m, item, n, to, index)


def deal_to_each(t: Txn, m: Marker, item: StackItem, n: int, to: list[Ref],
                 index: int) -> bool:
    """`n` damage to each recipient, once the affected players have ordered the
    replacement effects that apply (616.1; True while one is asked)."""
    source = _source_id(item)
    if replacement.ask(t, m, [(source, x, n) for x in to], replacement.item_orders(item),
                       item, index):
        return True
    for x in to:
        if isinstance(x, PlayerRef):
            deal_damage(t, item, n, player=x.player)
        else:
            deal_damage(t, item, n, obj=x.obj)
    return False


@explains(ev.DamageDealt)
def _explain_damage_dealt(before: GameState, e: ev.DamageDealt, name: Namer) -> str:
    who = e.player if e.player is not None else name(e.obj)
    how = " combat" if e.combat else ""
    return f"{who} dealt {e.amount}{how} damage by {name(e.source)}"
