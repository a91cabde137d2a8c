"""Opening-hand actions (CR 103.6) and the card that has one: Leyline of Sanctity.

- 103.6: once the mulligans are done (or the hands kept), the starting player may take
  the actions their opening-hand cards allow, then each other player in turn order; with
  shared team turns the starting team first (103.6c, `first_turn.starting_order`). Each
  player with such a card answers an `opening_hand` decision: the cards (options) they
  take the action with, any number of them, none included.
- 103.6a: "If ~ is in your opening hand, you may begin the game with it on the
  battlefield" (`BeginOnBattlefield`): the chosen cards are put onto the battlefield.
- 702.11d: "You have hexproof" (`YouHaveHexproof`): judged where targets are
  (`targets.has_hexproof`).

The decision is asked on the first turn marker (placed for it if the mulligans didn't
place it); the answer (`OpeningHandActionsTaken`, even for none) goes on to the next
player, then the first turn begins.
"""

from __future__ import annotations

from itertools import combinations, islice
from typing import Literal

from arbiter_core.cards.build import card
from arbiter_core.cards.model import BeginOnBattlefield, StaticAbility, YouHaveHexproof
from arbiter_core.cards.pool import add_card
from arbiter_core.cards.render_effects import wording
from arbiter_core.cards.render_words import Context
from arbiter_core.game.first_turn import OPENING_HAND_ACTIONS, begin_first_turn
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseObjects, PlayerCommand
from arbiter_core.kernel.decisions import check_choices, decision
from arbiter_core.kernel.edits import set_player
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains, objs
from arbiter_core.kernel.state import Decision, GameState, Marker, Step
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import definition
from arbiter_core.stack.items import static_effect

MARKER = 1
_ANSWERS = 32  # answers listed for a decision (any subset is legal)


class OpeningHandActionsTaken(ev.EventBase):
    """A player took the opening-hand actions of these cards (none: declined), 103.6."""

    type: Literal["OpeningHandActionsTaken"] = "OpeningHandActionsTaken"
    player: str
    cards: list[int]


def _begins_on_battlefield(s: GameState, oid: int) -> bool:
    return any(isinstance(e, BeginOnBattlefield) for ab in definition(s.objects[oid]).abilities
               if isinstance(ab, StaticAbility) for e in ab.effects)


def _ask(t: Txn, first: str, order: list[str]) -> bool:
    """The next player in the order of 103.6 with an opening-hand card is asked."""
    s = t.s
    for player in order:
        if s.players[player].opening_done:
            continue
        cards = [oid for oid in s.zone(player, "hand") if _begins_on_battlefield(s, oid)]
        if not cards:
            continue
        if MARKER not in s.markers:
            t.emit(ev.MarkerPlaced(marker=MARKER, holder=first, turn=1,
                                   step=Step.UNTAP.value, rule="103.6"))
        t.emit(ev.DecisionRequested(marker=MARKER, kind="opening_hand", player=player,
                                    options=cards, count=len(cards), min_count=0,
                                    rule="103.6"))
        return True
    return False


OPENING_HAND_ACTIONS.add("all", _ask)


def _answers(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    subsets = (list(c) for n in range(len(d.options), -1, -1)
               for c in combinations(d.options, n))
    return [ChooseObjects(player=d.player, choices=c, marker=m.number)
            for c in islice(subsets, _ANSWERS)]


@decision("opening_hand", ChooseObjects, _answers)
def _answer(t: Txn, m: Marker, d: Decision, cmd: ChooseObjects) -> None:
    """103.6a: the chosen cards begin the game on the battlefield."""
    check_choices(d, cmd)
    t.emit(OpeningHandActionsTaken(player=d.player, cards=list(cmd.choices), rule="103.6"))
    for oid in cmd.choices:
        t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="battlefield",
                              to_player=d.player, controller=d.player, rule="103.6a"))
    begin_first_turn(t, m.holder)


@applies(OpeningHandActionsTaken)
def _taken(s: GameState, e: OpeningHandActionsTaken) -> None:
    set_player(s, e.player, opening_done=True)


@explains(OpeningHandActionsTaken)
def _explain_taken(before: GameState, e: OpeningHandActionsTaken, name: Namer) -> str:
    if not e.cards:
        return f"{e.player} takes no opening-hand action"
    return f"{e.player} begins the game with {objs(name, e.cards)} on the battlefield"


static_effect(BeginOnBattlefield, YouHaveHexproof)


@wording(BeginOnBattlefield)
def _begin_on_battlefield(effect: BeginOnBattlefield, ctx: Context) -> str:
    return (f"If {ctx.name} is in your opening hand, you may begin the game with it on the "
            "battlefield.")


@wording(YouHaveHexproof)
def _you_have_hexproof(effect: YouHaveHexproof, ctx: Context) -> str:
    reminder = (" (You can't be the target of spells or abilities your opponents "
                "control.)" if effect.reminder else "")
    return f"You have hexproof.{reminder}"


LEYLINE_OF_SANCTITY = add_card(card(
    "Leyline of Sanctity",
    StaticAbility(effects=(BeginOnBattlefield(),)),
    StaticAbility(effects=(YouHaveHexproof(reminder=True),))))
