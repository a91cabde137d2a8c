"""What each declarative effect does as its spell or ability resolves (CR 608.2c).

Each case cites the rule for the action it performs. Targets that became illegal are
left out (CR 608.2b); a divided amount keeps the division chosen on casting (601.2d).
"""

from __future__ import annotations

from typing import assert_never

from arbiter_core.cards.model import (
    AddMana,
    AllCreaturesHaveKeyword,
    Amount,
    Attach,
    AttackIfAble,
    BecomeCreature,
    CantAttackOrBlock,
    CantAttackYouIfChosenColorWithoutFlying,
    CantGetPoison,
    CantLose,
    ChooseColorAsEnters,
    ChooseOpponentAsEnters,
    CounterTarget,
    CreateTokenForThatController,
    CreateTokens,
    DealDamage,
    Destroy,
    DestroyUnlessAttacked,
    Detain,
    Discard,
    DoubleLife,
    DrawCards,
    Effect,
    EnterAsCopy,
    EntersWithCounters,
    ExchangeLifeTotals,
    ExileUntilNextEndStep,
    ExtraTurn,
    GainControl,
    GainKeyword,
    GainLife,
    GainLifePerLifeLost,
    GivePoison,
    HighestLifeWinsIfNoCounters,
    LifeBecomesLowest,
    LifeCantChange,
    LoseAllPoison,
    LoseGame,
    LoseLife,
    Mill,
    ModifyPowerToughness,
    NoLossForZeroLife,
    NoMinusCountersOnYourCreatures,
    NoMoreThanOneCombatant,
    OpponentsCantWin,
    OpponentsCreaturesLoseKeyword,
    PerCardInChosenPlayersHand,
    PreventCombatDamage,
    Proliferate,
    PutCounterOnEachCreature,
    RedirectNextDamage,
    RedistributeLifeTotals,
    RemoveCounterFromSelf,
    ReturnToHand,
    ReturnWithCounter,
    RevealOpponentChooses,
    SacrificeUnlessPayLife,
    SearchOntoBattlefield,
    SetLifeTotal,
    ShuffleIntoLibrary,
    Untap,
    WinGame,
)
from arbiter_core.combat import requirements
from arbiter_core.effects import damage, decisions, life, payments
from arbiter_core.effects.decisions import player_of
from arbiter_core.game import outcome
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.state import Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers import control
from arbiter_core.layers.characteristics import definition, is_creature
from arbiter_core.multiplayer.influence import object_in_range, player_in_range
from arbiter_core.stack import optional
from arbiter_core.variants.base import turn_order_from


def _amount(t: Txn, item: StackItem, amount: Amount) -> int:
    if amount == "X":
        return item.x
    if amount == "goblins_you_control":  # CR 608.2h: counted once, on resolution
        return sum(1 for o in t.s.permanents(item.controller)
                   if "Goblin" in definition(o).subtypes)
    if amount == "that_much":
        return _that_much(t, item)
    return amount


def _that_much(t: Txn, item: StackItem) -> int:
    """"That much": for a triggered ability, the amount of its trigger event (Souls of
    the Faultless); for a spell, the poison counters an earlier effect of it removed
    (Leeches, recorded in this resolution's events)."""
    if item.kind == "triggered":
        return item.amount
    for e in reversed(t.events):
        if isinstance(e, ev.PoisonCountersChanged) and e.amount < 0:
            return -e.amount
        if isinstance(e, ev.ResolutionPaused | ev.SpellCast | ev.StackItemResolved
                      | ev.StackItemCountered):
            break
    return 0


def _objects(group: list[str]) -> list[int]:
    return [int(x[2:]) for x in group if x.startswith("o:")]


def run(t: Txn, m: Marker, item: StackItem, eff: Effect, legal: list[list[str]],
        index: int) -> bool:
    """Perform one effect. Returns True when resolution waits for a decision."""
    s = t.s
    match eff:
        case DealDamage():
            n = _amount(t, item, eff.amount)
            if eff.to == "each_player":
                for p in turn_order_from(s, m.holder):  # CR 608.2f: simultaneously
                    if player_in_range(s, item.controller, p):  # 801.10
                        damage.deal_damage(t, item, n, player=p)
                return False
            if eff.to == "that_player" or eff.to == "that_creature":
                damage.damage_that(t, item, n, eff.to)
                return False
            group = legal[eff.to] if eff.to < len(legal) else []
            if eff.divided and item.targets:
                n = n // max(1, len(item.targets[eff.to]))
            for x in group:
                if x.startswith("p:"):
                    damage.deal_damage(t, item, n, player=x[2:])
                else:
                    damage.deal_damage(t, item, n, obj=int(x[2:]))
        case Destroy():
            ids = ([o.id for o in s.permanents() if is_creature(o)
                    and object_in_range(s, item.controller, o)]  # 801.10
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
        case DrawCards(who="each_player"):
            decisions.each_player_draws(t, m, item, eff.count)
        case Mill():
            decisions.mill(t, item, eff.count, player_of(item, eff.who, legal))
        case DrawCards():
            from arbiter_core.turns.steps import draw

            who = player_of(item, eff.who, legal)
            payer = item.that_player
            if eff.unless_that_player_pays and payer is not None:
                if not s.players[payer].left:
                    # 118.12a: that player may pay; if they don't, the draw happens.
                    t.emit(ev.ResolutionPaused(item=item.id, resume_at=index, rule="608.2d"))
                    t.emit(ev.DecisionRequested(
                        marker=m.number, kind="pay_or_not", player=payer,
                        choices=["pay", "decline"], count=1, stack_item=item.id,
                        rule="118.12a"))
                    return True
                rule = "800.4f"  # a player who left pays no cost: the draw happens
                if optional.is_optional(t, item):  # then "you may draw" (603.5)
                    optional.ask(t, m, item, index)
                    return True
            else:
                rule = "121.1"
            if who is not None and not s.players[who].left:
                for _ in range(eff.count):
                    draw(t, who, rule)
        case Discard():
            return decisions.discard(t, m, item, eff, legal, index)
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
                                    controller=item.controller, rule="615.1a"))
        case ExtraTurn():
            t.emit(ev.ExtraTurnAdded(marker=m.number, player=item.controller, rule="500.7"))
        case Attach():
            src = s.objects.get(item.source or -1)
            targets = _objects(legal[eff.target]) if legal else []
            if src is not None and src.zone == "battlefield" and targets:
                target = s.objects[targets[0]]
                if target.controller == item.controller:
                    t.emit(ev.Attached(obj=src.id, to=target.id, rule="701.3a"))
        case GainControl():
            group = legal[eff.target] if eff.target < len(legal) else []
            mates = [x[2:] for x in group if x.startswith("p:")]
            if mates and item.source in s.battlefield:  # deploy creatures (804.2)
                t.emit(ev.EffectCreated(kind="control", affected=[item.source],
                                        controller=mates[0], marker=m.number,
                                        until="permanent", rule="804.2"))
                control.refresh(t)
                return False
            ids = _objects(group)
            if ids:
                t.emit(ev.EffectCreated(kind="control", affected=ids, controller=item.controller,
                                        marker=m.number, tap_when_lost=eff.tap_when_lost,
                                        until="end_of_turn" if eff.until_end_of_turn
                                        else "permanent", rule="613.1b"))
                control.refresh(t)
        case Untap():
            ids = [i for i in _objects(legal[eff.target]) if s.objects[i].tapped]
            if ids:
                t.emit(ev.PermanentsUntapped(objs=ids, rule="701.26b"))
        case GainKeyword():
            ids = _objects(legal[eff.target]) if eff.target < len(legal) else []
            if ids:
                t.emit(ev.EffectCreated(kind="keyword", affected=ids, keyword=eff.keyword,
                                        marker=m.number, controller=item.controller,
                                        rule="613.1f"))
        case SearchOntoBattlefield():
            return decisions.search(t, m, item, eff, legal, index)
        case DoubleLife():
            for x in legal[eff.target] if eff.target < len(legal) else []:
                who = x[2:]
                gain = max(0, s.players[who].life)  # 810.9a: a 2HG team's total
                if gain:
                    life.gain(t, who, gain, "119.5")
        case ShuffleIntoLibrary():
            pass  # done as the spell leaves the stack (resolve.finish)
        case LifeBecomesLowest():
            return life.become_lowest(t, m, item, index)
        case WinGame():
            outcome.win(t, item.controller)
        case LoseGame():
            outcome.lose(t, item.controller, "104.3e")
        case GainLifePerLifeLost():
            if item.amount > 0:
                life.gain(t, item.controller, eff.per_point * item.amount, "119.6")
        case BecomeCreature():
            src = s.objects.get(item.source or -1)
            if src is not None and src.zone == "battlefield":
                t.emit(ev.PermanentBecameCreature(obj=src.id, power=eff.power,
                                                  toughness=eff.toughness,
                                                  subtypes=list(eff.subtypes),
                                                  keywords=list(eff.keywords), rule="613.1d"))
        case CreateTokenForThatController():
            who = item.that_player
            if who is not None and not s.players[who].left:  # 800.4b
                t.emit(ev.TokenCreated(obj=t.new_id(), owner=who, token=eff.token,
                                       rule="111.2"))
        case ExileUntilNextEndStep():
            for oid in _objects(legal[eff.target]):
                o = s.objects[oid]
                new_id = t.new_id()
                t.emit(ev.ObjectMoved(obj=oid, new_id=new_id, to_zone="exile",
                                      to_player=o.owner, rule="406.1"))
                t.emit(ev.DelayedTriggerCreated(card=t.s.objects[new_id].card, owner=o.owner,
                                                controller=item.controller,
                                                source_name=item.source_name, objs=[new_id],
                                                source=item.source, rule="603.7a"))
        case GivePoison():
            who = player_of(item, eff.who, legal)
            if who is not None:
                life.give_poison(t, who, eff.count)
        case LoseAllPoison():
            for x in legal[eff.target] if eff.target < len(legal) else []:
                life.lose_all_poison(t, x[2:])
        case Proliferate():
            return decisions.proliferate(t, m, item, index)
        case SetLifeTotal():
            for x in legal[eff.target] if eff.target < len(legal) else []:
                life.set_total(t, x[2:], eff.amount)
        case ExchangeLifeTotals():
            group = [x[2:] for x in (legal[eff.target] if eff.target < len(legal) else [])]
            if len(group) == 2:  # 701.12a: with one target gone, no exchange
                life.exchange(t, group[0], group[1])
        case RemoveCounterFromSelf():
            src = s.objects.get(item.source or -1)
            if src is not None and src.zone == "battlefield" and src.counter(eff.counter):
                t.emit(ev.CountersRemoved(obj=src.id, counters={eff.counter: 1},
                                          rule="608.2c"))
        case HighestLifeWinsIfNoCounters():
            src = s.objects.get(item.source or -1)
            if src is not None and src.zone == "battlefield" and not src.counter(eff.counter):
                outcome.highest_life_wins(t, item.controller)
        case RedirectNextDamage():
            groups = [legal[i] if i < len(legal) else [] for i in (eff.source_target,
                                                                  eff.to_target)]
            if groups[0] and groups[1]:  # 608.2b: with either target gone, no shield
                t.emit(ev.EffectCreated(kind="redirect", redirect=[groups[0][0], groups[1][0]],
                                        amount=_amount(t, item, eff.amount),
                                        controller=item.controller, marker=m.number,
                                        rule="614.9"))
        case RevealOpponentChooses():
            return decisions.reveal_opponent_chooses(t, m, item, eff, index)
        case RedistributeLifeTotals():
            return life.ask_redistribution(t, m, item, index)
        case GainLife():
            life.gain(t, item.controller, _amount(t, item, eff.amount), "119.6")
        case PutCounterOnEachCreature():
            _counter_on_each(t, item, eff)
        case SacrificeUnlessPayLife():
            return payments.ask(t, m, item, _amount(t, item, eff.amount), index)
        case ReturnWithCounter():
            _return_with_counter(t, item, eff)
        case ChooseOpponentAsEnters() | PerCardInChosenPlayersHand():
            pass  # a replacement effect (614.12) and a static ability (layers.py)
        case LoseLife():
            who = item.that_player  # the attacking player fixed on triggering (805.10c)
            if who is not None and player_in_range(s, item.controller, who):  # 801.10
                life.lose(t, who, _amount(t, item, eff.amount),
                          "805.10c" if s.shared_team_turns else "119.3")
        case Detain():
            ids = _objects(legal[eff.target]) if eff.target < len(legal) else []
            if ids:
                t.emit(ev.EffectCreated(kind="detain", affected=ids, controller=item.controller,
                                        until="your_next_turn", marker=m.number,
                                        rule="701.35a"))
        case AttackIfAble():
            return requirements.attack_if_able(t, m, item, eff, index)
        case DestroyUnlessAttacked():
            requirements.destroy_unless_attacked(t, item)
        case (CantAttackOrBlock() | CantLose() | OpponentsCantWin() | NoLossForZeroLife()
              | CantAttackYouIfChosenColorWithoutFlying() | ChooseColorAsEnters()
              | LifeCantChange() | AllCreaturesHaveKeyword() | CantGetPoison()
              | NoMinusCountersOnYourCreatures() | OpponentsCreaturesLoseKeyword()
              | EntersWithCounters() | NoMoreThanOneCombatant() | EnterAsCopy()):
            pass  # static abilities and replacement effects: never resolved
        case _:
            assert_never(eff)
    return False


def _counter_on_each(t: Txn, item: StackItem, eff: PutCounterOnEachCreature) -> None:
    """Put a counter on each creature you (or that player) control (CR 122.6), within
    range (801.10); "-1/-1" not on creatures whose controller has Melira."""
    s = t.s
    who = item.controller if eff.whose == "you" else item.that_player
    if who is None or s.players[who].left:
        return
    if eff.counter == "-1/-1" and life.no_minus_counters(s, who):
        return
    for o in s.permanents(who):
        if is_creature(o) and object_in_range(s, item.controller, o):
            t.emit(ev.CountersPut(obj=o.id, counters={eff.counter: 1}, rule="122.6"))


def _return_with_counter(t: Txn, item: StackItem, eff: ReturnWithCounter) -> None:
    """Persist (CR 702.79a): the card that died returns from its owner's graveyard, if it
    is still there (400.7), under its owner's control, with a -1/-1 counter on it - none
    if its owner controls Melira ("can't have -1/-1 counters put on them")."""
    s = t.s
    o = s.objects.get(item.that_obj) if item.that_obj is not None else None
    if o is None or o.zone != "graveyard" or s.players[o.owner].left:
        return
    new_id = t.new_id()
    t.emit(ev.ObjectMoved(obj=o.id, new_id=new_id, to_zone="battlefield", to_player=o.owner,
                          controller=o.owner, rule="702.79a"))
    if not (eff.counter == "-1/-1" and life.no_minus_counters(t.s, o.owner)):
        t.emit(ev.CountersPut(obj=new_id, counters={eff.counter: 1}, rule="702.79a"))
