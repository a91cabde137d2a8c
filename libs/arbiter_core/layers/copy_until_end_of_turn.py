"""A permanent becoming a copy of another until end of turn (Cytoshape: "Choose a
nonlegendary creature on the battlefield. Target creature becomes a copy of that
creature until end of turn.").

- As the spell resolves its controller chooses the creature to copy (a
  `choose_copy_original` decision: a nonlegendary creature on the battlefield; the
  resolution pauses, `ev.CopyChosen` records the choice and it goes on). With none to
  choose, nothing happens.
- The target then has the chosen creature's copiable values (707.2, layer 1: its name,
  and the printed values that come with it; `ev.BecameCopy`, `layers/copies.py`), and
  an "until end of turn" copy effect is recorded (`EffectCreated`, kind "copy").
- At cleanup (514.2) the effect ends and the permanent has its own values again
  (`CopyEnded`, through `continuous.ENDED_AT_CLEANUP`); a permanent that left the
  battlefield meanwhile is a new object with its own values already (400.7).
- 903.3: the commander designation is the card's (`CommanderState.commanders`), so a
  commander that becomes a copy of another creature is still a commander, and its
  combat damage is still commander damage.

A token target keeps its own values aside while it is a copy (`Obj.own_token`).
"""

from __future__ import annotations

from typing import Literal

from arbiter_core.cards.build import card, spell, target
from arbiter_core.cards.model import BecomeCopyUntilEndOfTurn
from arbiter_core.cards.pool import add_card
from arbiter_core.cards.render_effects import wording
from arbiter_core.cards.render_words import Context
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseObjects, PlayerCommand
from arbiter_core.kernel.decisions import decision
from arbiter_core.kernel.edits import set_obj
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import Decision, Effect, GameState, Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import definition, is_creature
from arbiter_core.layers.continuous import ENDED_AT_CLEANUP, still_affected
from arbiter_core.layers.copies import chosen
from arbiter_core.stack.items import Legal, effect, objects_of
from arbiter_core.stack.resolve import resume

KIND = "choose_copy_original"


class CopyEnded(ev.EventBase):
    """A copy effect ended (514.2): permanent `obj` has its own copiable values again."""

    type: Literal["CopyEnded"] = "CopyEnded"
    obj: int


def _originals(s: GameState) -> list[int]:
    return [oid for oid in s.battlefield if is_creature(s.objects[oid])
            and "Legendary" not in definition(s.objects[oid]).supertypes]


@effect(BecomeCopyUntilEndOfTurn)
def _become_copy(t: Txn, m: Marker, item: StackItem, eff: BecomeCopyUntilEndOfTurn,
                 legal: Legal, index: int) -> bool:
    s = t.s
    targets = objects_of(legal[eff.target])
    if not targets:
        return False
    asked, of = chosen(item)
    if not asked:
        options = _originals(s)
        if not options:
            return False
        t.emit(ev.ResolutionPaused(item=item.id, resume_at=index, rule="707.2"))
        t.emit(ev.DecisionRequested(marker=m.number, kind=KIND, player=item.controller,
                                    options=options, count=1, stack_item=item.id,
                                    rule="707.2"))
        return True
    if of is None or of not in s.objects or s.objects[of].zone != "battlefield":
        return False
    t.emit(ev.BecameCopy(obj=targets[0], of=of, rule="707.2"))
    t.emit(ev.EffectCreated(kind="copy", affected=[targets[0]], marker=m.number,
                            controller=item.controller, rule="611.2a"))
    return False


def _answers(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    return [ChooseObjects(player=d.player, choices=[o], marker=m.number) for o in d.options]


@decision(KIND, ChooseObjects, _answers)
def _answer(t: Txn, m: Marker, d: Decision, cmd: ChooseObjects) -> None:
    """The creature the target becomes a copy of (one offered); the spell goes on."""
    picks = list(cmd.choices)
    if cmd.players or len(picks) != 1 or picks[0] not in d.options:
        raise RuleViolation("707.2", "choose one of the nonlegendary creatures offered")
    assert d.stack_item is not None
    t.emit(ev.CopyChosen(item=d.stack_item, player=d.player, of=picks[0], rule="707.2"))
    resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])


def _ended(t: Txn, ending: tuple[Effect, ...]) -> None:
    """514.2: the copy effects that just ended, on permanents still on the battlefield."""
    for oid in still_affected(t.s, ending, "copy"):
        t.emit(CopyEnded(obj=oid, rule="514.2"))


ENDED_AT_CLEANUP.add("all", _ended)


@applies(CopyEnded)
def _copy_ended(s: GameState, e: CopyEnded) -> None:
    o = s.objects[e.obj]
    if o.printed is not None:  # a token gets its own values back (`own_token`)
        set_obj(s, e.obj, name=o.printed, token=o.own_token, printed=None, own_token=None)


@explains(CopyEnded)
def _explain(before: GameState, e: CopyEnded, name: Namer) -> str:
    return f"{name(e.obj)} is no longer a copy"


@wording(BecomeCopyUntilEndOfTurn)
def _wording(eff: BecomeCopyUntilEndOfTurn, ctx: Context) -> str:
    return ("choose a nonlegendary creature on the battlefield. "
            f"{ctx.target(eff.target).capitalize()} becomes a copy of that creature "
            "until end of turn.")


CYTOSHAPE = add_card(card("Cytoshape", spell(BecomeCopyUntilEndOfTurn(target=0),
                                             targets=target("creature"))))
