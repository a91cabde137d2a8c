"""Transforming double-faced cards (CR 712, 701.27 Transform).

A transforming double-faced card (712.2) is one object with two faces. Its front face is
its card definition in the pool (`definition` answers it), its back face a definition
registered in `characteristics.BACK_FACES` under the card's name; `Obj.transformed`
says which face is up.

- 712.8a: outside the battlefield and the stack a double-faced card has only its front
  face's characteristics; a card that moves is a new object (400.7, `kernel/edits.move`)
  and so front face up. 712.14: it enters the battlefield front face up.
- 712.8d-e: a permanent has only the characteristics of the face that is up
  (`characteristics.definition`). 712.8e: the back face has no mana cost; its mana value
  is the front face's (`characteristics.cost_for_mana_value`).
- 701.27a: to transform it is to turn it over (`Transformed`); 712.18: it stays the same
  object, so the effects that apply to it, its counters, damage, tapped status and the
  record of its attacking this turn still apply.
- 701.27c (712.9): transforming a permanent that is no double-faced card does nothing;
  712.15a: neither does transforming a face-down permanent.
- 701.27f: an activated or triggered ability of the permanent transforms it only if it
  hasn't transformed since the ability was put onto the stack (`Obj.transformed_at`
  holds the id stamp of its last transform; stack items take ids from the same count).
- 903.4d: a card's back face counts toward its color identity (`deck_commander`).

The pool's transforming card is Civilized Scholar // Homicidal Brute (its abilities'
effects, 121.1, 701.9, 701.26, are here too).
"""

from __future__ import annotations

from typing import Literal

from arbiter_core.cards.build import card
from arbiter_core.cards.facts import BACK_FACES as BACK_FACTS
from arbiter_core.cards.model import (
    ActivatedAbility,
    CardDefinition,
    Cost,
    LootThenTransform,
    TapThenTransform,
    TriggeredAbility,
)
from arbiter_core.cards.pool import add_card
from arbiter_core.cards.render_effects import wording
from arbiter_core.cards.render_words import Context
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseObjects, PlayerCommand
from arbiter_core.kernel.decisions import check_choices, decision
from arbiter_core.kernel.edits import set_obj
from arbiter_core.kernel.events.base import EventBase
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import Decision, GameState, Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import BACK_FACES, definition
from arbiter_core.stack.items import Legal, effect
from arbiter_core.stack.resolve import resume
from arbiter_core.turns.draw import draw


class Transformed(EventBase):
    """A double-faced permanent transformed (701.27a): its other face is up; the same
    object (712.18). `stamp` is a fresh id number, for 701.27f."""

    type: Literal["Transformed"] = "Transformed"
    obj: int
    stamp: int


@applies(Transformed)
def _transformed(s: GameState, e: Transformed) -> None:
    o = s.objects[e.obj]
    set_obj(s, e.obj, transformed=not o.transformed, transformed_at=e.stamp)
    s.next_id = max(s.next_id, e.stamp + 1)


@explains(Transformed)
def _explain_transformed(before: GameState, e: Transformed, name: Namer) -> str:
    o = before.objects[e.obj]
    face = definition(o).name.split(" // ")[0]
    after = BACK_FACES[o.name].name if not o.transformed else o.name.split(" // ")[0]
    return f"{face} transforms into {after}"


def transform(t: Txn, item: StackItem, oid: int | None) -> bool:
    """Transform the item's source `oid` (701.27a), unless it is no permanent, no
    transforming double-faced card (701.27c), face down (712.15a) or has transformed
    since the item was put onto the stack (701.27f). True when it transformed."""
    o = t.s.objects.get(oid) if oid is not None else None
    if (o is None or o.zone != "battlefield" or o.face_down or o.name not in BACK_FACES
            or o.transformed_at > item.id):
        return False
    t.emit(Transformed(obj=o.id, stamp=t.new_id(), rule="701.27a"))
    return True


@effect(LootThenTransform)
def _loot(t: Txn, m: Marker, item: StackItem, eff: LootThenTransform, legal: Legal,
          index: int) -> bool:
    """Draw a card (121.1), then discard a card (701.9a): a choice, unless the hand
    holds one card or none (701.9b)."""
    who = item.controller
    if t.s.players[who].left:
        return False
    draw(t, who, "121.1")
    hand = list(t.s.zone(who, "hand"))
    if len(hand) > 1:
        t.emit(ev.ResolutionPaused(item=item.id, resume_at=index + 1, rule="608.2d"))
        t.emit(ev.DecisionRequested(marker=m.number, kind="loot_discard", player=who,
                                    options=hand, count=1, stack_item=item.id,
                                    rule="701.9a"))
        return True
    _discard_then_transform(t, item, hand)
    return False


def _discard_then_transform(t: Txn, item: StackItem, cards: list[int]) -> None:
    """Discard `cards` (701.9a); if a creature card is discarded this way, untap the
    source (701.26b), then transform it (701.27a, 701.27f)."""
    creature = False
    for oid in cards:
        o = t.s.objects[oid]
        creature = creature or "Creature" in definition(o).types
        t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="graveyard",
                              to_player=o.owner, rule="701.9a"))
    src = t.s.objects.get(item.source) if item.source is not None else None
    if not creature or src is None or src.zone != "battlefield":
        return
    if src.tapped:
        t.emit(ev.PermanentsUntapped(objs=[src.id], rule="701.26b"))
    transform(t, item, src.id)


def _loot_answers(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    return [ChooseObjects(player=d.player, choices=[o], marker=m.number) for o in d.options]


@decision("loot_discard", ChooseObjects, _loot_answers)
def _loot_discarded(t: Txn, m: Marker, d: Decision, cmd: ChooseObjects) -> None:
    """The chosen card is discarded, maybe transforming the source; then the resolution
    goes on."""
    check_choices(d, cmd)
    assert d.stack_item is not None
    _discard_then_transform(t, t.s.stack_items[d.stack_item], list(cmd.choices))
    resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])


@effect(TapThenTransform)
def _tap_then_transform(t: Txn, m: Marker, item: StackItem, eff: TapThenTransform,
                        legal: Legal, index: int) -> bool:
    """Tap the source (701.26a), then transform it (701.27a, 701.27f)."""
    src = t.s.objects.get(item.source) if item.source is not None else None
    if src is None or src.zone != "battlefield":
        return False
    if not src.tapped:
        t.emit(ev.PermanentTapped(obj=src.id, rule="701.26a"))
    transform(t, item, src.id)
    return False


def _face(ctx: Context) -> str:
    """The name of the face whose text this is (a front face's: before " // ")."""
    return ctx.name.split(" // ")[0]


@wording(LootThenTransform)
def _loot_words(effect: LootThenTransform, ctx: Context) -> str:
    return ("draw a card, then discard a card. If a creature card is discarded this way, "
            f"untap {_face(ctx)}, then transform it.")


@wording(TapThenTransform)
def _tap_words(effect: TapThenTransform, ctx: Context) -> str:
    return f"tap {_face(ctx)}, then transform it."


def back_face(name: str, *abilities: object) -> CardDefinition:
    """The back face of the transforming double-faced card `name` (its Oracle facts),
    registered for `definition` (712.8e)."""
    facts = BACK_FACTS[name]
    d = CardDefinition(name=facts.name, mana_cost=facts.mana_cost, colors=facts.colors,
                       supertypes=facts.supertypes, types=facts.types,
                       subtypes=facts.subtypes, power=facts.power,
                       toughness=facts.toughness, oracle=facts.oracle_text,
                       abilities=abilities)
    BACK_FACES[name] = d
    return d


SCHOLAR = "Civilized Scholar // Homicidal Brute"
CIVILIZED_SCHOLAR = add_card(card(SCHOLAR, ActivatedAbility(
    cost=Cost(tap=True), effects=(LootThenTransform(),))))
HOMICIDAL_BRUTE = back_face(SCHOLAR, TriggeredAbility(
    event="your_end_step", if_didnt_attack=True, effects=(TapThenTransform(),)))
