"""Effects on cards in hands and libraries (CR 608.2c): drawing (121.1; "unless that
player pays", 118.12a, asked in `optional`), milling (701.17a), an opponent choosing a
revealed card (Murmurs from Beyond), searching a library (701.19) and discarding
(701.9). The ones that stop for a player's decision (608.2d) register the decision and
its answer here; the discard decision is cleanup's too (514.1).
"""

from __future__ import annotations

from arbiter_core.cards.model import (
    Discard,
    DrawCards,
    Mill,
    RevealOpponentChooses,
    SearchOntoBattlefield,
)
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseObjects, PlayerCommand
from arbiter_core.kernel.decisions import check_choices, decision
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.state import Decision, GameState, Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import definition
from arbiter_core.multiplayer.influence import player_in_range
from arbiter_core.multiplayer.seating import opponents, turn_order_from
from arbiter_core.stack import optional
from arbiter_core.stack.items import Legal, effect, group, player_of, players_of
from arbiter_core.stack.resolve import resume
from arbiter_core.turns.draw import draw


@effect(DrawCards)
def _draw_cards(t: Txn, m: Marker, item: StackItem, eff: DrawCards, legal: Legal,
                index: int) -> bool:
    """CR 121.1: the player draws; "each player draws" (below); "unless that player
    pays" asks that player first (118.12a), or with a player who has left, nobody pays
    (800.4f) and "you may draw" is asked (603.5)."""
    if eff.who == "each_player":
        each_player_draws(t, m, item, eff.count)
        return False
    s = t.s
    who = player_of(item, eff.who, legal)
    payer = item.that_player
    rule = "121.1"
    if eff.unless_that_player_pays and payer is not None:
        if not s.players[payer].left:
            optional.ask_unless(t, m, item, index, payer)
            return True
        rule = "800.4f"  # a player who left pays no cost: the draw happens
        if optional.is_optional(t, item):  # then "you may draw" (603.5)
            optional.ask(t, m, item, index)
            return True
    if who is not None and not s.players[who].left:
        for _ in range(eff.count):
            draw(t, who, rule)
    return False


def each_player_draws(t: Txn, m: Marker, item: StackItem, count: int) -> None:
    """"Each player draws a card" (121.1): in turn order from the active player (101.4),
    each player in the game within the controller's range of influence (801.7)."""
    for p in turn_order_from(t.s, m.holder):
        if not t.s.players[p].left and player_in_range(t.s, item.controller, p):
            for _ in range(count):
                draw(t, p, "121.1")


@effect(Mill)
def _mill(t: Txn, m: Marker, item: StackItem, eff: Mill, legal: Legal, index: int) -> bool:
    """CR 701.17a: the player puts the top `count` cards of their library (as many as
    there are) into their graveyard."""
    who = player_of(item, eff.who, legal)
    if who is None or t.s.players[who].left:
        return False
    for oid in list(t.s.zone(who, "library")[:eff.count]):
        t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="graveyard",
                              to_player=who, rule="701.17a"))
    return False


@effect(RevealOpponentChooses)
def _reveal_opponent_chooses(t: Txn, m: Marker, item: StackItem, eff: RevealOpponentChooses,
                             legal: Legal, index: int) -> bool:
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


def _choose_card_answers(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    return [ChooseObjects(player=d.player, choices=[o], marker=m.number) for o in d.options]


def _chooser_left(t: Txn, m: Marker, d: Decision, player: str) -> bool:
    """800.4g: a choice the effect asked of a player who left is made by another player
    the controller names (another opponent, if possible): the effect asks again."""
    assert d.stack_item is not None
    resume(t, m, t.s.stack_items[d.stack_item])
    return True


@decision("choose_card", ChooseObjects, _choose_card_answers, on_leave=_chooser_left)
def _card_chosen(t: Txn, m: Marker, d: Decision, cmd: ChooseObjects) -> None:
    """Murmurs from Beyond: the chosen card to its owner's graveyard, the rest of the
    revealed cards to the hand (608.2c); then resolution goes on after this effect."""
    if len(cmd.choices) != 1 or cmd.choices[0] not in d.options or cmd.players:
        raise RuleViolation("608.2d", "choose one of the revealed cards")
    assert d.stack_item is not None
    item = t.s.stack_items[d.stack_item]
    chosen = cmd.choices[0]
    for oid in d.options:
        o = t.s.objects[oid]
        t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(),
                              to_zone="graveyard" if oid == chosen else "hand",
                              to_player=o.owner, rule="608.2c"))
    t.emit(ev.ResolutionPaused(item=item.id, resume_at=item.resume_at + 1, rule="608.2d"))
    resume(t, t.s.markers[m.number], t.s.stack_items[item.id])


@effect(SearchOntoBattlefield)
def _search(t: Txn, m: Marker, item: StackItem, eff: SearchOntoBattlefield, legal: Legal,
            index: int) -> bool:
    """CR 701.19a-b: the controller searches the target player's library for a card of
    the stated type; they may fail to find one. A decision (hidden information)."""
    players = players_of(group(legal, eff.target))
    if not players or t.s.players[item.controller].left:
        return False
    library = t.s.zone(players[0], "library")
    found = [oid for oid in library if eff.card_type in definition(t.s.objects[oid]).types]
    t.emit(ev.ResolutionPaused(item=item.id, resume_at=index + 1, rule="608.2d"))
    t.emit(ev.DecisionRequested(marker=m.number, kind="search", player=item.controller,
                                options=found, count=1, min_count=0, stack_item=item.id,
                                rule="701.19b"))
    return True


@effect(Discard)
def _discard(t: Txn, m: Marker, item: StackItem, eff: Discard, legal: Legal,
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


def _search_answers(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    picks = [[o] for o in d.options[:3]] + [[]]
    return [ChooseObjects(player=d.player, choices=c, marker=m.number) for c in picks]


@decision("search", ChooseObjects, _search_answers)
def _found(t: Txn, m: Marker, d: Decision, cmd: ChooseObjects) -> None:
    """CR 701.19: put the found card onto the battlefield under the searcher's control,
    then its owner shuffles (Bribery)."""
    check_choices(d, cmd)
    assert d.stack_item is not None
    item = t.s.stack_items[d.stack_item]
    owner = None
    for oid in cmd.choices:
        o = t.s.objects[oid]
        owner = o.owner
        t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="battlefield",
                              to_player=o.owner, controller=item.controller, rule="701.19a"))
    if owner is None and d.options:
        owner = t.s.objects[d.options[0]].owner
    searched = owner or next((p for g in item.targets for p in players_of(g)), None)
    if searched is not None and not t.s.players[searched].left:
        t.emit(ev.LibraryShuffled(player=searched, rule="701.19b",
                                  order=t.rng.shuffled(t.s.zone(searched, "library"))))
    resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])


def _discard_answers(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    opts = list(d.options)
    windows = {tuple(opts[i:i + d.count]) for i in range(len(opts) - d.count + 1)}
    return [ChooseObjects(player=d.player, choices=list(w), marker=m.number)
            for w in sorted(windows)]


@decision("discard", ChooseObjects, _discard_answers)
def _discarded(t: Txn, m: Marker, d: Decision, cmd: ChooseObjects) -> None:
    """The chosen cards are discarded (701.9a); then the resolution goes on, or the rest
    of the cleanup step (514.1)."""
    check_choices(d, cmd)
    for oid in cmd.choices:
        t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="graveyard",
                              to_player=cmd.player, rule="701.9a"))
    if d.stack_item is not None:
        resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])
    else:  # cleanup discard (514.1), then the rest of cleanup
        t.emit(ev.WorkQueued(marker=m.number, kind="turn_based_actions", rule="514.1"))
