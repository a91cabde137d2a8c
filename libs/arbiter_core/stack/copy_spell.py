"""Copies of a spell on the stack (CR 707.10): an effect puts a copy of a spell onto the
stack under a player's control. The copy is not cast (707.10: "whenever you cast"
abilities don't see it) and copies the spell's characteristics and the choices made
for it as it was cast - its mode (700.2), X (107.3) and targets - unless the effect
gives it other targets: a copy "for each player or object it could target" (707.10d,
Glimmervoid Basin) targets one of them each (`copy_order.copies_in_order`).

A copy is a spell, not a card (707.10, 108.2): it is an object of its own on the
stack (`Obj.spell_copy`), owned and controlled by the player who put it there, with
the copied spell's name and so its characteristics, and its stack item names that
object - so it can be the target of a "target spell" spell or ability (115.1) and be
countered (701.6a). As it leaves the stack - resolved (608.2n) or countered (608.2b,
701.6a) - it goes to no zone: it ceases to exist (707.10a, 704.5e;
`items.ceases_if_copy`). Copies made "for each" target it could have go on the stack
in their controller's order (707.10d, `copy_order`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from arbiter_core.kernel.edits import push
from arbiter_core.kernel.events.base import EventBase
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains, targets_text
from arbiter_core.kernel.refs import Ref, ref_groups
from arbiter_core.kernel.state import GameState, Obj, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.stack.items import item_effects
from arbiter_core.stack.targets import candidates


class SpellCopied(EventBase):
    """A copy of the spell on stack item `of` was put onto marker `marker`'s stack as
    stack item `item`, controlled by `player`, with `targets` (707.10, 707.10d)."""

    type: Literal["SpellCopied"] = "SpellCopied"
    item: int
    of: int
    player: str
    obj: int | None = None  # the copy's object on the stack (707.10)
    marker: int
    targets: list[list[str]] = Field(default_factory=list)


def single_target(item: StackItem) -> tuple[int, Ref] | None:
    """The requirement index and the target of a spell with a single target (one
    target in all), else None."""
    chosen = [(i, ref) for i, g in enumerate(item.targets) for ref in g]
    return chosen[0] if len(chosen) == 1 else None


def other_targets(t: Txn, item: StackItem) -> list[Ref]:
    """Every other spell, permanent, card or player the single-target spell `item` could
    target now (115.1, with the checks of `targets.candidates`), in the order
    `candidates` gives them: players in seating order, then objects."""
    found = single_target(item)
    if found is None:
        return []
    index, current = found
    specs, _ = item_effects(t, item)
    if index >= len(specs):
        return []
    own = item.obj if item.obj is not None else item.source
    return [r for r in candidates(t.s, specs[index], item.controller, own) if r != current]


def copy_spell(t: Txn, item: StackItem, player: str,
               targets: tuple[tuple[Ref, ...], ...] | None = None) -> int:
    """Put a copy of the spell `item` onto its stack under `player`'s control (707.10),
    with `targets` when new ones are chosen for it (707.10d). Returns the copy's item."""
    new = t.new_id()
    groups = item.targets if targets is None else targets
    t.emit(SpellCopied(item=new, of=item.id, player=player, marker=item.marker,
                       targets=[list(g) for g in groups], obj=t.new_id(), rule="707.10"))
    return new


@applies(SpellCopied)
def _spell_copied(s: GameState, e: SpellCopied) -> None:
    of = s.stack_items[e.of]
    if e.obj is not None:  # a spell with no card (707.10): an object of its own
        s.timestamp += 1
        s.objects[e.obj] = Obj(id=e.obj, card=s.next_card, name=_name(s, of),
                               owner=e.player, controller=e.player, zone="stack",
                               timestamp=s.timestamp, default_controller=e.player,
                               spell_copy=True)
        s.next_card += 1
        s.next_id = max(s.next_id, e.obj + 1)
    push(s, StackItem(id=e.item, kind="spell", controller=e.player, marker=e.marker,
                      obj=e.obj, source=of.obj if of.obj is not None else of.source,
                      source_name=of.source_name, targets=ref_groups(e.targets), x=of.x,
                      mode=of.mode))


def _name(s: GameState, of: StackItem) -> str:
    """The copied spell's name (its copiable values, 707.2), else its item's."""
    o = s.objects.get(of.obj) if of.obj is not None else None
    return o.name if o is not None else of.source_name


@explains(SpellCopied)
def _explain_spell_copied(before: GameState, e: SpellCopied, name: Namer) -> str:
    of = before.stack_items.get(e.of)
    what = of.source_name if of is not None else "a spell"
    return f"{e.player} puts a copy of {what} on the stack{targets_text(name, e.targets)}"
