"""The schemes of the pool whose players choose as they resolve (CR 904.8, 608.2d): Feed
the Machine and I Call on the Ancient Magics. Each player's choice is a decision, asked
in turn order from the active player (101.4); the players who have acted are kept on the
stack item (`StackItem.chosen`, `PlayerActed`), and the resolution starts the scheme's
effect again after each answer.

- Feed the Machine: the target opponent chooses "self" or "others" (`self_or_others`,
  recorded as the item's mode: 0 self, 1 others); then that player sacrifices two
  creatures, or each other opponent one (`sacrifice`, no choice with as few creatures as
  required). The players choose in APNAP order (101.4), each choice recorded by
  `SacrificeChosen` (`StackItem.picked`), and then the chosen creatures are sacrificed
  all at once (701.21a).
- I Call on the Ancient Magics: each other player searches their library for a card,
  reveals it (`CardRevealed`, 701.20a) and puts it into their hand (`search_to_hand`;
  701.19b: with no stated quality a card is found if there is one), then the controller
  for two (not revealed); then each player shuffles.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from arbiter_core.cards.build import card
from arbiter_core.cards.model import TargetSpec
from arbiter_core.cards.pool import add_card
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseObjects, ChooseOption, PlayerCommand
from arbiter_core.kernel.decisions import decision
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.events.base import EventBase
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains, objs
from arbiter_core.kernel.refs import PlayerRef
from arbiter_core.kernel.state import Decision, GameState, Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import is_creature
from arbiter_core.multiplayer.seating import apnap_order, opponents, turn_order_from
from arbiter_core.stack.resolve import resume
from arbiter_core.variants.planes import casual, does
from arbiter_core.variants.schemes import MOTION

add_card(card("Feed the Machine", casual(
    "feed_the_machine", MOTION + "target opponent chooses self or others. If that player "
                                 "chooses self, the player sacrifices two creatures. If "
                                 "the player chooses others, each of your other opponents "
                                 "sacrifices a creature.", "set_in_motion",
    targets=(TargetSpec(kind="opponent"),))))
add_card(card("I Call on the Ancient Magics", casual(
    "ancient_magics", MOTION + "each other player searches their library for a card, "
                               "reveals it, and puts it into their hand. Then you search "
                               "your library for two cards and put them into your hand. "
                               "Each player shuffles.", "set_in_motion")))


class PlayerActed(EventBase):
    """A player has made their part of a resolving scheme's effect (its decision)."""

    type: Literal["PlayerActed"] = "PlayerActed"
    item: int
    player: str


class SacrificeChosen(EventBase):
    """A player has chosen the creatures they will sacrifice to a resolving scheme; they
    are sacrificed once every player has chosen (101.4, 701.21a)."""

    type: Literal["SacrificeChosen"] = "SacrificeChosen"
    item: int
    player: str
    objects: list[int]


def _ask(t: Txn, m: Marker, item: StackItem, kind: Literal["sacrifice", "search_to_hand"],
         player: str, options: list[int], count: int, rule: str) -> bool:
    t.emit(ev.ResolutionPaused(item=item.id, resume_at=item.resume_at, rule="608.2d"))
    t.emit(ev.DecisionRequested(marker=m.number, kind=kind, player=player, options=options,
                                count=count, min_count=count, stack_item=item.id, rule=rule))
    return True


# ------------------------------------------------------------------ Feed the Machine


@does("feed_the_machine")
def _feed(t: Txn, m: Marker, item: StackItem) -> bool:
    s = t.s
    target = next((r.player for g in item.targets for r in g if isinstance(r, PlayerRef)
                   and not s.players[r.player].left), None)
    if target is None:
        return False
    if item.mode is None:
        t.emit(ev.ResolutionPaused(item=item.id, resume_at=item.resume_at, rule="608.2d"))
        t.emit(ev.DecisionRequested(marker=m.number, kind="self_or_others", player=target,
                                    choices=["self", "others"], count=1, stack_item=item.id,
                                    rule="608.2d"))
        return True
    if item.mode == 0:
        who, count = [target], 2
    else:
        foes = opponents(s, item.controller)
        who, count = [p for p in apnap_order(s, m.holder) if p in foes and p != target], 1
    for p in who:  # the choices in APNAP order (101.4) ...
        if p in item.chosen or s.players[p].left:
            continue
        creatures = [o.id for o in s.permanents(p) if is_creature(o)]
        if len(creatures) > count:
            return _ask(t, m, item, "sacrifice", p, creatures, count, "701.21a")
        t.emit(SacrificeChosen(item=item.id, player=p, objects=creatures, rule="101.4"))
    _sacrifice(t, list(t.s.stack_items[item.id].picked))  # ... then all at once
    return False


def _sacrifice(t: Txn, ids: list[int]) -> None:
    for oid in ids:
        o = t.s.objects.get(oid)
        if o is None or o.zone != "battlefield":
            continue
        t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="graveyard",
                              to_player=o.owner, rule="701.21a"))


def _self_or_others_answers(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    return [ChooseOption(player=d.player, option=c, marker=m.number) for c in d.choices]


@decision("self_or_others", ChooseOption, _self_or_others_answers)
def _chose(t: Txn, m: Marker, d: Decision, cmd: ChooseOption) -> None:
    if cmd.option not in d.choices:
        raise RuleViolation("608.2d", f"{cmd.option!r} is not one of {list(d.choices)}")
    assert d.stack_item is not None
    t.emit(ev.ModeChosen(item=d.stack_item, mode=d.choices.index(cmd.option), player=d.player,
                         rule="608.2d"))
    resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])


def _subsets(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    opts = list(d.options)
    picks = {tuple(opts[i:i + d.count]) for i in range(len(opts) - d.count + 1)}
    return [ChooseObjects(player=d.player, choices=list(p), marker=m.number)
            for p in sorted(picks)]


def _check(d: Decision, cmd: ChooseObjects) -> None:
    if len(set(cmd.choices)) != d.count or not set(cmd.choices) <= set(d.options) \
            or cmd.players:
        raise RuleViolation(d.rule, f"choose {d.count} of the cards offered")


@decision("sacrifice", ChooseObjects, _subsets)
def _sacrificed(t: Txn, m: Marker, d: Decision, cmd: ChooseObjects) -> None:
    _check(d, cmd)
    assert d.stack_item is not None
    t.emit(SacrificeChosen(item=d.stack_item, player=d.player, objects=list(cmd.choices),
                           rule="101.4"))
    resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])


# ------------------------------------------------------------------ Ancient Magics


@does("ancient_magics")
def _ancient_magics(t: Txn, m: Marker, item: StackItem) -> bool:
    s = t.s
    order = [p for p in turn_order_from(s, m.holder) if p != item.controller]
    for p, count in [*((p, 1) for p in order), (item.controller, 2)]:
        if p in item.chosen or s.players[p].left:
            continue
        library = list(s.zone(p, "library"))
        if len(library) > count:
            return _ask(t, m, item, "search_to_hand", p, library, count, "701.19b")
        _to_hand(t, library, reveal=p != item.controller)
        t.emit(PlayerActed(item=item.id, player=p, rule="701.19a"))
    for p in turn_order_from(t.s, m.holder):  # each player shuffles (701.24a)
        t.emit(ev.LibraryShuffled(player=p, rule="701.19b",
                                  order=t.rng.shuffled(t.s.zone(p, "library"))))
    return False


def _to_hand(t: Txn, ids: list[int], reveal: bool) -> None:
    """The cards found go to the hand; each other player's are revealed first (701.20a:
    "reveals it" - shown to all players, an event naming the card)."""
    for oid in ids:
        o = t.s.objects[oid]
        if reveal:
            t.emit(ev.CardRevealed(player=o.owner, obj=oid, name=o.name, rule="701.20a"))
        t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="hand", to_player=o.owner,
                              rule="701.19a"))


@decision("search_to_hand", ChooseObjects, _subsets)
def _found(t: Txn, m: Marker, d: Decision, cmd: ChooseObjects) -> None:
    _check(d, cmd)
    assert d.stack_item is not None
    _to_hand(t, list(cmd.choices),
             reveal=d.player != t.s.stack_items[d.stack_item].controller)
    t.emit(PlayerActed(item=d.stack_item, player=d.player, rule="701.19a"))
    resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])


@applies(PlayerActed)
def _acted(s: GameState, e: PlayerActed) -> None:
    it = s.stack_items[e.item]
    s.stack_items[e.item] = replace(it, chosen=(*it.chosen, e.player))


@explains(PlayerActed)
def _explain(before: GameState, e: PlayerActed, name: Namer) -> str:
    return f"{e.player} has done their part"


@applies(SacrificeChosen)
def _sacrifice_chosen(s: GameState, e: SacrificeChosen) -> None:
    it = s.stack_items[e.item]
    s.stack_items[e.item] = replace(it, chosen=(*it.chosen, e.player),
                                    picked=(*it.picked, *e.objects))


@explains(SacrificeChosen)
def _explain_chosen(before: GameState, e: SacrificeChosen, name: Namer) -> str:
    return f"{e.player} chooses to sacrifice {objs(name, e.objects) or 'nothing'}"
