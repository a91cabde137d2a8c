"""Effects that stop a resolution for a player's decision (CR 608.2d) and the answers
that let it go on: an opponent choosing a revealed card (Murmurs from Beyond), "unless
that player pays" (118.12a), proliferate (701.34), searching a library (701.19) and
discarding (701.9). `effects.run` starts them; `decide` applies the answers. Also two
player effects without a decision: each player drawing (121.1) and milling (701.17a).
"""

from __future__ import annotations

from arbiter_core.cards.model import (
    Discard,
    DrawCards,
    RevealOpponentChooses,
    SearchOntoBattlefield,
)
from arbiter_core.effects import life
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.state import Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import definition, is_creature
from arbiter_core.multiplayer.influence import object_in_range, player_in_range
from arbiter_core.stack import optional
from arbiter_core.variants.base import opponents, turn_order_from


def player_of(item: StackItem, who: str, legal: list[list[str]]) -> str | None:
    if who == "controller":
        return item.controller
    if who == "that_player":
        return item.that_player
    players = [x[2:] for group in legal for x in group if x.startswith("p:")]
    return players[0] if players else None


def each_player_draws(t: Txn, m: Marker, item: StackItem, count: int) -> None:
    """"Each player draws a card" (121.1): in turn order from the active player (101.4),
    each player in the game within the controller's range of influence (801.7)."""
    from arbiter_core.turns.steps import draw

    for p in turn_order_from(t.s, m.holder):
        if not t.s.players[p].left and player_in_range(t.s, item.controller, p):
            for _ in range(count):
                draw(t, p, "121.1")


def mill(t: Txn, item: StackItem, count: int, who: str | None) -> None:
    """CR 701.17a: the player puts the top `count` cards of their library (as many as
    there are) into their graveyard."""
    if who is None or t.s.players[who].left:
        return
    for oid in list(t.s.zone(who, "library")[:count]):
        t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="graveyard",
                              to_player=who, rule="701.17a"))


def reveal_opponent_chooses(t: Txn, m: Marker, item: StackItem, eff: RevealOpponentChooses,
                             index: int) -> bool:
    """Murmurs from Beyond. The controller names the opponent who chooses: one within
    range (801.5a); if none is, the closest opponent to the controller's left (801.5c).
    If that opponent has left the game, the controller names another opponent (800.4g).
    Then that opponent chooses one of the revealed cards (a decision; `choose_card`)."""
    s = t.s
    who = item.controller
    if s.players[who].left:
        return False
    top = s.zone(who, "library")[:eff.count]
    if not top:
        return False
    chooser = item.chosen[-1] if item.chosen else None
    if chooser is None or s.players[chooser].left:
        left_game = chooser is not None
        opps = [p for p in opponents(s, who) if not s.players[p].left]
        if not opps:
            return False
        near = [p for p in opps if player_in_range(s, who, p)]
        if not near:  # 801.5c: the closest appropriate player to the controller's left
            closest = next(p for p in turn_order_from(s, who) if p in opps)
            t.emit(ev.ChooserChosen(item=item.id, player=closest, rule="801.5c"))
        elif len(near) == 1:
            t.emit(ev.ChooserChosen(item=item.id, player=near[0],
                                    rule="800.4g" if left_game else "608.2d"))
        else:
            t.emit(ev.ResolutionPaused(item=item.id, resume_at=index, rule="608.2d"))
            t.emit(ev.DecisionRequested(
                marker=m.number, kind="choose_opponent", player=who, choices=near, count=1,
                stack_item=item.id,
                rule="800.4g" if left_game else ("801.5a" if s.influence else "608.2d")))
            return True
        chooser = t.s.stack_items[item.id].chosen[-1]
    t.emit(ev.ResolutionPaused(item=item.id, resume_at=index, rule="608.2d"))
    t.emit(ev.DecisionRequested(marker=m.number, kind="choose_card", player=chooser,
                                options=top, count=1, stack_item=item.id, rule="608.2d"))
    return True


def card_chosen(t: Txn, m: Marker, item: StackItem, offered: tuple[int, ...],
                chosen: int) -> None:
    """Murmurs from Beyond: the chosen card to its owner's graveyard, the rest of the
    revealed cards to the hand (608.2c); then resolution goes on after this effect."""
    for oid in offered:
        o = t.s.objects[oid]
        t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(),
                              to_zone="graveyard" if oid == chosen else "hand",
                              to_player=o.owner, rule="608.2c"))
    t.emit(ev.ResolutionPaused(item=item.id, resume_at=item.resume_at + 1, rule="608.2d"))


def unless_answered(t: Txn, m: Marker, item: StackItem, paid: bool,
                    accepted: bool = False) -> bool:
    """The answer to "unless that player pays" (118.12a): if they paid, the effect is
    skipped; otherwise it happens - for "you may draw ... unless", once the controller
    says yes (603.5: asked now, `optional`; `accepted` when they have). Resolution then
    goes on after it. Returns True while the controller is being asked."""
    from arbiter_core.stack.resolve import item_effects
    from arbiter_core.turns.steps import draw

    _, effs = item_effects(t, item)
    eff = effs[item.resume_at]
    if not paid and isinstance(eff, DrawCards) and not t.s.players[item.controller].left:
        if not accepted and optional.is_optional(t, item):
            optional.ask(t, m, item, item.resume_at)
            return True
        payer = item.that_player
        left = payer is not None and t.s.players[payer].left
        for _ in range(eff.count):
            draw(t, item.controller, "800.4f" if left else "118.12a")
    t.emit(ev.ResolutionPaused(item=item.id, resume_at=item.resume_at + 1, rule="608.2d"))
    return False


def proliferate(t: Txn, m: Marker, item: StackItem, index: int) -> bool:
    """CR 701.34a: the controller chooses any number of permanents and/or players that
    have a counter - a choice of objects and players, so only those within their range
    of influence (801.5a). In Two-Headed Giant a player has the kinds of counters their
    team has (810.10d): a player whose team has poison counters may be chosen."""
    s = t.s
    who = item.controller
    if s.players[who].left:
        return False
    objs = [o.id for o in s.permanents() if o.counters and object_in_range(s, who, o)]
    players = [p for p in s.in_game() if s.players[p].poison > 0
               and player_in_range(s, who, p)]
    if not objs and not players:
        return False
    t.emit(ev.ResolutionPaused(item=item.id, resume_at=index + 1, rule="608.2d"))
    t.emit(ev.DecisionRequested(marker=m.number, kind="proliferate", player=who,
                                options=objs, choices=players, count=len(objs) + len(players),
                                min_count=0, stack_item=item.id, rule="701.34a"))
    return True


def proliferate_chosen(t: Txn, objs: list[int], players: list[str]) -> None:
    """Give each chosen permanent and player another counter of each kind already there
    (701.34a). Poison counters are a Two-Headed Giant team's: at most one player of a
    team is given one (701.34b), checked when the choice is made."""
    for oid in objs:
        o = t.s.objects[oid]
        kinds = {k: 1 for k, _ in o.counters if not (
            k == "-1/-1" and is_creature(o) and life.no_minus_counters(t.s, o.controller))}
        if kinds:
            t.emit(ev.CountersPut(obj=oid, counters=kinds, rule="701.34a"))
    for p in players:
        if not life.cant_get_poison(t.s, p):
            t.emit(ev.PoisonCountersChanged(player=p, amount=1,
                                            rule="810.10d" if t.s.shared_life else "701.34a"))


def search(t: Txn, m: Marker, item: StackItem, eff: SearchOntoBattlefield,
            legal: list[list[str]], index: int) -> bool:
    """CR 701.19a-b: the controller searches the target player's library for a card of
    the stated type; they may fail to find one. A decision (hidden information)."""
    players = [x[2:] for x in (legal[eff.target] if eff.target < len(legal) else [])]
    if not players or t.s.players[item.controller].left:
        return False
    library = t.s.zone(players[0], "library")
    found = [oid for oid in library if eff.card_type in definition(t.s.objects[oid]).types]
    t.emit(ev.ResolutionPaused(item=item.id, resume_at=index + 1, rule="608.2d"))
    t.emit(ev.DecisionRequested(marker=m.number, kind="search", player=item.controller,
                                options=found, count=1, min_count=0, stack_item=item.id,
                                rule="701.19b"))
    return True


def discard(t: Txn, m: Marker, item: StackItem, eff: Discard, legal: list[list[str]],
             index: int) -> bool:
    """CR 701.9a-b: the player chooses, unless at random; with no more cards in hand
    than required, all are discarded and there is no choice."""
    who = player_of(item, eff.who, legal)
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
