"""Life paid by several players at once: "For each creature, its controller sacrifices
it unless they pay X life." (Killing Wave).

Each player who controls a creature chooses which of them they pay for, in APNAP order
(101.4; with shared team turns the active team first, 805.6); then every payment is made
and every other creature sacrificed at the same time (701.21a). Only creatures within
the spell's controller's range of influence are affected (801.10).

A player may pay life only if their life total is at least the payment (119.4), and
only 0 if their life total can't change (119.8; 810.9h for a Two-Headed Giant team).
CR 810.9b (and 119.4a): when both members of a Two-Headed Giant team pay life at once,
the total they pay may not exceed their team's life total - so a member's payment is
judged together with what their teammates have already chosen to pay for this effect.
"""

from __future__ import annotations

from dataclasses import replace

from arbiter_core.cards.model import SacrificeUnlessPayLife
from arbiter_core.effects import life
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseObjects, PlayerCommand
from arbiter_core.kernel.decisions import decision
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains, objs
from arbiter_core.kernel.state import Decision, GameState, Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import is_creature
from arbiter_core.multiplayer.influence import object_in_range
from arbiter_core.multiplayer.seating import apnap_order
from arbiter_core.stack.items import Legal, amount, effect
from arbiter_core.stack.resolve import resume


def _creatures(s: GameState, item: StackItem) -> list[int]:
    return [o.id for o in s.permanents() if is_creature(o)
            and object_in_range(s, item.controller, o)]  # 801.10


@effect(SacrificeUnlessPayLife)
def _sacrifice_unless_pay_life(t: Txn, m: Marker, item: StackItem,
                               eff: SacrificeUnlessPayLife, legal: Legal, index: int) -> bool:
    """Ask the next player who hasn't chosen yet; once all have, pay and sacrifice.
    Returns True while resolution waits for a player's choice."""
    s = t.s
    x = amount(t, item, eff.amount)
    creatures = _creatures(s, item)
    for p in apnap_order(s, m.holder):
        if p in item.chosen:
            continue
        mine = [oid for oid in creatures if s.objects[oid].controller == p]
        if not mine:
            continue
        t.emit(ev.ResolutionPaused(item=item.id, resume_at=index, rule="608.2d"))
        t.emit(ev.DecisionRequested(marker=m.number, kind="pay_life_for", player=p,
                                    options=mine, count=len(mine), min_count=0,
                                    stack_item=item.id, rule="119.4"))
        return True
    _pay_and_sacrifice(t, item, x, creatures)
    return False


def _pay_and_sacrifice(t: Txn, item: StackItem, x: int, creatures: list[int]) -> None:
    """The payments, then the sacrifices, all at once (one event each)."""
    s = t.s
    rule = "810.9b" if s.shared_life else "119.4"
    kept = [oid for oid in item.paying if oid in creatures]
    for p in s.seats:
        n = x * sum(1 for oid in kept if s.objects[oid].controller == p)
        if n > 0 and not s.players[p].left:
            t.emit(ev.LifeLost(player=p, amount=n, rule=rule))
    for oid in creatures:
        if oid not in kept and oid in t.s.objects:
            o = t.s.objects[oid]
            t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="graveyard",
                                  to_player=o.owner, rule="701.21a"))


def _already_paying(s: GameState, item: StackItem, players: list[str], x: int) -> int:
    return x * sum(1 for oid in item.paying
                   if oid in s.objects and s.objects[oid].controller in players)


def refusal(s: GameState, d: Decision, choices: list[int]) -> tuple[str, str] | None:
    """Why these creatures can't be paid for, as (rule, reason), or None if they can."""
    if len(set(choices)) != len(choices) or any(c not in d.options for c in choices):
        return ("608.2d", "choose only creatures you control, each at most once")
    assert d.stack_item is not None
    item = s.stack_items[d.stack_item]
    amount = item.x * len(choices)
    if amount <= 0:
        return None  # 119.4b: anyone can pay 0 life
    forbidden = life.can_pay(s, d.player, amount)
    if forbidden is not None:
        return (forbidden, f"{d.player} can't pay life")
    total = s.players[d.player].life  # 810.9a: the team's total in Two-Headed Giant
    if amount > total:
        return ("119.4", f"{d.player} can't pay {amount} life with {total} life")
    if s.shared_life:
        mates = [q for q in s.team_of(d.player) if q != d.player]
        paying = amount + _already_paying(s, item, mates, item.x)
        if paying > total:
            return ("810.9b", f"the team would pay {paying} life with {total} life")
    return None


def _answers(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    """None, or each creature alone if the life can be paid."""
    picks: list[list[int]] = [[]] + [[o] for o in d.options if refusal(s, d, [o]) is None]
    return [ChooseObjects(player=d.player, choices=c, marker=m.number) for c in picks]


def _payer_left(t: Txn, m: Marker, d: Decision, player: str) -> bool:
    """800.4a: the others choose."""
    assert d.stack_item is not None
    resume(t, m, t.s.stack_items[d.stack_item])
    return True


@decision("pay_life_for", ChooseObjects, _answers, on_leave=_payer_left)
def _chosen(t: Txn, m: Marker, d: Decision, cmd: ChooseObjects) -> None:
    """Record the player's choice (119.4, 810.9b); resolution goes on with the next
    player."""
    refused = refusal(t.s, d, list(cmd.choices))
    if refused is not None or cmd.players:
        raise RuleViolation(*(refused or ("608.2d", "choose creatures, not players")))
    assert d.stack_item is not None
    t.emit(ev.LifePaymentChosen(item=d.stack_item, player=d.player, objs=list(cmd.choices),
                                rule="810.9b" if t.s.shared_life else "119.4"))
    resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])


@applies(ev.LifePaymentChosen)
def _payment_chosen(s: GameState, e: ev.LifePaymentChosen) -> None:
    it = s.stack_items[e.item]
    s.stack_items[e.item] = replace(it, chosen=(*it.chosen, e.player),
                                    paying=(*it.paying, *e.objs))


@explains(ev.LifePaymentChosen)
def _explain_payment(before: GameState, e: ev.LifePaymentChosen, name: Namer) -> str:
    return f"{e.player} pays life for {objs(name, e.objs)}"
