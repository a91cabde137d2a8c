"""Glimmervoid Basin (Plane - Mirrodin; CR 311, 901.7): both its abilities work from
the command zone.

"Whenever a player casts an instant or sorcery spell with a single target" triggers on
a spell cast (601.2i, 603.2) - not on a copy, which isn't cast (707.10) - whose targets
are one object or player in all. It is controlled by the planar controller (901.6) and,
as it resolves, the caster puts a copy of the spell onto the stack for each other
spell, permanent, card or player the spell could target (`stack.copy_spell`, 707.10),
each copy targeting a different one of them, put on the stack in the order the caster
chooses (707.10d, `stack.copy_order`). A spell that has left the stack by then is
not copied (it is no longer there to copy, 707.10).

The chaos ability (311.7) targets a creature; each player but its controller, in turn
order (101.4), creates a token that's a copy of it (`layers.copies.create_token_copy`,
707.2). 901.13, 801.18: outside Grand Melee, range of influence doesn't limit either
ability; in Grand Melee it does (801.7: the cast trigger sees only a caster within its
planar controller's range; 801.10: only players within it create tokens).
"""

from __future__ import annotations

from collections.abc import Sequence

from arbiter_core.cards.build import card
from arbiter_core.cards.model import TargetSpec
from arbiter_core.cards.pool import add_card
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.refs import ObjectRef
from arbiter_core.kernel.state import GameState, Marker, Obj, StackItem
from arbiter_core.kernel.txn import Txn, watch
from arbiter_core.layers.characteristics import definition, is_creature
from arbiter_core.layers.copies import create_token_copy
from arbiter_core.multiplayer.influence import player_in_range
from arbiter_core.multiplayer.seating import turn_order_from
from arbiter_core.stack.copy_order import copies_in_order
from arbiter_core.stack.copy_spell import single_target
from arbiter_core.stack.triggers import marker_of_source
from arbiter_core.variants.planechase import face_up, is_planechase
from arbiter_core.variants.planes import casual, does

GLIMMERVOID_BASIN = add_card(card(
    "Glimmervoid Basin",
    casual("glimmervoid_copies", "Whenever a player casts an instant or sorcery spell "
                                 "with a single target, that player copies that spell for "
                                 "each other spell, permanent, card not on the "
                                 "battlefield, and/or player the spell could target. Each "
                                 "copy targets a different one of them.",
           "cast_single_target"),
    casual("glimmervoid_chaos", "Whenever you roll {CHAOS}, choose target creature. Each "
                                "player except that creature's controller creates a token "
                                "that's a copy of that creature.", "chaos",
           targets=(TargetSpec(kind="creature"),))))


def _spell_item(s: GameState, obj: int | None) -> StackItem | None:
    """The stack item of the spell whose object is `obj`, if still on a stack."""
    return next((i for i in s.stack_items.values()
                 if i.kind == "spell" and obj is not None and i.obj == obj), None)


@watch(ev.SpellCast, order=90)
def _cast_single_target(s: GameState, e: ev.SpellCast, current: int | None,
                        before: Obj | None) -> Sequence[ev.Event]:
    """An instant or sorcery spell cast with a single target (601.2c) triggers the
    ability of each face-up Glimmervoid Basin, controlled by its planar controller."""
    if not is_planechase(s):
        return []
    item = s.stack_items.get(e.item)
    if item is None or single_target(item) is None:
        return []
    d = definition(s.objects[e.new_id])
    if "Instant" not in d.types and "Sorcery" not in d.types:
        return []
    return [ev.AbilityTriggered(source=o.id, source_name=o.name, controller=o.controller,
                                ability=0, marker=marker_of_source(s, o.controller, current),
                                that_player=e.player, obj=e.new_id, rule="603.2")
            for o in face_up(s) if o.name == GLIMMERVOID_BASIN.name
            and _in_range(s, o.controller, e.player)]


def _in_range(s: GameState, controller: str, player: str) -> bool:
    """Outside Grand Melee a plane ignores range of influence (901.13, 801.18); in Grand
    Melee its abilities reach only within its planar controller's (801.7, 801.10)."""
    return not s.grand_melee or player_in_range(s, controller, player)


@does("glimmervoid_copies")
def _copies(t: Txn, m: Marker, item: StackItem) -> bool:
    """The caster copies the spell once for each other legal target, the copies put on
    the stack in the order the caster chooses (707.10, 707.10d). True while asked."""
    spell = _spell_item(t.s, item.that_obj)
    if spell is not None and item.that_player is not None:
        return copies_in_order(t, m, item, spell, item.that_player)
    return False


@does("glimmervoid_chaos")
def _chaos(t: Txn, m: Marker, item: StackItem) -> None:
    """Each player except the target creature's controller creates a token copy of it,
    in turn order (707.2, 101.4); nothing if the target is gone (608.2b)."""
    for g in item.targets:
        for ref in g:
            o = t.s.objects.get(ref.obj) if isinstance(ref, ObjectRef) else None
            if o is None or o.zone != "battlefield" or not is_creature(o):
                continue
            for player in turn_order_from(t.s, m.holder):
                if (player != o.controller and not t.s.players[player].left
                        and _in_range(t.s, item.controller, player)):
                    create_token_copy(t, player, o.id)
