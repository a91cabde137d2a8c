"""Morph (CR 702.37): a static ability that lets its card be cast face down, as the
nameless 2/2 creature of 708.2a, for {3} instead of its mana cost, and the face-down
permanent be turned face up for its morph cost (702.37a).

Everything about morph is here (docs/adding-a-mechanic.md); what a face-down object is
is CR 708 (`layers/face_down.py`).

- Casting it face down (`CastFaceDown`, 702.37c-d): the card is turned face down and
  announced, then put on the stack as a face-down creature spell, and {3} is paid
  rather than its mana cost (an alternative cost, 601.2f). The face-down spell's
  characteristics decide when it may be cast (708.4): a creature spell, cast when the
  player could cast a sorcery (307.1, 117.1a). It resolves into a face-down permanent
  with the same characteristics (702.37c).
- Turning it face up (702.37e): any time its controller has priority, a special action
  that doesn't use the stack (116.2b, `stack/face_up.py`, where morph's procedure is
  registered): they show the morph cost, pay it and turn the permanent face up; the
  player then receives priority again (116.3). It is the same permanent (708.8): no
  enters ability triggers.
- The morph cost is shown only as it is paid: while the card is face down, no one
  else learns it (708.5; `views/seat.py`), and a rejected attempt names no card.
"""

from __future__ import annotations

from arbiter_core.cards import get_card
from arbiter_core.cards.build import card, kw
from arbiter_core.cards.model import CardDefinition, Cost, MorphAbility
from arbiter_core.cards.pool import add_card
from arbiter_core.cards.render import ability_wording
from arbiter_core.cards.render_words import cost_text
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.actions import priority_actions
from arbiter_core.kernel.commands import CastFaceDown, PlayerCommand
from arbiter_core.kernel.decide import handles
from arbiter_core.kernel.errors import InvalidCommand, RuleViolation
from arbiter_core.kernel.state import GameState, Marker, Obj
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import definition
from arbiter_core.stack.casting import sorcery_timing_ok
from arbiter_core.stack.face_up import face_up_procedure
from arbiter_core.stack.mana import ManaCost, can_pay, parse_cost, pay
from arbiter_core.stack.priority import queue_priority, require_priority

#: 702.37a: the cost of casting a card face down with its morph ability
FACE_DOWN_COST = "{3}"
REMINDER = ("You may cast this card face down as a 2/2 creature for {3}. Turn it face up "
            "any time for its morph cost.")


def morph_ability(d: CardDefinition) -> MorphAbility | None:
    return next((ab for ab in d.abilities if isinstance(ab, MorphAbility)), None)


def morph_cost(o: Obj) -> ManaCost | None:
    """The morph cost the permanent would have if it were face up (702.37e): its card's,
    looked at by its controller (708.5). None: no morph ability."""
    if o.token is not None:
        return None
    ab = morph_ability(get_card(o.name))
    return parse_cost(ab.cost.mana) if ab is not None else None


# ------------------------------------------------------------------ casting face down


def _card_to_cast(s: GameState, cmd: CastFaceDown) -> Obj:
    o = s.objects.get(cmd.card)
    if o is None:
        raise InvalidCommand("card", f"no object {cmd.card}")
    if o.zone != "hand" or o.owner != cmd.player:
        raise RuleViolation("601.3", f"card {o.id} is not in {cmd.player}'s hand")
    if morph_ability(definition(o)) is None:
        raise RuleViolation("702.37d", f"{o.name} has no morph ability: it can't be cast "
                                       "face down")
    return o


@handles(CastFaceDown)
def cast_face_down(t: Txn, cmd: CastFaceDown) -> None:
    """702.37c: turn it face down and announce the morph ability, put it on the stack as
    a face-down spell, pay {3} (601.2f); then the player receives priority (117.3c)."""
    s = t.s
    m = require_priority(s, cmd.player, cmd.marker)
    o = _card_to_cast(s, cmd)
    if not sorcery_timing_ok(s, m, cmd.player):  # 708.4: a face-down creature spell
        raise RuleViolation("117.1a", "a face-down creature spell can be cast only in "
                                      "your main phase when the stack is empty")
    cost = parse_cost(FACE_DOWN_COST)
    if not can_pay(s, cmd.player, cost):
        raise RuleViolation("601.2g", f"{cmd.player} can't pay {FACE_DOWN_COST}")
    t.emit(ev.TurnedFaceDown(obj=o.id, rule="702.37c"))  # 708.4: before the stack
    t.emit(ev.SpellCast(player=cmd.player, obj=o.id, new_id=t.new_id(), item=t.new_id(),
                        marker=m.number, rule="702.37c"))
    pay(t, cmd.player, cost, cmd.pay)
    queue_priority(t, m.number, cmd.player)


# ------------------------------------------------------------------ turning face up


@face_up_procedure("morph", "702.37e")
def _morph_cost(o: Obj) -> ManaCost | None:
    """702.37e: the morph cost it would have face up; none without a morph ability."""
    return morph_cost(o)


# ------------------------------------------------------------------ legal actions


@priority_actions(order=15)
def _morph_actions(s: GameState, m: Marker, player: str) -> list[PlayerCommand]:
    """Cards in the hand the player can cast face down now (turning face up is listed
    by `stack/face_up.py`)."""
    cards = [oid for oid in s.zone(player, "hand")
             if morph_ability(definition(s.objects[oid])) is not None]
    if not cards or not sorcery_timing_ok(s, m, player) or not can_pay(
            s, player, parse_cost(FACE_DOWN_COST)):
        return []
    return [CastFaceDown(player=player, card=oid, marker=m.number) for oid in cards]


# ------------------------------------------------------------------ wording and cards


@ability_wording(MorphAbility)
def _wording(ability: MorphAbility, card_: CardDefinition) -> str:
    """"Morph [cost]" (702.37a), with its reminder text when the Oracle prints it."""
    text = f"Morph {cost_text(ability.cost)}"
    return text + (f" ({REMINDER})" if ability.reminder else "")


def morph(mana: str) -> MorphAbility:
    return MorphAbility(cost=Cost(mana=mana), reminder=True)


BATTERING_CRAGHORN = add_card(card("Battering Craghorn", kw("first_strike"),
                                   morph("{1}{R}{R}")))
BRANCHSNAP_LORIAN = add_card(card("Branchsnap Lorian", kw("trample"), morph("{G}")))
