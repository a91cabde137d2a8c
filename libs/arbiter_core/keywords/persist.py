"""Persist (CR 702.79a): "When this permanent is put into a graveyard from the
battlefield, if it had no -1/-1 counters on it, return it to the battlefield under its
owner's control with a -1/-1 counter on it."

The trigger is judged on the permanent as it last existed (603.10a: leaves-the-
battlefield abilities look back in time; the intervening "if", 603.4); the ability
refers to the card in the graveyard, and returns it only if it is still there (400.7).
No -1/-1 counter is put on it if its owner controls Melira ("can't have -1/-1 counters
put on them"). A Clone that died as a copy of a persist creature had persist as it left:
its ability triggers and resolves with the abilities it had then (113.7a, 603.10a,
`items.item_definition`), and the returning card may enter as a copy again (707.5).
"""

from __future__ import annotations

from collections.abc import Sequence

from arbiter_core.cards.model import KeywordAbility, ReturnWithCounter
from arbiter_core.effects import life
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.state import GameState, Marker, Obj, StackItem
from arbiter_core.kernel.txn import Txn, watch
from arbiter_core.layers import copies
from arbiter_core.layers.characteristics import definition
from arbiter_core.stack.items import Legal, Meaning, ability_effects, effect
from arbiter_core.stack.triggers import marker_of_source


@watch(ev.ObjectMoved, order=10, look_back=True)
def _persist(s: GameState, e: ev.ObjectMoved, current: int | None, before: Obj | None
             ) -> Sequence[ev.Event]:
    """The persist abilities of a permanent put into a graveyard with no -1/-1 counter."""
    if (before is None or before.zone != "battlefield" or e.to_zone != "graveyard"
            or before.counter("-1/-1")):
        return []
    return [ev.AbilityTriggered(source=e.new_id, source_name=before.name,
                                controller=before.controller, ability=i,
                                marker=marker_of_source(s, before.controller, current),
                                obj=e.new_id, rule="702.79a")
            for i, ab in enumerate(definition(before).abilities)
            if isinstance(ab, KeywordAbility) and ab.keyword == "persist"]


@ability_effects(("keyword", "persist"))
def _meaning(ab: KeywordAbility) -> Meaning:
    return (), (ReturnWithCounter(counter="-1/-1"),)


@effect(ReturnWithCounter)
def _return_with_counter(t: Txn, m: Marker, item: StackItem, eff: ReturnWithCounter,
                         legal: Legal, index: int) -> bool:
    """The card that died returns from its owner's graveyard, if it is still there
    (400.7), under its owner's control, with a -1/-1 counter on it - none if its owner
    controls Melira."""
    s = t.s
    o = s.objects.get(item.that_obj) if item.that_obj is not None else None
    if o is None or o.zone != "graveyard" or s.players[o.owner].left:
        return False
    if copies.ask_as_returned(t, m, item, o.id, index):
        return True  # a Clone may enter as a copy again (707.5, a new object, 400.7)
    new_id = t.new_id()
    t.emit(ev.ObjectMoved(obj=o.id, new_id=new_id, to_zone="battlefield", to_player=o.owner,
                          controller=o.owner, rule="702.79a"))
    copies.become(t, m, item, new_id)
    if not (eff.counter == "-1/-1" and life.no_minus_counters(t.s, o.owner)):
        t.emit(ev.CountersPut(obj=new_id, counters={eff.counter: 1}, rule="702.79a"))
    return False
