"""Opening-hand actions (CR 103.6) and the card that has one: Leyline of Sanctity.

- 103.6: once the mulligans are done (or the hands kept), the starting player may take
  the actions their opening-hand cards allow, then each other player in turn order; with
  shared team turns the starting team first (103.6c, 805.3b, `first_turn.starting_order`).
  Each player with such a card answers an `opening_hand` decision: the cards (options)
  they take the action with, any number of them, none included.
- 103.6c, 805.3b: the starting team's players act in whatever order that team likes.
  While two or more of them are still to act, the team (any of its players, 805.2)
  answers an `opening_hand_order` decision: the player who acts next (choices, in the
  order of `first_turn.starting_order`), recorded as `OpeningHandOrderChosen`; that
  player is then asked. The other teams' players act in turn order.
- 103.6a: "If ~ is in your opening hand, you may begin the game with it on the
  battlefield" (`BeginOnBattlefield`): the chosen cards are put onto the battlefield.
- 103.6b: "You may reveal this card from your opening hand. If you do, at the beginning
  of the first upkeep, each opponent loses 3 life, then you gain life equal to the life
  lost this way" (`RevealForFirstUpkeepDrain`, Chancellor of the Dross): the revealed
  card stays in hand; as the game's first upkeep begins the ability triggers (a delayed
  triggered ability, 603.7) and goes on the stack like any other (603.3).
- 702.11d: "You have hexproof" (`YouHaveHexproof`): judged where targets are
  (`targets.has_hexproof`).

The decision is asked on the first turn marker (placed for it if the mulligans didn't
place it); the answer (`OpeningHandActionsTaken`, even for none) goes on to the next
player, then the first turn begins.
"""

from __future__ import annotations

from itertools import combinations, islice
from typing import Literal

from arbiter_core.cards.build import card, kw
from arbiter_core.cards.model import (
    BeginOnBattlefield,
    RevealForFirstUpkeepDrain,
    StaticAbility,
    YouHaveHexproof,
)
from arbiter_core.cards.pool import add_card
from arbiter_core.cards.render_effects import wording
from arbiter_core.cards.render_words import Context
from arbiter_core.effects import life
from arbiter_core.game.first_turn import OPENING_HAND_ACTIONS, begin_first_turn
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseObjects, ChooseOption, PlayerCommand
from arbiter_core.kernel.decisions import check_choices, decision
from arbiter_core.kernel.edits import set_player
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains, objs
from arbiter_core.kernel.state import Decision, GameState, Marker, StackItem, Step
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import definition
from arbiter_core.multiplayer.seating import apnap_order, opponents
from arbiter_core.stack.items import Legal, Meaning, ability_effects, effect, static_effect
from arbiter_core.turns.steps import step_action

MARKER = 1
_ANSWERS = 32  # answers listed for a decision (any subset is legal)


class OpeningHandActionsTaken(ev.EventBase):
    """A player took the opening-hand actions of these cards (none: declined), 103.6."""

    type: Literal["OpeningHandActionsTaken"] = "OpeningHandActionsTaken"
    player: str
    cards: list[int]


class OpeningHandOrderChosen(ev.EventBase):
    """The starting team chose which of its players takes opening-hand actions next
    (103.6c, 805.3b)."""

    type: Literal["OpeningHandOrderChosen"] = "OpeningHandOrderChosen"
    player: str


class OpeningRevealTriggered(ev.EventBase):
    """The first upkeep began: the player's revealed cards' abilities triggered (603.7b:
    once)."""

    type: Literal["OpeningRevealTriggered"] = "OpeningRevealTriggered"
    player: str


def _action(s: GameState, oid: int) -> type | None:
    """The opening-hand action the card has, if any."""
    for ab in definition(s.objects[oid]).abilities:
        for e in ab.effects if isinstance(ab, StaticAbility) else ():
            if isinstance(e, BeginOnBattlefield | RevealForFirstUpkeepDrain):
                return type(e)
    return None


def _begins_on_battlefield(s: GameState, oid: int) -> bool:
    return _action(s, oid) is BeginOnBattlefield


def _has_action(s: GameState, player: str) -> list[int]:
    """The cards of `player`'s hand with an opening-hand action, if still to act."""
    if s.players[player].opening_done:
        return []
    return [oid for oid in s.zone(player, "hand") if _action(s, oid) is not None]


def _ask(t: Txn, first: str, order: list[str]) -> bool:
    """The next player in the order of 103.6 with an opening-hand card is asked; with
    shared team turns, while two or more of the starting team's players are still to
    act, the team first chooses who acts next (103.6c, 805.3b)."""
    s = t.s
    waiting = [p for p in order if _has_action(s, p)]
    if not waiting:
        return False
    if MARKER not in s.markers:
        t.emit(ev.MarkerPlaced(marker=MARKER, holder=first, turn=1,
                               step=Step.UNTAP.value, waiting=True, rule="103.6"))
    team = s.players[first].team
    choosers = [p for p in waiting if s.shared_team_turns and s.players[p].team == team]
    if len(choosers) > 1:
        t.emit(ev.DecisionRequested(marker=MARKER, kind="opening_hand_order",
                                    player=choosers[0], choices=choosers, rule="103.6c"))
    else:
        _request(t, waiting[0])
    return True


def _request(t: Txn, player: str) -> None:
    cards = _has_action(t.s, player)
    t.emit(ev.DecisionRequested(marker=MARKER, kind="opening_hand", player=player,
                                options=cards, count=len(cards), min_count=0,
                                rule="103.6"))


OPENING_HAND_ACTIONS.add("all", _ask)


def _answers(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    subsets = (list(c) for n in range(len(d.options), -1, -1)
               for c in combinations(d.options, n))
    return [ChooseObjects(player=d.player, choices=c, marker=m.number)
            for c in islice(subsets, _ANSWERS)]


def _order_answers(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    return [ChooseOption(player=d.player, option=p, marker=m.number) for p in d.choices
            if not s.players[p].left]


def _order_on_leave(t: Txn, m: Marker, d: Decision, player: str) -> bool:
    """A player who leaves owes nothing more (800.4a): the others are asked again."""
    begin_first_turn(t, m.holder)
    return True


@decision("opening_hand_order", ChooseOption, _order_answers, team_answers=True,
          on_leave=_order_on_leave)
def _order(t: Txn, m: Marker, d: Decision, cmd: ChooseOption) -> None:
    """The team names the player who acts next (103.6c, 805.3b); that player is asked."""
    if cmd.option not in d.choices or t.s.players[cmd.option].left:
        raise RuleViolation("103.6c", "choose a player of the team still to act")
    t.emit(OpeningHandOrderChosen(player=cmd.option, rule="103.6c"))
    _request(t, cmd.option)


@decision("opening_hand", ChooseObjects, _answers)
def _answer(t: Txn, m: Marker, d: Decision, cmd: ChooseObjects) -> None:
    """103.6a: the chosen cards that may begin the game on the battlefield do; 103.6b:
    the others are revealed (and stay in hand)."""
    check_choices(d, cmd)
    t.emit(OpeningHandActionsTaken(player=d.player, cards=list(cmd.choices), rule="103.6"))
    for oid in cmd.choices:
        if _begins_on_battlefield(t.s, oid):
            t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="battlefield",
                                  to_player=d.player, controller=d.player, rule="103.6a"))
    begin_first_turn(t, m.holder)


@step_action(Step.UPKEEP)
def _first_upkeep(t: Txn, m: Marker) -> bool:
    """As the first upkeep begins, each revealed card's ability triggers (103.6b, 603.7),
    in APNAP order; it waits to be put on the stack (603.3)."""
    s = t.s
    for player in apnap_order(s, m.holder):
        if not s.players[player].revealed:
            continue
        for number in s.players[player].revealed:
            o = next((o for o in s.objects.values() if o.card == number), None)
            if o is None:
                continue
            index = next(i for i, ab in enumerate(definition(o).abilities)
                         if isinstance(ab, StaticAbility) and any(
                             isinstance(e, RevealForFirstUpkeepDrain) for e in ab.effects))
            t.emit(ev.AbilityTriggered(source=o.id, source_name=o.name, controller=player,
                                       ability=index, marker=m.number, rule="103.6b"))
        t.emit(OpeningRevealTriggered(player=player, rule="603.7b"))
    return False


@ability_effects(StaticAbility)
def _static_on_the_stack(ab: StaticAbility) -> Meaning:
    """The only static ability that goes on a stack: an opening-hand reveal's delayed
    part (103.6b, `_first_upkeep`)."""
    return (), tuple(e for e in ab.effects if isinstance(e, RevealForFirstUpkeepDrain))


@effect(RevealForFirstUpkeepDrain)
def _drain(t: Txn, m: Marker, item: StackItem, eff: RevealForFirstUpkeepDrain, legal: Legal,
           index: int) -> bool:
    """Each opponent loses the life, then the controller gains the life lost this way
    (119.3; a shared team total loses it for each of its players, 810.9a)."""
    s = t.s
    lost = 0
    for opp in opponents(s, item.controller):
        before = s.players[opp].life
        life.lose(t, opp, eff.amount, "119.3")
        lost += before - t.s.players[opp].life
    life.gain(t, item.controller, lost, "119.6")
    return False


@applies(OpeningHandActionsTaken)
def _taken(s: GameState, e: OpeningHandActionsTaken) -> None:
    revealed = tuple(s.objects[oid].card for oid in e.cards
                     if _action(s, oid) is RevealForFirstUpkeepDrain)
    set_player(s, e.player, opening_done=True,
               revealed=(*s.players[e.player].revealed, *revealed))


@applies(OpeningHandOrderChosen)
def _order_chosen(s: GameState, e: OpeningHandOrderChosen) -> None:
    """Nothing to record beyond the event: the chosen player's decision follows it."""


@applies(OpeningRevealTriggered)
def _reveal_triggered(s: GameState, e: OpeningRevealTriggered) -> None:
    set_player(s, e.player, revealed=())


@explains(OpeningRevealTriggered)
def _explain_reveal_triggered(before: GameState, e: OpeningRevealTriggered,
                              name: Namer) -> str:
    return f"the cards {e.player} revealed from their opening hand trigger"


@explains(OpeningHandOrderChosen)
def _explain_order_chosen(before: GameState, e: OpeningHandOrderChosen,
                          name: Namer) -> str:
    return f"{e.player}'s team chooses that {e.player} takes opening-hand actions next"


@explains(OpeningHandActionsTaken)
def _explain_taken(before: GameState, e: OpeningHandActionsTaken, name: Namer) -> str:
    if not e.cards:
        return f"{e.player} takes no opening-hand action"
    return f"{e.player} takes the opening-hand actions of {objs(name, e.cards)}"


static_effect(BeginOnBattlefield, YouHaveHexproof)


@wording(RevealForFirstUpkeepDrain)
def _reveal_drain(effect: RevealForFirstUpkeepDrain, ctx: Context) -> str:
    return ("You may reveal this card from your opening hand. If you do, at the beginning "
            f"of the first upkeep, each opponent loses {effect.amount} life, then you gain "
            "life equal to the life lost this way.")


@wording(BeginOnBattlefield)
def _begin_on_battlefield(effect: BeginOnBattlefield, ctx: Context) -> str:
    return (f"If {ctx.name} is in your opening hand, you may begin the game with it on the "
            "battlefield.")


@wording(YouHaveHexproof)
def _you_have_hexproof(effect: YouHaveHexproof, ctx: Context) -> str:
    reminder = (" (You can't be the target of spells or abilities your opponents "
                "control.)" if effect.reminder else "")
    return f"You have hexproof.{reminder}"


CHANCELLOR_OF_THE_DROSS = add_card(card(
    "Chancellor of the Dross",
    StaticAbility(effects=(RevealForFirstUpkeepDrain(amount=3),)),
    kw("flying"), kw("lifelink")))

LEYLINE_OF_SANCTITY = add_card(card(
    "Leyline of Sanctity",
    StaticAbility(effects=(BeginOnBattlefield(),)),
    StaticAbility(effects=(YouHaveHexproof(reminder=True),))))
