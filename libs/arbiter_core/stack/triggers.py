"""Triggered abilities (CR 603): noticing that they trigger (603.2: each trigger event's
watcher, registered beside its rule - `trigger_events`, and keywords such as persist),
putting waiting triggers on the stack in APNAP order the next time a player would
receive priority (603.3b), and choosing their targets as they go there (603.3d).

Targets of triggered abilities (603.3d): as a triggered ability is put on the stack, its
controller chooses its targets, one target requirement after another, each among the
legal ones (`targets.candidates`, 115.1; the range of influence, 801.4).

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
`marker_of_source`); the decision is asked on that marker.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from arbiter_core.cards.model import (
    CasualAbility,
    KeywordAbility,
    TargetSpec,
    TriggeredAbility,
)
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseObjects, PlayerCommand
from arbiter_core.kernel.decide import work
from arbiter_core.kernel.decisions import decision
from arbiter_core.kernel.edits import pop, push, set_marker
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains, item_label
from arbiter_core.kernel.refs import Ref, object_ref, player_ref, refs
from arbiter_core.kernel.state import (
    Decision,
    GameState,
    Marker,
    Obj,
    StackItem,
    Trigger,
    Work,
)
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import definition
from arbiter_core.multiplayer.seating import apnap_order
from arbiter_core.stack import trigger_order
from arbiter_core.stack.items import item_definition, objects_of, players_of
from arbiter_core.stack.priority import queue_priority
from arbiter_core.stack.targets import candidates


def each_triggered(s: GameState, marker: int | None, event: str, current: int | None,
          when: Callable[[Obj, TriggeredAbility], bool], that_player: str | None = None,
          amount: int = 0, obj: int | None = None) -> list[ev.AbilityTriggered]:
    """Every permanent's triggered ability for `event` whose condition holds."""
    out = []
    for oid in s.battlefield:
        o = s.objects[oid]
        for i, ab in enumerate(definition(o).abilities):
            if isinstance(ab, TriggeredAbility) and ab.event == event and when(o, ab):
                out.append(ev.AbilityTriggered(
                    source=oid, source_name=o.name, controller=o.controller, ability=i,
                    marker=marker if marker is not None
                    else marker_of_source(s, o.controller, current),
                    that_player=that_player, amount=amount, obj=obj, rule="603.2"))
    return out


def keyword_triggered(s: GameState, player: str, keyword: str, marker: int,
                      rule: str, obj: int | None = None) -> list[ev.AbilityTriggered]:
    """Each instance of a triggered keyword ability (prowess, extort, exalted) on each
    permanent `player` controls triggers separately (702.108b, 702.101b, 702.83b)."""
    return [ev.AbilityTriggered(source=o.id, source_name=o.name, controller=o.controller,
                                ability=i, marker=marker, obj=obj, rule=rule)
            for o in s.permanents(player)
            for i, ab in enumerate(definition(o).abilities)
            if isinstance(ab, KeywordAbility) and ab.keyword == keyword]


def marker_of_source(s: GameState, controller: str, current: int | None = None) -> int:
    """CR 807.5b: a trigger caused by an object on a stack goes on that stack; otherwise
    the stack of the marker whose work caused it, else the controller's own marker."""
    if current is not None and current in s.markers:
        return current
    m = s.marker_of(controller)
    return m.number if m is not None else next(iter(s.markers))


@work("put_triggers", owner="stack-resolver")
def _put_triggers_work(t: Txn, m: Marker, w: Work) -> None:
    then = w.then_priority or m.holder
    if not put_triggers(t, m.number, then):
        queue_priority(t, m.number, then)


@trigger_order.PUT_TRIGGERS.fill
def put_triggers(t: Txn, marker: int, then_priority: str | None = None) -> bool:
    """CR 603.3b: each player in APNAP order puts their waiting triggers on the stack;
    with shared team turns, the active team's players first, then each other team's
    (805.7), in the order they choose (`trigger_order`). Each one's targets are chosen
    as it is put there (603.3d, `trigger_targets`); True while a player is choosing (the
    rest wait)."""
    s = t.s
    holder = s.markers[marker].holder
    for player in apnap_order(s, holder):
        if trigger_order.ask(t, marker, player, then_priority):
            return True
        while True:
            idx = next((i for i, tr in enumerate(t.s.triggers)
                        if tr.controller == player and tr.marker == marker), None)
            if idx is None:
                break
            item = t.new_id()
            t.emit(ev.TriggerPutOnStack(index=idx, item=item, marker=marker,
                                        rule="805.7" if s.shared_team_turns else "603.3b"))
            if choose_targets(t, marker, item, then_priority):
                return True
    return False


# ------------------------------------------------------------------ targets (603.3d)


def requirements(t: Txn, item: StackItem) -> tuple[TargetSpec, ...]:
    """The target requirements of a triggered ability on the stack (none for a delayed
    triggered ability in this pool)."""
    if item.kind != "triggered" or item.delayed is not None:
        return ()
    abilities = item_definition(t, item).abilities
    ab = abilities[item.ability] if 0 <= item.ability < len(abilities) else None
    return ab.targets if isinstance(ab, TriggeredAbility | CasualAbility) else ()


def _legal(t: Txn, item: StackItem, spec: TargetSpec) -> list[Ref]:
    """The legal single targets for `spec`; "another target" excludes those already
    chosen for the ability (115.3)."""
    earlier = {x for g in item.targets for x in g} if spec.another else set()
    return [c for c in candidates(t.s, spec, item.controller) if c not in earlier]


def choose_targets(t: Txn, marker: int, item_id: int, then_priority: str | None) -> bool:
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
            options=objects_of(legal), choices=players_of(legal), count=most,
            min_count=spec.min_count, stack_item=item.id, rule="603.3d"))
        return True
    return False


def _target_answers(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    """Each legal target alone (or none when allowed)."""
    picks: list[tuple[list[int], list[str]]] = [([o], []) for o in d.options]
    picks += [([], [p]) for p in d.choices]
    if not d.min_count:
        picks.append(([], []))
    return [ChooseObjects(player=d.player, choices=c, players=ps, marker=m.number)
            for c, ps in picks]


@decision("choose_targets", ChooseObjects, _target_answers)
def _targets_answered(t: Txn, m: Marker, d: Decision, cmd: ChooseObjects) -> None:
    """The controller's targets: each one offered, none twice (115.3), as many as the
    requirement allows (601.2c); then the other requirements, the other waiting
    triggers (603.3b), and priority."""
    objs, players = list(cmd.choices), list(cmd.players)
    assert d.stack_item is not None
    low = d.count if d.min_count is None else d.min_count
    chosen: list[Ref] = [*map(object_ref, objs), *map(player_ref, players)]
    if len(set(chosen)) != len(chosen):
        raise RuleViolation("115.3", "the same target is chosen twice")
    if not low <= len(chosen) <= d.count:
        raise RuleViolation("603.3d", f"choose between {low} and {d.count} targets")
    if any(o not in d.options for o in objs) or any(p not in d.choices for p in players):
        raise RuleViolation("603.3d", "that is not a legal target for this ability")
    t.emit(ev.TriggerTargetsChosen(item=d.stack_item, player=d.player, targets=chosen,
                                   rule="603.3d"))
    then = m.after_targets
    if choose_targets(t, m.number, d.stack_item, then) or put_triggers(t, m.number, then):
        return
    queue_priority(t, m.number, then or t.s.markers[m.number].holder)


@applies(ev.AbilityTriggered)
def _triggered(s: GameState, e: ev.AbilityTriggered) -> None:
    s.triggers.append(Trigger(e.source, e.source_name, e.controller, e.ability, e.marker,
                              e.that_player, e.amount, e.obj))


@applies(ev.TriggerPutOnStack)
def _put_on_stack(s: GameState, e: ev.TriggerPutOnStack) -> None:
    t = s.triggers.pop(e.index)
    push(s, StackItem(id=e.item, kind="triggered", controller=t.controller, marker=e.marker,
                      source=t.source if t.delayed is None else t.delayed.source,
                      source_name=t.source_name, ability=t.ability,
                      that_player=t.that_player, amount=t.amount, that_obj=t.obj,
                      delayed=t.delayed))


@applies(ev.TriggerTargetsAsked)
def _targets_asked(s: GameState, e: ev.TriggerTargetsAsked) -> None:
    set_marker(s, e.marker, after_targets=e.then_priority)


@applies(ev.TriggerTargetsChosen)
def _targets_chosen(s: GameState, e: ev.TriggerTargetsChosen) -> None:
    it = s.stack_items[e.item]
    s.stack_items[e.item] = replace(it, targets=(*it.targets, refs(e.targets)))


@applies(ev.TriggerRemoved)
def _trigger_removed(s: GameState, e: ev.TriggerRemoved) -> None:
    pop(s, e.item, e.marker)


@explains(ev.AbilityTriggered)
def _explain_ability_triggered(before: GameState, e: ev.AbilityTriggered, name: Namer) -> str:
    return f"{name(e.source)} ability {e.ability} triggers for {e.controller}"


@explains(ev.TriggerPutOnStack)
def _explain_trigger_put_on_stack(before: GameState, e: ev.TriggerPutOnStack, name: Namer) -> str:
    t = before.triggers[e.index] if e.index < len(before.triggers) else None
    what = f"{t.source_name} (#{t.source}) trigger" if t else "a trigger"
    return f"{what} put on the stack"


@explains(ev.TriggerRemoved)
def _explain_trigger_removed(before: GameState, e: ev.TriggerRemoved, name: Namer) -> str:
    return f"{item_label(before, e.item)} is removed: no legal targets"


@explains(ev.TriggerTargetsAsked)
def _explain_targets_asked(before: GameState, e: ev.TriggerTargetsAsked, name: Namer) -> str:
    return f"the targets of {item_label(before, e.item)} are asked for"


@explains(ev.TriggerTargetsChosen)
def _explain_targets_chosen(before: GameState, e: ev.TriggerTargetsChosen,
                            name: Namer) -> str:
    return f"{e.player} targets {', '.join(name.target(t) for t in e.targets) or 'nothing'}"
