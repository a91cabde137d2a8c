"""Optional ("you may") triggered abilities (CR 603.5) and "unless [a player] pays"
(118.12a).

A "you may" ability goes on the stack whether or not its controller means to do it; the
choice is theirs as it resolves (a choice while applying the effect, 608.2d), a yes/no
decision ("you_may"). `TriggeredAbility.optional` reads "you may [first effect]. If you
do, [the rest]": the question comes as the ability begins to resolve - after the target
check (608.2b: with every target illegal it doesn't resolve, and nothing is asked) -
before the first effect.

"[X] unless [that player pays]" asks that player first ("pay_or_not"). With "you may [X]
unless [a player does Y]" (Rhystic Study) 118.12a makes it "[they] may [Y]. If [they]
don't, you may [X]": the controller is asked only when they didn't (or, 800.4f, when they
have left the game).

Each answer is acted on in the decision that records it: "yes" goes on with the
resolution from the effect asked about (`resolve.resume`, which doesn't ask again: only
`resolve.resolve_top` asks), "no" ends it, doing nothing.
"""

from __future__ import annotations

from arbiter_core.cards.model import (
    CasualAbility,
    DrawCards,
    Effect,
    KeywordAbility,
    TriggeredAbility,
)
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseOption, PlayerCommand
from arbiter_core.kernel.decisions import decision
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains, item_label
from arbiter_core.kernel.state import Decision, GameState, Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.stack.items import item_definition, item_effects
from arbiter_core.stack.mana import parse_cost, pay
from arbiter_core.stack.resolve import BEGINNING, resume
from arbiter_core.turns.draw import draw

#: keywords whose triggered ability says "you may" (a mechanic module adds its own:
#: extort, 702.101a)
OPTIONAL_KEYWORDS: set[str] = set()


def is_optional(t: Txn, item: StackItem) -> bool:
    """Whether `item` is a triggered ability whose effect says "you may"."""
    if item.kind != "triggered" or item.delayed is not None:
        return False
    abilities = item_definition(t, item).abilities
    ab = abilities[item.ability] if 0 <= item.ability < len(abilities) else None
    if isinstance(ab, KeywordAbility):
        return ab.keyword in OPTIONAL_KEYWORDS
    return isinstance(ab, TriggeredAbility | CasualAbility) and ab.optional


def has_unless(eff: object) -> bool:
    """"[X] unless that player pays": that player answers before the controller."""
    return isinstance(eff, DrawCards) and bool(eff.unless_that_player_pays)


def _ask_first(t: Txn, m: Marker, item: StackItem, effs: tuple[object, ...]) -> bool:
    """As an optional ability begins to resolve, ask its controller (603.5) - unless its
    first effect has an "unless" (asked after that). True when asked."""
    if item.resume_at != 0 or not effs or has_unless(effs[0]) or not is_optional(t, item):
        return False
    ask(t, m, item, 0)
    return True


BEGINNING.add("all", _ask_first)


def ask(t: Txn, m: Marker, item: StackItem, index: int) -> None:
    """Pause the resolution at effect `index` for the controller's yes/no (608.2d)."""
    t.emit(ev.ResolutionPaused(item=item.id, resume_at=index, rule="608.2d"))
    t.emit(ev.DecisionRequested(marker=m.number, kind="you_may", player=item.controller,
                                choices=["yes", "no"], count=1, stack_item=item.id,
                                rule="603.5"))


def _yes_or_no(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    return [ChooseOption(player=d.player, option=c, marker=m.number) for c in d.choices]


@decision("you_may", ChooseOption, _yes_or_no)
def _answer(t: Txn, m: Marker, d: Decision, cmd: ChooseOption) -> None:
    """The controller's answer: "yes" does the optional effect and what follows it;
    "no" does none of it ("If you do" is false) and the ability finishes resolving."""
    if cmd.option not in d.choices:
        raise RuleViolation(d.rule, f"{cmd.option!r} is not one of {list(d.choices)}")
    assert d.stack_item is not None
    accepted = cmd.option == "yes"
    t.emit(ev.OptionalActionChosen(item=d.stack_item, player=d.player, accepted=accepted,
                                   rule="603.5"))
    item = t.s.stack_items[d.stack_item]
    _, effs = item_effects(t, item)
    if not accepted:
        t.emit(ev.ResolutionPaused(item=item.id, resume_at=len(effs), rule="603.5"))
    elif item.resume_at < len(effs) and has_unless(effs[item.resume_at]):
        # the player who could pay didn't (or has left, 800.4f): the draw happens now
        unless_answered(t, m, item, paid=False, accepted=True)
    resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])


# ------------------------------------------------------------------ unless (118.12a)


def ask_unless(t: Txn, m: Marker, item: StackItem, index: int, payer: str) -> None:
    """118.12a: that player may pay; if they don't, the effect happens."""
    t.emit(ev.ResolutionPaused(item=item.id, resume_at=index, rule="608.2d"))
    t.emit(ev.DecisionRequested(marker=m.number, kind="pay_or_not", player=payer,
                                choices=["pay", "decline"], count=1, stack_item=item.id,
                                rule="118.12a"))


def unless_answered(t: Txn, m: Marker, item: StackItem, paid: bool,
                    accepted: bool = False) -> bool:
    """The answer to "unless that player pays" (118.12a): if they paid, the effect is
    skipped; otherwise it happens - for "you may draw ... unless", once the controller
    says yes (603.5: asked now; `accepted` when they have). Resolution then goes on
    after it. Returns True while the controller is being asked."""
    _, effs = item_effects(t, item)
    eff = effs[item.resume_at]
    if not paid and isinstance(eff, DrawCards) and not t.s.players[item.controller].left:
        if not accepted and is_optional(t, item):
            ask(t, m, item, item.resume_at)
            return True
        payer = item.that_player
        left = payer is not None and t.s.players[payer].left
        for _ in range(eff.count):
            draw(t, item.controller, "800.4f" if left else "118.12a")
    t.emit(ev.ResolutionPaused(item=item.id, resume_at=item.resume_at + 1, rule="608.2d"))
    return False


def _decline(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    return [ChooseOption(player=d.player, option="decline", marker=m.number)]


@decision("pay_or_not", ChooseOption, _decline)
def _paid_or_not(t: Txn, m: Marker, d: Decision, cmd: ChooseOption) -> None:
    """That player pays the cost (118.12a; a RuleViolation if they can't), or declines."""
    if cmd.option not in d.choices:
        raise RuleViolation(d.rule, f"{cmd.option!r} is not one of {list(d.choices)}")
    assert d.stack_item is not None
    item = t.s.stack_items[d.stack_item]
    if cmd.option == "pay":
        _, effs = item_effects(t, item)
        eff: Effect = effs[item.resume_at]
        mana = eff.unless_that_player_pays if isinstance(eff, DrawCards) else ""
        pay(t, cmd.player, parse_cost(mana), None)  # 118.12a; RuleViolation if unable
    if not unless_answered(t, m, t.s.stack_items[d.stack_item], cmd.option == "pay"):
        resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])


@applies(ev.OptionalActionChosen)
def _optional_chosen(s: GameState, e: ev.OptionalActionChosen) -> None:
    """The answer is acted on in the same decision (`_answer`); nothing to keep."""


@explains(ev.OptionalActionChosen)
def _explain_optional(before: GameState, e: ev.OptionalActionChosen, name: Namer) -> str:
    return f"{e.player} says {'yes' if e.accepted else 'no'} to {item_label(before, e.item)}"
