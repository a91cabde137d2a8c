"""Extort (CR 702.101): "Whenever you cast a spell, you may pay {W/B}. If you do, each
opponent loses 1 life and you gain that much life." (702.101a), a triggered ability;
several instances trigger separately (702.101b).

Everything about extort is here (docs/adding-a-mechanic.md): the keyword with its
reminder text, its trigger (a spell cast by the permanent's controller, 601.2i, 603.2),
its "you may" (603.5: `optional.OPTIONAL_KEYWORDS`, asked as it resolves), the payment
of {W/B} (a hybrid symbol, 107.4e: paid with either color - when the player can pay
both, they choose, the decision `hybrid_mana`, recorded by `HybridManaChosen`; mana
abilities may be activated, 601.2g-h: a "yes" that can't be paid is rejected) and the
life drain (119.3, 119.6: "that much" is the life the opponents actually lost), and a
card that has it.

903.4c: the {W/B} of extort's reminder text is no part of a card's color identity
(Syndic of Tithes is white; deck cases `commander-reminder-text-*`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Literal

from arbiter_core.cards.build import card, kw
from arbiter_core.cards.model import ExtortPayment, KeywordAbility
from arbiter_core.cards.model.base import register_keyword
from arbiter_core.cards.pool import add_card
from arbiter_core.effects import life
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseOption, PlayerCommand
from arbiter_core.kernel.decisions import decision
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import Decision, GameState, Marker, Obj, StackItem
from arbiter_core.kernel.txn import Txn, watch
from arbiter_core.multiplayer.influence import player_in_range
from arbiter_core.multiplayer.seating import opponents
from arbiter_core.stack.items import Legal, Meaning, ability_effects, effect
from arbiter_core.stack.mana import can_pay, parse_cost, pay
from arbiter_core.stack.optional import OPTIONAL_KEYWORDS
from arbiter_core.stack.resolve import resume
from arbiter_core.stack.triggers import keyword_triggered, marker_of_source

EXTORT = "extort"
register_keyword(EXTORT, "extort", "Whenever you cast a spell, you may pay {W/B}. If you "
                                   "do, each opponent loses 1 life and you gain that much "
                                   "life.")
OPTIONAL_KEYWORDS.add(EXTORT)
KIND = "hybrid_mana"


class HybridManaChosen(ev.EventBase):
    """107.4e: `player` pays the hybrid symbol of resolving `item`'s cost with `color`."""

    type: Literal["HybridManaChosen"] = "HybridManaChosen"
    item: int
    player: str
    color: str


@watch(ev.SpellCast, order=121)
def _spell_cast(s: GameState, e: ev.SpellCast, current: int | None,
                before: Obj | None) -> Sequence[ev.Event]:
    """Each extort ability of each permanent the caster controls triggers (702.101a-b)."""
    return keyword_triggered(s, e.player, EXTORT, marker_of_source(s, e.player, current),
                             "702.101a")


@ability_effects(("keyword", EXTORT))
def _meaning(ab: KeywordAbility) -> Meaning:
    return (), (ExtortPayment(),)


@effect(ExtortPayment)
def _extort(t: Txn, m: Marker, item: StackItem, eff: ExtortPayment, legal: Legal,
            index: int) -> bool:
    """Asked "yes" (603.5): pay {W/B} (RuleViolation if unable), then each opponent in
    range (801.10) loses 1 life and the controller gains that much."""
    who = item.controller
    if t.s.players[who].left:
        return False
    color = _color(t, who, item, eff.mana)
    if color is None:  # 107.4e: either color can pay it; the player chooses
        t.emit(ev.ResolutionPaused(item=item.id, resume_at=index, rule="107.4e"))
        t.emit(ev.DecisionRequested(marker=m.number, kind=KIND, player=who,
                                    choices=_payable(t, who, eff.mana), count=1,
                                    stack_item=item.id, rule="107.4e"))
        return True
    pay(t, who, parse_cost("{" + color + "}"), None)
    lost = 0
    for p in opponents(t.s, who):
        if player_in_range(t.s, who, p) and not t.s.players[p].left \
                and not life.cant_change(t.s, p):
            life.lose(t, p, 1, "702.101a")
            lost += 1
    life.gain(t, who, lost, "702.101a")
    return False


def _payable(t: Txn, who: str, hybrid: str) -> list[str]:
    """The colors of hybrid symbol `hybrid` the player can pay it with (107.4e)."""
    return [c for c in hybrid.strip("{}").split("/")
            if can_pay(t.s, who, parse_cost("{" + c + "}"))]


def _color(t: Txn, who: str, item: StackItem, hybrid: str) -> str | None:
    """The color chosen, the only one payable, or (neither: the payment is rejected)
    the first; None while the player has to choose."""
    chosen = [c.split(":", 1)[1] for c in item.chosen if c.startswith("hybrid:")]
    if chosen:
        return chosen[-1]
    payable = _payable(t, who, hybrid)
    if len(payable) > 1:
        return None
    return payable[0] if payable else hybrid.strip("{}").split("/")[0]


def _choices(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    return [ChooseOption(player=d.player, option=c, marker=m.number) for c in d.choices]


@decision(KIND, ChooseOption, _choices)
def _answer(t: Txn, m: Marker, d: Decision, cmd: ChooseOption) -> None:
    """107.4e: the color is recorded and the resolution goes on, paying with it."""
    if cmd.option not in d.choices:
        raise RuleViolation("107.4e", f"{cmd.option!r} is not one of {list(d.choices)}")
    assert d.stack_item is not None
    t.emit(HybridManaChosen(item=d.stack_item, player=d.player, color=cmd.option,
                            rule="107.4e"))
    resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])


@applies(HybridManaChosen)
def _hybrid_chosen(s: GameState, e: HybridManaChosen) -> None:
    it = s.stack_items[e.item]
    s.stack_items[e.item] = replace(it, chosen=(*it.chosen, f"hybrid:{e.color}"))


@explains(HybridManaChosen)
def _explain_hybrid(before: GameState, e: HybridManaChosen, name: Namer) -> str:
    return f"{e.player} pays the hybrid mana symbol with {e.color}"


SYNDIC_OF_TITHES = add_card(card("Syndic of Tithes", kw(EXTORT, reminder=True)))
