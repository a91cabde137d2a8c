"""The order of copies put on the stack together (CR 707.10d): an effect that copies a
spell "for each" player or object it could target puts the copies onto the stack with
those targets in the order their controller chooses - the first chosen goes on the stack
first and so resolves last (as for triggers, 603.3b).

With two or more copies the controller is asked (an `order_copies` decision: its
`choices` are the copies' targets, written as references, its `options` their places in
that list; the answer lists every place once, in the order chosen). The answer is
recorded on the resolving stack item (`CopyOrderChosen`) and the resolution goes on
(`resolve.resume`), putting the copies on in that order (`copy_spell.copy_spell`).
A bot answers from the legal orders, with the game's seeded generator.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import islice, permutations
from typing import Literal

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseObjects, PlayerCommand
from arbiter_core.kernel.decisions import check_choices, decision
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.refs import Ref, parse_ref
from arbiter_core.kernel.state import Decision, GameState, Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.stack.copy_spell import copy_spell, other_targets, single_target
from arbiter_core.stack.resolve import resume

KIND = "order_copies"
_TAG = "copy_order:"
_ANSWERS = 24  # at most this many orders listed as legal answers (any order is legal)


class CopyOrderChosen(ev.EventBase):
    """The controller of copies made by resolving stack item `item` chose the order they
    go on the stack: `targets`, the first first (707.10d)."""

    type: Literal["CopyOrderChosen"] = "CopyOrderChosen"
    item: int
    player: str
    targets: list[str]


def _chosen(item: StackItem) -> list[Ref] | None:
    for c in item.chosen:
        if c.startswith(_TAG):
            return [parse_ref(r) for r in c[len(_TAG):].split("|") if r]
    return None


def copies_in_order(t: Txn, m: Marker, by: StackItem, spell: StackItem,
                    player: str) -> bool:
    """As `by` resolves, `player` copies the single-target `spell` once for each other
    target it could have, each copy targeting a different one, in the order `player`
    chooses (707.10d). True while the resolution waits for that order."""
    found = single_target(spell)
    if found is None:
        return False
    refs = _chosen(by)
    if refs is None:
        refs = other_targets(t, spell)
        if len(refs) > 1:
            t.emit(ev.ResolutionPaused(item=by.id, resume_at=by.resume_at, rule="707.10d"))
            t.emit(ev.DecisionRequested(marker=m.number, kind=KIND, player=player,
                                        options=list(range(len(refs))), count=len(refs),
                                        choices=list(refs), stack_item=by.id,
                                        rule="707.10d"))
            return True
    index = found[0]
    for ref in refs:
        copy_spell(t, spell, player,
                   tuple((ref,) if i == index else g for i, g in enumerate(spell.targets)))
    return False


def _answers(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    return [ChooseObjects(player=d.player, choices=list(p), marker=m.number)
            for p in islice(permutations(d.options), _ANSWERS)]


@decision(KIND, ChooseObjects, _answers)
def _ordered(t: Txn, m: Marker, d: Decision, cmd: ChooseObjects) -> None:
    """Every copy once, in the order they go on the stack (707.10d)."""
    check_choices(d, cmd)
    if len(cmd.choices) != len(d.options):
        raise RuleViolation("707.10d", "order all of the copies")
    assert d.stack_item is not None
    t.emit(CopyOrderChosen(item=d.stack_item, player=d.player,
                           targets=[d.choices[i] for i in cmd.choices], rule="707.10d"))
    resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])


@applies(CopyOrderChosen)
def _order_chosen(s: GameState, e: CopyOrderChosen) -> None:
    it = s.stack_items[e.item]
    s.stack_items[e.item] = replace(it, chosen=(*it.chosen, _TAG + "|".join(e.targets)))


@explains(CopyOrderChosen)
def _explain_order(before: GameState, e: CopyOrderChosen, name: Namer) -> str:
    what = [name.target(r) for r in e.targets]
    return f"{e.player} puts the copies on the stack aimed at {', '.join(what)}, in that order"
