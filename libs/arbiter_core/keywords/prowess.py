"""Prowess (CR 702.108): "Whenever you cast a noncreature spell, this creature gets
+1/+1 until end of turn." (702.108a), a triggered ability; several instances trigger
separately (702.108b).

Everything about prowess is here (the recipe of docs/adding-a-mechanic.md): the keyword
with its reminder text, what the trigger event is (a spell cast whose characteristics
aren't a creature's, by the creature's controller: 601.2i, 603.2), what the ability does
as it resolves (613.4c, layer 7c until end of turn, 611.2a), and a card that has it.
"""

from __future__ import annotations

from collections.abc import Sequence

from arbiter_core.cards.build import card, kw
from arbiter_core.cards.model import KeywordAbility, ModifyPowerToughness
from arbiter_core.cards.model.base import register_keyword
from arbiter_core.cards.pool import add_card
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.state import GameState, Obj
from arbiter_core.kernel.txn import watch
from arbiter_core.layers.characteristics import definition
from arbiter_core.stack.items import Meaning, ability_effects
from arbiter_core.stack.triggers import keyword_triggered, marker_of_source

PROWESS = "prowess"
register_keyword(PROWESS, "prowess", "Whenever you cast a noncreature spell, this creature "
                                     "gets +1/+1 until end of turn.")


@watch(ev.SpellCast, order=120)
def _noncreature_spell(s: GameState, e: ev.SpellCast, current: int | None,
                       before: Obj | None) -> Sequence[ev.Event]:
    """Each prowess ability of each permanent the caster controls triggers (702.108a-b)
    when the spell cast isn't a creature spell."""
    if "Creature" in definition(s.objects[e.new_id]).types:
        return []
    return keyword_triggered(s, e.player, PROWESS, marker_of_source(s, e.player, current),
                             "702.108a")


@ability_effects(("keyword", PROWESS))
def _meaning(ab: KeywordAbility) -> Meaning:
    """"This creature gets +1/+1 until end of turn" (611.2a, layer 7c)."""
    return (), (ModifyPowerToughness(subject="self", power=1, toughness=1,
                                     until_end_of_turn=True),)


MONASTERY_SWIFTSPEAR = add_card(card("Monastery Swiftspear", kw("haste"),
                                     kw(PROWESS, reminder=True)))
