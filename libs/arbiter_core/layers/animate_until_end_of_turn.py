"""A noncreature artifact becoming an artifact creature until end of turn (Karn, Silver
Golem: "{1}: Target noncreature artifact becomes an artifact creature with power and
toughness each equal to its mana value until end of turn.").

- As the ability resolves, the target becomes a creature (layer 4, 613.1d) - still an
  artifact - with power and toughness each equal to its mana value (202.3, layer 7b,
  613.4b): `PermanentBecameCreature`, with an "until end of turn" effect record
  (`EffectCreated`, kind "become_creature") so that it ends at cleanup (514.2,
  `AnimationEnded` through `continuous.ENDED_AT_CLEANUP`).
- The card: Karn, Silver Golem, whose other ability is "Whenever ~ blocks or becomes
  blocked, it gets -4/+4 until end of turn" (`combat/block_triggers.py`). Karn is a
  colorless legendary creature: a Brawl commander with no colors in its identity
  (903.12e).
"""

from __future__ import annotations

from typing import Literal

from arbiter_core.cards.build import card, target
from arbiter_core.cards.model import (
    ActivatedAbility,
    BecomeArtifactCreatureUntilEndOfTurn,
    Cost,
    ModifyPowerToughness,
    TriggeredAbility,
)
from arbiter_core.cards.pool import add_card
from arbiter_core.cards.render_effects import wording
from arbiter_core.cards.render_words import Context
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.edits import set_obj
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import Effect, GameState, Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import cost_for_mana_value
from arbiter_core.layers.continuous import ENDED_AT_CLEANUP, still_affected
from arbiter_core.stack.items import Legal, effect, objects_of
from arbiter_core.stack.mana import parse_cost


class AnimationEnded(ev.EventBase):
    """An "until end of turn" become-a-creature effect ended (514.2): `obj` is no longer
    a creature."""

    type: Literal["AnimationEnded"] = "AnimationEnded"
    obj: int


def mana_value(cost: str | None) -> int:
    """202.3: the total of the mana cost ({X} counts as 0)."""
    return parse_cost(cost).total if cost else 0


@effect(BecomeArtifactCreatureUntilEndOfTurn)
def _animate(t: Txn, m: Marker, item: StackItem, eff: BecomeArtifactCreatureUntilEndOfTurn,
             legal: Legal, index: int) -> bool:
    for oid in objects_of(legal[eff.target]):
        o = t.s.objects[oid]
        mv = mana_value(cost_for_mana_value(o))  # 712.8e too
        t.emit(ev.PermanentBecameCreature(obj=oid, power=mv, toughness=mv, rule="613.1d"))
        t.emit(ev.EffectCreated(kind="become_creature", affected=[oid], marker=m.number,
                                controller=item.controller, rule="611.2a"))
    return False


def _ended(t: Txn, ending: tuple[Effect, ...]) -> None:
    """514.2: the animations that just ended, on permanents still on the battlefield."""
    for oid in still_affected(t.s, ending, "become_creature"):
        t.emit(AnimationEnded(obj=oid, rule="514.2"))


ENDED_AT_CLEANUP.add("all", _ended)


@applies(AnimationEnded)
def _animation_ended(s: GameState, e: AnimationEnded) -> None:
    set_obj(s, e.obj, became=None)


@explains(AnimationEnded)
def _explain(before: GameState, e: AnimationEnded, name: Namer) -> str:
    return f"{name(e.obj)} is no longer a creature"


@wording(BecomeArtifactCreatureUntilEndOfTurn)
def _wording(eff: BecomeArtifactCreatureUntilEndOfTurn, ctx: Context) -> str:
    return (f"{ctx.target(eff.target)} becomes an artifact creature with power and "
            "toughness each equal to its mana value until end of turn.")


KARN = add_card(card(
    "Karn, Silver Golem",
    TriggeredAbility(event="blocks_or_becomes_blocked", effects=(
        ModifyPowerToughness(subject="self", power=-4, toughness=4, until_end_of_turn=True),)),
    ActivatedAbility(cost=Cost(mana="{1}"), targets=target("noncreature_artifact"),
                     effects=(BecomeArtifactCreatureUntilEndOfTurn(target=0),)),
))
