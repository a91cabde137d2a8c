"""Exalted (CR 702.83): "Whenever a creature you control attacks alone, that creature
gets +1/+1 until end of turn." (702.83a); a creature attacks alone when it is the only
creature declared as an attacker in the declare attackers step (702.83b; a creature put
onto the battlefield attacking, 508.4, is never declared); each instance triggers
separately (702.83a).

Rafiq of the Many's second ability triggers on the same event (the card model's trigger
event `creature_you_control_attacks_alone`), and gives that creature double strike until
end of turn. Both abilities name the attacking creature ("that creature", "it"): the
trigger records it (`obj`), and `ThatCreatureGains` affects it only while it is still on
the battlefield (400.7).
"""

from __future__ import annotations

from collections.abc import Sequence

from arbiter_core.cards.build import card, kw
from arbiter_core.cards.model import KeywordAbility, ThatCreatureGains, TriggeredAbility
from arbiter_core.cards.model.base import KEYWORD_NAMES, register_keyword
from arbiter_core.cards.pool import add_card
from arbiter_core.cards.render_effects import wording
from arbiter_core.cards.render_words import Context
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.state import GameState, Marker, Obj, StackItem
from arbiter_core.kernel.txn import Txn, watch
from arbiter_core.stack.items import Legal, Meaning, ability_effects, effect
from arbiter_core.stack.triggers import each_triggered, keyword_triggered

EXALTED = "exalted"
register_keyword(EXALTED, "exalted", "Whenever a creature you control attacks alone, that "
                                     "creature gets +1/+1 until end of turn.")


def attacking_alone(s: GameState, e: ev.AttackersDeclared) -> Obj | None:
    """The creature attacking alone (702.83b): the only one declared as an attacker."""
    if len(e.attacks) != 1 or e.attacks[0][0] not in s.objects:
        return None
    return s.objects[e.attacks[0][0]]


@watch(ev.AttackersDeclared, order=31)
def _attacks_alone(s: GameState, e: ev.AttackersDeclared, current: int | None,
                   before: Obj | None) -> Sequence[ev.Event]:
    """Each exalted instance of each permanent the attacking creature's controller
    controls triggers (702.83a), and so does each "whenever a creature you control
    attacks alone" ability (Rafiq of the Many, 603.2)."""
    alone = attacking_alone(s, e)
    if alone is None:
        return []
    controller = alone.controller
    out: list[ev.Event] = [*keyword_triggered(s, controller, EXALTED, e.marker, "702.83a",
                                              obj=alone.id)]
    out += each_triggered(s, e.marker, "creature_you_control_attacks_alone", current,
                          lambda o, ab: o.controller == controller, obj=alone.id)
    return out


@ability_effects(("keyword", EXALTED))
def _meaning(ab: KeywordAbility) -> Meaning:
    """"That creature gets +1/+1 until end of turn" (611.2a, layer 7c)."""
    return (), (ThatCreatureGains(power=1, toughness=1),)


@effect(ThatCreatureGains)
def _that_creature_gains(t: Txn, m: Marker, item: StackItem, eff: ThatCreatureGains,
                         legal: Legal, index: int) -> bool:
    """The creature the trigger names, if it is still on the battlefield (400.7): +N/+M
    (613.4c) or a keyword (613.1f) until end of turn."""
    o = t.s.objects.get(item.that_obj) if item.that_obj is not None else None
    if o is None or o.zone != "battlefield":
        return False
    if eff.keyword is not None:
        t.emit(ev.EffectCreated(kind="keyword", affected=[o.id], keyword=eff.keyword,
                                marker=m.number, controller=item.controller, rule="613.1f"))
    if eff.power or eff.toughness:
        t.emit(ev.EffectCreated(kind="pt", affected=[o.id], power=eff.power,
                                toughness=eff.toughness, marker=m.number, rule="611.2a"))
    return False


@wording(ThatCreatureGains)
def _wording(eff: ThatCreatureGains, ctx: Context) -> str:
    if eff.keyword is not None:
        return f"it gains {KEYWORD_NAMES[eff.keyword]} until end of turn."
    return f"that creature gets {eff.power:+d}/{eff.toughness:+d} until end of turn."


RAFIQ_OF_THE_MANY = add_card(card(
    "Rafiq of the Many", kw(EXALTED, reminder=True),
    TriggeredAbility(event="creature_you_control_attacks_alone",
                     effects=(ThatCreatureGains(keyword="double_strike"),))))
