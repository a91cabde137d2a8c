"""Putting permanents on the bottom of their owners' libraries (Hallowed Burial: "Put all
creatures on the bottom of their owners' libraries.").

- 903.9b first: each commander among them is asked about in turn (its owner may put it
  into the command zone instead; `effects.zones.replaced_zone`).
- 401.4: cards put into a library at the same time go in the order their owner chooses
  (an `order_library_bottom` decision, asked of each owner with two or more, in turn
  order; the list's last card is the bottom card), recorded (`LibraryOrderChosen`);
  the order is no one else's to see (a library is hidden).
- Each card then moves (400.7) and goes to the bottom (`PutOnLibraryBottom`).
"""

from __future__ import annotations

from dataclasses import replace
from itertools import permutations
from typing import Literal

from arbiter_core.cards.build import card, spell
from arbiter_core.cards.model import PutOnBottomOfLibraries
from arbiter_core.cards.pool import add_card
from arbiter_core.cards.render_effects import wording
from arbiter_core.cards.render_words import Context
from arbiter_core.effects.zones import all_creatures, replaced_zone
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseObjects, PlayerCommand
from arbiter_core.kernel.decisions import check_choices, decision
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import Decision, GameState, Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.multiplayer.seating import turn_order_from
from arbiter_core.stack.items import Legal, effect
from arbiter_core.stack.resolve import resume

KIND = "order_library_bottom"
_ANSWERS = 24  # orders listed as legal answers (any order is legal)


class LibraryOrderChosen(ev.EventBase):
    """401.4: `player` chose the order of their cards going to the bottom of their
    library (`order`: the last is the bottom card)."""

    type: Literal["LibraryOrderChosen"] = "LibraryOrderChosen"
    item: int
    player: str
    order: list[int]


class PutOnLibraryBottom(ev.EventBase):
    """Card `obj`, just put into its owner's library, is its bottom card."""

    type: Literal["PutOnLibraryBottom"] = "PutOnLibraryBottom"
    player: str
    obj: int


def _order(item: StackItem, player: str) -> list[int] | None:
    tag = f"bottom:{player}:"
    for c in item.chosen:
        if c.startswith(tag):
            return [int(x) for x in c[len(tag):].split(",") if x]
    return None


@effect(PutOnBottomOfLibraries)
def _bury(t: Txn, m: Marker, item: StackItem, eff: PutOnBottomOfLibraries, legal: Legal,
          index: int) -> bool:
    for oid in all_creatures(t, item):
        if replaced_zone(t, m, item, index, oid, "library") is None:
            return True  # 903.9b: asked; the command zone answer moves it
    ids = all_creatures(t, item)
    owners = [p for p in turn_order_from(t.s, m.holder)
              if any(t.s.objects[o].owner == p for o in ids)]
    for p in owners:
        mine = [o for o in ids if t.s.objects[o].owner == p]
        if len(mine) > 1 and _order(item, p) is None:
            t.emit(ev.ResolutionPaused(item=item.id, resume_at=index, rule="401.4"))
            t.emit(ev.DecisionRequested(marker=m.number, kind=KIND, player=p, options=mine,
                                        count=len(mine), stack_item=item.id,
                                        rule="401.4"))
            return True
    for p in owners:
        for oid in _order(item, p) or [o for o in ids if t.s.objects[o].owner == p]:
            new_id = t.new_id()
            t.emit(ev.ObjectMoved(obj=oid, new_id=new_id, to_zone="library", to_player=p,
                                  rule="608.2c"))
            t.emit(PutOnLibraryBottom(player=p, obj=new_id, rule="401.4"))
    return False


def _answers(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    out: list[PlayerCommand] = []
    for order in permutations(d.options):
        out.append(ChooseObjects(player=d.player, choices=list(order), marker=m.number))
        if len(out) >= _ANSWERS:
            break
    return out


@decision(KIND, ChooseObjects, _answers)
def _ordered(t: Txn, m: Marker, d: Decision, cmd: ChooseObjects) -> None:
    """Every one of the cards, once, in the order they go (the last is the bottom)."""
    check_choices(d, cmd)
    if len(cmd.choices) != len(d.options):
        raise RuleViolation("401.4", "order all of the cards")
    assert d.stack_item is not None
    t.emit(LibraryOrderChosen(item=d.stack_item, player=d.player, order=list(cmd.choices),
                              rule="401.4"))
    resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])


@applies(LibraryOrderChosen)
def _order_chosen(s: GameState, e: LibraryOrderChosen) -> None:
    it = s.stack_items[e.item]
    text = ",".join(str(o) for o in e.order)
    s.stack_items[e.item] = replace(it, chosen=(*it.chosen, f"bottom:{e.player}:{text}"))


@applies(PutOnLibraryBottom)
def _to_bottom(s: GameState, e: PutOnLibraryBottom) -> None:
    library = s.zone_for_update(e.player, "library")
    library.remove(e.obj)
    library.append(e.obj)


@explains(LibraryOrderChosen)
def _explain_order(before: GameState, e: LibraryOrderChosen, name: Namer) -> str:
    return f"{e.player} orders the cards going to the bottom of their library"


@explains(PutOnLibraryBottom)
def _explain_bottom(before: GameState, e: PutOnLibraryBottom, name: Namer) -> str:
    return f"{name(e.obj)} goes to the bottom of {e.player}'s library"


@wording(PutOnBottomOfLibraries)
def _wording(eff: PutOnBottomOfLibraries, ctx: Context) -> str:
    return "put all creatures on the bottom of their owners' libraries."


HALLOWED_BURIAL = add_card(card("Hallowed Burial", spell(PutOnBottomOfLibraries())))
