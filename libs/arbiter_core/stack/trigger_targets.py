"""Targets of triggered abilities (CR 603.3d): as a triggered ability is put on the
stack, its controller chooses its targets, one target requirement after another, each
among the legal ones (`targets.candidates`, 115.1; the range of influence, 801.4).

- With only one legal way to choose (as many candidates as the requirement needs), the
  engine makes the choice (the scenario format: a decision with only one legal way is
  made automatically).
- With fewer legal candidates than the requirement needs, the ability is removed from
  the stack (603.3d) and does nothing.
- Otherwise the controller answers a `choose_targets` decision (objects as `options`,
  players as `choices`) with `ChooseObjects`. Putting the remaining waiting triggers on
  the stack (603.3b) goes on after the answer, and then the player who was to receive
  priority receives it (117.3b-c), kept on the marker (`TriggerTargetsAsked`).

A triggered ability goes on the stack its trigger names (807.5b in Grand Melee,
`triggers._marker_of_source`); the decision is asked on that marker.
"""

from __future__ import annotations

from arbiter_core.cards.model import TargetSpec, TriggeredAbility
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.state import Decision, Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.stack.targets import candidates


def requirements(t: Txn, item: StackItem) -> tuple[TargetSpec, ...]:
    """The target requirements of a triggered ability on the stack (none for a delayed
    triggered ability in this pool)."""
    if item.kind != "triggered" or item.delayed is not None:
        return ()
    from arbiter_core.stack.resolve import item_definition

    abilities = item_definition(t, item).abilities
    ab = abilities[item.ability] if item.ability < len(abilities) else None
    return ab.targets if isinstance(ab, TriggeredAbility) else ()


def _legal(t: Txn, item: StackItem, spec: TargetSpec) -> list[str]:
    """The legal single targets for `spec`; "another target" excludes those already
    chosen for the ability (115.3)."""
    earlier = {x for g in item.targets for x in g} if spec.another else set()
    return [c for c in candidates(t.s, spec, item.controller) if c not in earlier]


def choose(t: Txn, marker: int, item_id: int, then_priority: str | None) -> bool:
    """Choose the targets of the triggered ability `item_id`, just put on the stack of
    `marker` (603.3d). True while its controller is being asked."""
    while item_id in t.s.stack_items:
        item = t.s.stack_items[item_id]
        specs = requirements(t, item)
        if len(item.targets) >= len(specs):
            return False
        spec = specs[len(item.targets)]
        legal = _legal(t, item, spec)
        if len(legal) < spec.min_count:
            t.emit(ev.TriggerRemoved(item=item.id, marker=marker, rule="603.3d"))
            return False
        most = len(legal) if spec.max_count is None else min(spec.max_count, len(legal))
        if len(legal) == spec.min_count or most == 0:  # only one legal way
            t.emit(ev.TriggerTargetsChosen(item=item.id, player=item.controller,
                                           targets=legal[:most], rule="603.3d"))
            continue
        t.emit(ev.TriggerTargetsAsked(item=item.id, marker=marker,
                                      then_priority=then_priority, rule="603.3d"))
        t.emit(ev.DecisionRequested(
            marker=marker, kind="choose_targets", player=item.controller,
            options=[int(c[2:]) for c in legal if c.startswith("o:")],
            choices=[c[2:] for c in legal if c.startswith("p:")], count=most,
            min_count=spec.min_count, stack_item=item.id, rule="603.3d"))
        return True
    return False


def answer(t: Txn, m: Marker, d: Decision, objs: list[int], players: list[str]) -> None:
    """The controller's targets: each one offered, none twice (115.3), as many as the
    requirement allows (601.2c); then the other requirements, the other waiting
    triggers (603.3b), and priority."""
    from arbiter_core.stack.priority import queue_priority
    from arbiter_core.stack.triggers import put_triggers

    assert d.stack_item is not None
    low = d.count if d.min_count is None else d.min_count
    chosen = [f"o:{o}" for o in objs] + [f"p:{p}" for p in players]
    if len(set(chosen)) != len(chosen):
        raise RuleViolation("115.3", "the same target is chosen twice")
    if not low <= len(chosen) <= d.count:
        raise RuleViolation("603.3d", f"choose between {low} and {d.count} targets")
    if any(o not in d.options for o in objs) or any(p not in d.choices for p in players):
        raise RuleViolation("603.3d", "that is not a legal target for this ability")
    t.emit(ev.TriggerTargetsChosen(item=d.stack_item, player=d.player, targets=chosen,
                                   rule="603.3d"))
    then = m.after_targets
    if choose(t, m.number, d.stack_item, then) or put_triggers(t, m.number, then):
        return
    queue_priority(t, m.number, then or t.s.markers[m.number].holder)
