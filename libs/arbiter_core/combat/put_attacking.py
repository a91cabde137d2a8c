"""Creatures put onto the battlefield attacking (CR 508.4), as Kaalia of the Vast (a
commander of the reference pool, `cards/pool_starter.py`) does.

- "Whenever ~ attacks an opponent" (trigger event `attacks_opponent`, 508.1m: an attack
  trigger): as attackers are declared, each such creature attacking a player who is its
  controller's opponent triggers, with "that opponent" the player it attacks.
- `PutOntoBattlefieldAttacking`: its controller chooses a creature card with one of the
  subtypes from their hand (a decision, "put_attacking"; none is a choice too), which
  enters tapped and attacking that opponent (`PutAttacking`). 508.4: it was never
  declared as an attacker, so it doesn't trigger "whenever ~ attacks" abilities and
  isn't in the turn's declared attackers; 508.4a: it attacks a player the declaration
  could have named (that opponent).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Literal

from arbiter_core.cards.model import PutOntoBattlefieldAttacking, TriggeredAbility
from arbiter_core.cards.render_effects import wording
from arbiter_core.cards.render_words import Context
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseObjects, PlayerCommand
from arbiter_core.kernel.decisions import check_choices, decision
from arbiter_core.kernel.edits import set_marker
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import Decision, GameState, Marker, Obj, StackItem
from arbiter_core.kernel.txn import Txn, watch
from arbiter_core.layers.characteristics import definition
from arbiter_core.multiplayer.seating import opponents
from arbiter_core.stack.items import Legal, effect
from arbiter_core.stack.resolve import resume
from arbiter_core.stack.triggers import each_triggered

KIND = "put_attacking"


class PutAttacking(ev.EventBase):
    """The permanent `obj` is attacking `player` without having been declared (508.4)."""

    type: Literal["PutAttacking"] = "PutAttacking"
    marker: int
    obj: int
    player: str


@watch(ev.AttackersDeclared, order=30)
def _attacks_opponent(s: GameState, e: ev.AttackersDeclared, current: int | None,
                      before: Obj | None) -> list[ev.Event]:
    """"Whenever ~ attacks an opponent" (508.1m), once for each such attacker."""
    out: list[ev.Event] = []
    for attacker, defender in e.attacks:
        if attacker not in s.objects or defender not in s.players:
            continue
        if defender not in opponents(s, s.objects[attacker].controller):
            continue
        out += each_triggered(s, e.marker, "attacks_opponent", current,
                              _is(attacker), that_player=defender)
    return out


def _is(attacker: int) -> Callable[[Obj, TriggeredAbility], bool]:
    return lambda o, ab: o.id == attacker


def _candidates(s: GameState, player: str, subtypes: tuple[str, ...]) -> list[int]:
    return [oid for oid in s.zone(player, "hand")
            if "Creature" in (d := definition(s.objects[oid])).types
            and set(d.subtypes) & set(subtypes)]


@effect(PutOntoBattlefieldAttacking)
def _put_attacking(t: Txn, m: Marker, item: StackItem, eff: PutOntoBattlefieldAttacking,
                   legal: Legal, index: int) -> bool:
    """Ask which card (or none), then go on resolving after this effect."""
    found = _candidates(t.s, item.controller, eff.subtypes)
    defender = item.that_player
    if not found or defender is None or t.s.players[defender].left or m.combat is None:
        return False
    t.emit(ev.ResolutionPaused(item=item.id, resume_at=index + 1, rule="608.2d"))
    t.emit(ev.DecisionRequested(marker=m.number, kind=KIND, player=item.controller,
                                options=found, count=1, min_count=0, stack_item=item.id,
                                rule="508.4"))
    return True


def _legal(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    out: list[PlayerCommand] = [ChooseObjects(player=d.player, choices=[o], marker=m.number)
                                for o in d.options]
    return [*out, ChooseObjects(player=d.player, choices=[], marker=m.number)]


@decision(KIND, ChooseObjects, _legal)
def _chosen(t: Txn, m: Marker, d: Decision, cmd: ChooseObjects) -> None:
    """The chosen card enters tapped and attacking that opponent (508.4)."""
    check_choices(d, cmd)
    assert d.stack_item is not None
    item = t.s.stack_items[d.stack_item]
    if cmd.choices and item.that_player is not None:
        new_id = t.new_id()
        t.emit(ev.ObjectMoved(obj=cmd.choices[0], new_id=new_id, to_zone="battlefield",
                              to_player=item.controller, rule="508.4"))
        t.emit(ev.PermanentTapped(obj=new_id, rule="508.4"))
        if t.s.markers[m.number].combat is not None:
            t.emit(PutAttacking(marker=m.number, obj=new_id, player=item.that_player,
                                rule="508.4"))
    resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])


@applies(PutAttacking)
def _attacking(s: GameState, e: PutAttacking) -> None:
    combat = s.markers[e.marker].combat
    assert combat is not None
    set_marker(s, e.marker, combat=replace(combat, attacks=(*combat.attacks,
                                                            (e.obj, e.player))))


@explains(PutAttacking)
def _explain(before: GameState, e: PutAttacking, name: Namer) -> str:
    return f"{name(e.obj)} is attacking {e.player}"


@wording(PutOntoBattlefieldAttacking)
def _wording(eff: PutOntoBattlefieldAttacking, ctx: Context) -> str:
    kinds = list(eff.subtypes)
    words = ", ".join(kinds[:-1]) + ", or " + kinds[-1] if len(kinds) > 2 else \
        " or ".join(kinds)
    article = "an" if words[0] in "AEIOU" else "a"
    return (f"put {article} {words} creature card from your hand onto the battlefield "
            "tapped and attacking that opponent.")

