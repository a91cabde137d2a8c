"""A sacrifice as part of an activation cost (CR 118.3, 602.2b, 701.21a): "Sacrifice an
artifact". As the cost is paid, after the ability is on the stack and its mana is paid,
the activating player chooses which of their artifacts to sacrifice (a decision,
"sacrifice_cost", answered by naming the permanent); the permanent goes to its owner's
graveyard, and the ability records what it needs to know of it as it last existed on the
battlefield (`CostSacrificed`: its mana value, 202.3, 608.2h). The player then receives
priority (602.2e, 117.3c).

Its card is Bosh, Iron Golem, a commander of the reference pool: "{3}{R}, Sacrifice an
artifact: Bosh, Iron Golem deals damage equal to the sacrificed artifact's mana value to
any target." Bosh is an artifact: it may be sacrificed to its own ability (the damage is
then dealt by Bosh as it last existed, 113.7a).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from arbiter_core.cards.build import card, kw, target
from arbiter_core.cards.model import ActivatedAbility, Cost, DamageEqualToSacrificed
from arbiter_core.cards.pool import add_card
from arbiter_core.cards.render_effects import wording
from arbiter_core.cards.render_words import Context
from arbiter_core.effects.damage import deal_to_each
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseObjects, PlayerCommand
from arbiter_core.kernel.decisions import check_choices, decision
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import Decision, GameState, Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import definition
from arbiter_core.stack.casting import SACRIFICE_COST, sacrifice_candidates
from arbiter_core.stack.items import Legal, effect, group
from arbiter_core.stack.mana import parse_cost
from arbiter_core.stack.priority import queue_priority

KIND = "sacrifice_cost"


class CostSacrificed(ev.EventBase):
    """The ability `item` was paid for by sacrificing an object whose mana value was
    `mana_value` as it last existed on the battlefield (118.3, 608.2h)."""

    type: Literal["CostSacrificed"] = "CostSacrificed"
    item: int
    obj: int
    mana_value: int


def _ask(t: Txn, m: Marker, player: str, item: int, kind: str) -> bool:
    t.emit(ev.DecisionRequested(marker=m.number, kind=KIND, player=player,
                                options=sacrifice_candidates(t.s, player, kind), count=1,
                                stack_item=item, rule="118.3"))
    return True


SACRIFICE_COST.fill(_ask)


def _legal(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    return [ChooseObjects(player=d.player, choices=[o], marker=m.number) for o in d.options]


@decision(KIND, ChooseObjects, _legal)
def _chosen(t: Txn, m: Marker, d: Decision, cmd: ChooseObjects) -> None:
    """The chosen permanent is sacrificed (701.21a); its mana value is recorded; the
    player receives priority."""
    check_choices(d, cmd)
    assert d.stack_item is not None
    o = t.s.objects[cmd.choices[0]]
    mana_value = parse_cost(definition(o).mana_cost).total  # 202.3 ({X} is 0)
    t.emit(CostSacrificed(item=d.stack_item, obj=o.id, mana_value=mana_value,
                          rule="118.3"))
    t.emit(ev.ObjectMoved(obj=o.id, new_id=t.new_id(), to_zone="graveyard",
                          to_player=o.owner, rule="701.21a"))
    queue_priority(t, m.number, d.player)


@applies(CostSacrificed)
def _sacrificed(s: GameState, e: CostSacrificed) -> None:
    if e.item in s.stack_items:
        s.stack_items[e.item] = replace(s.stack_items[e.item], amount=e.mana_value)


@explains(CostSacrificed)
def _explain(before: GameState, e: CostSacrificed, name: Namer) -> str:
    return f"{name(e.obj)} (mana value {e.mana_value}) sacrificed to pay a cost"


@effect(DamageEqualToSacrificed)
def _damage(t: Txn, m: Marker, item: StackItem, eff: DamageEqualToSacrificed, legal: Legal,
            index: int) -> bool:
    """Damage equal to the sacrificed permanent's mana value (608.2h) to the target."""
    return deal_to_each(t, m, item, item.amount, list(group(legal, eff.to)), index)


@wording(DamageEqualToSacrificed)
def _wording(eff: DamageEqualToSacrificed, ctx: Context) -> str:
    return (f"{ctx.name} deals damage equal to the sacrificed artifact's mana value to "
            f"{ctx.ref(eff.to)}.")


BOSH_IRON_GOLEM = add_card(card(
    "Bosh, Iron Golem", kw("trample"),
    ActivatedAbility(cost=Cost(mana="{3}{R}", sacrifice="artifact"), targets=target("any"),
                     effects=(DamageEqualToSacrificed(),))))
