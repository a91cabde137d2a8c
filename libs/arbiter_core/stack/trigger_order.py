"""Ordering simultaneous triggered abilities (CR 603.3b): each player puts their waiting
triggered abilities on the stack in any order they choose - the first chosen goes on the
stack first and so resolves last.

In a game started with `order_triggers` (`PlayersOrderTriggers`), a player with two or
more waiting triggers on a marker that aren't all the same ability of same-named sources
is asked (an `order_triggers` decision: the options are the triggers' places in the
waiting list, the answer lists them all in the order chosen). Identical abilities are
put in waiting order: any order is the same. Without the option (games stored before it
existed) the waiting order is used, as it always was.

The answer is an event (`TriggersOrdered`) that puts the player's waiting triggers in
the chosen order and marks them ordered; putting triggers on the stack then goes on
(`triggers.put_triggers`), and the player who was to receive priority gets it (117.3b-c,
kept on the marker as for a trigger's targets).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from itertools import islice, permutations
from typing import Literal

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseObjects, PlayerCommand
from arbiter_core.kernel.decisions import decision
from arbiter_core.kernel.edits import set_marker
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.registry import Slot
from arbiter_core.kernel.state import Decision, GameState, Marker
from arbiter_core.kernel.txn import Txn
from arbiter_core.stack.priority import queue_priority

_ANSWERS = 24  # at most this many orders listed as legal answers (any order is legal)


class PlayersOrderTriggers(ev.EventBase):
    """From the start of this game, players order their simultaneous triggers (603.3b)."""

    type: Literal["PlayersOrderTriggers"] = "PlayersOrderTriggers"


class TriggerOrderAsked(ev.EventBase):
    """A player is asked to order their waiting triggers; `then_priority` receives
    priority once every waiting trigger is on the stack (117.3b-c)."""

    type: Literal["TriggerOrderAsked"] = "TriggerOrderAsked"
    marker: int
    player: str
    then_priority: str | None = None


class TriggersOrdered(ev.EventBase):
    """The player's waiting triggers (places in the waiting list) in the order they go
    on the stack, the first first (603.3b)."""

    type: Literal["TriggersOrdered"] = "TriggersOrdered"
    marker: int
    player: str
    order: list[int]


def _waiting(s: GameState, marker: int, player: str) -> list[int]:
    return [i for i, tr in enumerate(s.triggers)
            if tr.controller == player and tr.marker == marker]


def ask(t: Txn, marker: int, player: str, then_priority: str | None) -> bool:
    """Ask `player` to order their waiting triggers, when the game says so and the order
    can matter. True while asked."""
    s = t.s
    if not s.order_triggers:
        return False
    mine = _waiting(s, marker, player)
    trs = [s.triggers[i] for i in mine]
    if len(mine) < 2 or all(tr.ordered for tr in trs) or len(
            {(tr.source_name, tr.ability, tr.delayed) for tr in trs}) < 2:
        return False
    t.emit(TriggerOrderAsked(marker=marker, player=player, then_priority=then_priority,
                             rule="603.3b"))
    t.emit(ev.DecisionRequested(marker=marker, kind="order_triggers", player=player,
                                options=mine, count=len(mine), rule="603.3b"))
    return True


def _orders(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    return [ChooseObjects(player=d.player, choices=list(p), marker=m.number)
            for p in islice(permutations(d.options), _ANSWERS)]


#: (txn, marker, then_priority) -> True while a player is asked: `triggers.put_triggers`,
#: which asks this module first (so it fills the slot rather than being imported)
PUT_TRIGGERS: Slot[Callable[[Txn, int, str | None], bool]] = Slot("putting triggers")


def _put_the_rest(t: Txn, m: Marker) -> None:
    then = t.s.markers[m.number].after_targets
    if not PUT_TRIGGERS.value(t, m.number, then):
        queue_priority(t, m.number, then or t.s.markers[m.number].holder)


@decision("order_triggers", ChooseObjects, _orders)
def _ordered(t: Txn, m: Marker, d: Decision, cmd: ChooseObjects) -> None:
    """Every waiting trigger once, in the order chosen (603.3b)."""
    if cmd.players or sorted(cmd.choices) != sorted(d.options) or len(
            set(cmd.choices)) != len(cmd.choices):
        raise RuleViolation("603.3b", "list each of your waiting triggered abilities once, "
                                      "in the order they go on the stack")
    t.emit(TriggersOrdered(marker=m.number, player=d.player, order=list(cmd.choices),
                           rule="603.3b"))
    _put_the_rest(t, m)


@applies(PlayersOrderTriggers)
def _players_order(s: GameState, e: PlayersOrderTriggers) -> None:
    s.order_triggers = True


@applies(TriggerOrderAsked)
def _order_asked(s: GameState, e: TriggerOrderAsked) -> None:
    set_marker(s, e.marker, after_targets=e.then_priority)


@applies(TriggersOrdered)
def _triggers_ordered(s: GameState, e: TriggersOrdered) -> None:
    """The chosen triggers take the places they had, in the chosen order."""
    places = sorted(e.order)
    chosen = [replace(s.triggers[i], ordered=True) for i in e.order]
    for place, tr in zip(places, chosen, strict=True):
        s.triggers[place] = tr


@explains(PlayersOrderTriggers)
def _explain_players_order(before: GameState, e: PlayersOrderTriggers, name: Namer) -> str:
    return "players order their simultaneous triggered abilities"


@explains(TriggerOrderAsked)
def _explain_order_asked(before: GameState, e: TriggerOrderAsked, name: Namer) -> str:
    return f"{e.player} is asked to order their triggered abilities"


@explains(TriggersOrdered)
def _explain_ordered(before: GameState, e: TriggersOrdered, name: Namer) -> str:
    what = [f"{before.triggers[i].source_name}" for i in e.order if i < len(before.triggers)]
    return f"{e.player} puts {', '.join(what)} on the stack in that order"
