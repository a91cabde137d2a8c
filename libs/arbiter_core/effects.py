"""What each declarative effect does as its spell or ability resolves (CR 608.2c).

Each case cites the rule for the action it performs. Targets that became illegal are
left out (CR 608.2b); a divided amount keeps the division chosen on casting (601.2d).
"""

from __future__ import annotations

from typing import assert_never

from arbiter_core import events as ev
from arbiter_core.cards.model import (
    AddMana,
    Amount,
    Attach,
    CantAttackOrBlock,
    CounterTarget,
    CreateTokens,
    DealDamage,
    Destroy,
    Discard,
    DrawCards,
    Effect,
    ExtraTurn,
    ModifyPowerToughness,
    PreventCombatDamage,
    ReturnToHand,
)
from arbiter_core.layers import definition, is_creature, keywords
from arbiter_core.state import Marker, StackItem
from arbiter_core.txn import Txn
from arbiter_core.variants import turn_order_from


def _amount(t: Txn, item: StackItem, amount: Amount) -> int:
    if amount == "X":
        return item.x
    if amount == "goblins_you_control":  # CR 608.2h: counted once, on resolution
        return sum(1 for o in t.s.permanents(item.controller)
                   if "Goblin" in definition(o).subtypes)
    return amount


def _objects(group: list[str]) -> list[int]:
    return [int(x[2:]) for x in group if x.startswith("o:")]


def _player_of(item: StackItem, who: str, legal: list[list[str]]) -> str | None:
    if who == "controller":
        return item.controller
    if who == "that_player":
        return item.that_player
    players = [x[2:] for group in legal for x in group if x.startswith("p:")]
    return players[0] if players else None


def _source_id(item: StackItem) -> int:
    return item.obj if item.obj is not None else (item.source or 0)


def deal_damage(t: Txn, item: StackItem, n: int, player: str | None = None,
                obj: int | None = None) -> None:
    """CR 120.3: damage to a player causes life loss; to a creature, marked damage.
    Deathtouch (702.2b) and lifelink (702.15b) look at the source."""
    src = t.s.objects.get(_source_id(item))
    kw = keywords(t.s, src) if src is not None else frozenset()
    t.emit(ev.DamageDealt(source=_source_id(item), player=player, obj=obj, amount=n,
                          deathtouch="deathtouch" in kw and obj is not None, rule="120.3"))
    if "lifelink" in kw and src is not None:
        t.emit(ev.LifeGained(player=src.controller, amount=n, rule="702.15b"))


def run(t: Txn, m: Marker, item: StackItem, eff: Effect, legal: list[list[str]],
        index: int) -> bool:
    """Perform one effect. Returns True when resolution waits for a decision."""
    s = t.s
    match eff:
        case DealDamage():
            n = _amount(t, item, eff.amount)
            if eff.to == "each_player":
                for p in turn_order_from(s, m.holder):  # CR 608.2f: simultaneously
                    deal_damage(t, item, n, player=p)
                return False
            group = legal[eff.to] if eff.to < len(legal) else []
            if eff.divided and item.targets:
                n = n // max(1, len(item.targets[eff.to]))
            for x in group:
                if x.startswith("p:"):
                    deal_damage(t, item, n, player=x[2:])
                else:
                    deal_damage(t, item, n, obj=int(x[2:]))
        case Destroy():
            ids = ([o.id for o in s.permanents() if is_creature(o)]
                   if eff.what == "all_creatures" else _objects(legal[eff.what]))
            for oid in ids:
                o = s.objects[oid]
                t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="graveyard",
                                      to_player=o.owner, rule="701.8a"))
        case CounterTarget():
            for oid in _objects(legal[eff.what]):
                countered = next(i for i in s.stack_items.values() if i.obj == oid)
                t.emit(ev.StackItemCountered(item=countered.id, marker=countered.marker,
                                             rule="701.6a"))
                t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="graveyard",
                                      to_player=s.objects[oid].owner, rule="701.6a"))
        case ModifyPowerToughness():
            if eff.subject == "self":
                ids = [item.source] if item.source in s.battlefield else []
            else:
                ids = _objects(legal[eff.target]) if eff.target < len(legal) else []
            if ids and eff.until_end_of_turn:
                t.emit(ev.EffectCreated(kind="pt", affected=[i for i in ids if i is not None],
                                        power=eff.power, toughness=eff.toughness,
                                        marker=m.number, rule="611.2a"))
        case AddMana():
            t.emit(ev.ManaAdded(player=item.controller, mana=eff.mana, rule="106.3"))
        case DrawCards():
            from arbiter_core.turn import draw

            who = _player_of(item, eff.who, legal)
            if who is not None and not s.players[who].left:
                for _ in range(eff.count):
                    draw(t, who, "121.1")
        case Discard():
            return _discard(t, m, item, eff, legal, index)
        case ReturnToHand():
            for oid in _objects(legal[eff.what]):
                o = s.objects[oid]
                t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="hand",
                                      to_player=o.owner, rule="608.2c"))
        case CreateTokens():
            for _ in range(_amount(t, item, eff.count)):
                t.emit(ev.TokenCreated(obj=t.new_id(), owner=item.controller,
                                       token=eff.token, rule="111.2"))
        case PreventCombatDamage():
            t.emit(ev.EffectCreated(kind="prevent_combat_damage", marker=m.number,
                                    rule="615.1a"))
        case ExtraTurn():
            t.emit(ev.ExtraTurnAdded(marker=m.number, player=item.controller, rule="500.7"))
        case Attach():
            src = s.objects.get(item.source or -1)
            targets = _objects(legal[eff.target]) if legal else []
            if src is not None and src.zone == "battlefield" and targets:
                target = s.objects[targets[0]]
                if target.controller == item.controller:
                    t.emit(ev.Attached(obj=src.id, to=target.id, rule="701.3a"))
        case CantAttackOrBlock():
            pass  # a static ability's effect (layers.py), never resolved
        case _:
            assert_never(eff)
    return False


def _discard(t: Txn, m: Marker, item: StackItem, eff: Discard, legal: list[list[str]],
             index: int) -> bool:
    """CR 701.9a-b: the player chooses, unless at random; with no more cards in hand
    than required, all are discarded and there is no choice."""
    who = _player_of(item, eff.who, legal)
    if who is None or t.s.players[who].left:
        return False
    hand = list(t.s.zone(who, "hand"))
    if eff.at_random:
        chosen = []
        for _ in range(min(eff.count, len(hand))):
            pick = t.rng.choice(hand)
            hand.remove(pick)
            chosen.append(pick)
    elif len(hand) <= eff.count:
        chosen = hand
    else:
        t.emit(ev.ResolutionPaused(item=item.id, resume_at=index + 1, rule="608.2d"))
        t.emit(ev.DecisionRequested(marker=m.number, kind="discard", player=who,
                                    options=hand, count=eff.count, stack_item=item.id,
                                    rule="701.9b"))
        return True
    for oid in chosen:
        t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="graveyard",
                              to_player=who, rule="701.9b" if eff.at_random else "701.9a"))
    return False
