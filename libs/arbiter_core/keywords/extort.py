"""Extort (CR 702.101): "Whenever you cast a spell, you may pay {W/B}. If you do, each
opponent loses 1 life and you gain that much life." (702.101a), a triggered ability;
several instances trigger separately (702.101b).

Everything about extort is here (docs/adding-a-mechanic.md): the keyword with its
reminder text, its trigger (a spell cast by the permanent's controller, 601.2i, 603.2),
its "you may" (603.5: `optional.OPTIONAL_KEYWORDS`, asked as it resolves), the payment
of {W/B} (a hybrid symbol, 107.4e: with white mana if the player can, else black - the
player doesn't choose, a known gap; mana abilities may be activated, 601.2g-h: a "yes"
that can't be paid is rejected) and the life drain (119.3, 119.6: "that much" is the
life the opponents actually lost), and a card that has it.

903.4c: the {W/B} of extort's reminder text is no part of a card's color identity
(Syndic of Tithes is white; deck cases `commander-reminder-text-*`).
"""

from __future__ import annotations

from collections.abc import Sequence

from arbiter_core.cards.build import card, kw
from arbiter_core.cards.model import ExtortPayment, KeywordAbility
from arbiter_core.cards.model.base import register_keyword
from arbiter_core.cards.pool import add_card
from arbiter_core.effects import life
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.state import GameState, Marker, Obj, StackItem
from arbiter_core.kernel.txn import Txn, watch
from arbiter_core.layers.characteristics import definition
from arbiter_core.multiplayer.influence import player_in_range
from arbiter_core.multiplayer.seating import opponents
from arbiter_core.stack.items import Legal, Meaning, ability_effects, effect
from arbiter_core.stack.mana import ManaCost, can_pay, parse_cost, pay
from arbiter_core.stack.optional import OPTIONAL_KEYWORDS
from arbiter_core.stack.triggers import marker_of_source

EXTORT = "extort"
register_keyword(EXTORT, "extort", "Whenever you cast a spell, you may pay {W/B}. If you "
                                   "do, each opponent loses 1 life and you gain that much "
                                   "life.")
OPTIONAL_KEYWORDS.add(EXTORT)


@watch(ev.SpellCast, order=121)
def _spell_cast(s: GameState, e: ev.SpellCast, current: int | None,
                before: Obj | None) -> Sequence[ev.Event]:
    """Each extort ability of each permanent the caster controls triggers (702.101a-b)."""
    return [ev.AbilityTriggered(source=o.id, source_name=o.name, controller=o.controller,
                                ability=i, marker=marker_of_source(s, o.controller, current),
                                rule="702.101a")
            for o in s.permanents(e.player)
            for i, ab in enumerate(definition(o).abilities)
            if isinstance(ab, KeywordAbility) and ab.keyword == EXTORT]


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
    pay(t, who, _half(t, who, eff.mana), None)
    lost = 0
    for p in opponents(t.s, who):
        if player_in_range(t.s, who, p) and not t.s.players[p].left \
                and not life.cant_change(t.s, p):
            life.lose(t, p, 1, "702.101a")
            lost += 1
    life.gain(t, who, lost, "702.101a")
    return False


def _half(t: Txn, who: str, hybrid: str) -> ManaCost:
    """107.4e: a hybrid symbol is paid with either of its colors. Known gap: the player
    doesn't choose; the first color they can pay is used (W before B for {W/B})."""
    halves = [parse_cost("{" + c + "}") for c in hybrid.strip("{}").split("/")]
    return next((h for h in halves if can_pay(t.s, who, h)), halves[0])


SYNDIC_OF_TITHES = add_card(card("Syndic of Tithes", kw(EXTORT, reminder=True)))
