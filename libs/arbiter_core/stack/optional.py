"""Optional ("you may") triggered abilities (CR 603.5): the ability goes on the stack
whether or not its controller means to do it; the choice is theirs as it resolves (a
choice while applying the effect, 608.2d), a yes/no decision ("you_may").

`TriggeredAbility.optional` reads "you may [first effect]. If you do, [the rest]": the
question comes as the ability begins to resolve - after the target check (608.2b: with
every target illegal it doesn't resolve, and nothing is asked) - before the first effect.
With "you may [X] unless [a player does Y]" (Rhystic Study) that player is asked first -
118.12a makes it "[they] may [Y]. If [they] don't, you may [X]" - and the controller
only when they didn't (`effect_decisions.unless_answered`, or 800.4f when they left).

The answer is acted on in the decision that records it (`OptionalActionChosen`): "yes"
goes on with the resolution from the first effect (`resolve.resume`, which doesn't ask
again: only `resolve.resolve_top` asks), "no" ends it, doing nothing.
"""

from __future__ import annotations

from arbiter_core.cards.model import DrawCards, Effect, TriggeredAbility
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.state import Decision, Marker, StackItem
from arbiter_core.kernel.txn import Txn


def is_optional(t: Txn, item: StackItem) -> bool:
    """Whether `item` is a triggered ability whose effect says "you may"."""
    if item.kind != "triggered" or item.delayed is not None:
        return False
    from arbiter_core.stack.resolve import item_definition

    abilities = item_definition(t, item).abilities
    ab = abilities[item.ability] if item.ability < len(abilities) else None
    return isinstance(ab, TriggeredAbility) and ab.optional


def has_unless(eff: Effect) -> bool:
    """"[X] unless that player pays": that player answers before the controller."""
    return isinstance(eff, DrawCards) and bool(eff.unless_that_player_pays)


def ask_first(t: Txn, m: Marker, item: StackItem, effs: tuple[Effect, ...]) -> bool:
    """As an optional ability begins to resolve, ask its controller (603.5) - unless its
    first effect has an "unless" (asked after that). True when asked."""
    if item.resume_at != 0 or not effs or has_unless(effs[0]) or not is_optional(t, item):
        return False
    ask(t, m, item, 0)
    return True


def ask(t: Txn, m: Marker, item: StackItem, index: int) -> None:
    """Pause the resolution at effect `index` for the controller's yes/no (608.2d)."""
    t.emit(ev.ResolutionPaused(item=item.id, resume_at=index, rule="608.2d"))
    t.emit(ev.DecisionRequested(marker=m.number, kind="you_may", player=item.controller,
                                choices=["yes", "no"], count=1, stack_item=item.id,
                                rule="603.5"))


def answer(t: Txn, m: Marker, d: Decision, option: str) -> None:
    """The controller's answer: "yes" does the optional effect and what follows it;
    "no" does none of it ("If you do" is false) and the ability finishes resolving."""
    from arbiter_core.effects import decisions as effect_decisions
    from arbiter_core.stack import resolve

    assert d.stack_item is not None
    accepted = option == "yes"
    t.emit(ev.OptionalActionChosen(item=d.stack_item, player=d.player, accepted=accepted,
                                   rule="603.5"))
    item = t.s.stack_items[d.stack_item]
    _, effs = resolve.item_effects(t, item)
    if not accepted:
        t.emit(ev.ResolutionPaused(item=item.id, resume_at=len(effs), rule="603.5"))
    elif item.resume_at < len(effs) and has_unless(effs[item.resume_at]):
        # the player who could pay didn't (or has left, 800.4f): the draw happens now
        effect_decisions.unless_answered(t, m, item, paid=False, accepted=True)
    resolve.resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])
