"""State-based actions (CR 704), checked whenever a player would receive priority
(CR 704.3, 117.5): all applicable ones (`conditions`) are performed at once, and the
check repeats until none apply. Then waiting triggers go on the stack, then the player
gets priority. The SBA checker service owns this work.

The legend rule's choice is a decision: the other SBAs of the same check are performed
first, then the controller chooses, then the check repeats; so are the variants' choices
(704.6d, `conditions.CHOICE_SBAS`), one at a time. State triggers (603.8) are
noticed here too, as the check ends.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from arbiter_core.cards import card_names, get_card
from arbiter_core.cards.model import CardDefinition, TriggeredAbility
from arbiter_core.game import loops
from arbiter_core.game.ending import handle_losses
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseObjects, PlayerCommand
from arbiter_core.kernel.decide import work
from arbiter_core.kernel.decisions import check_choices, decision
from arbiter_core.kernel.edits import set_obj, set_player
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.registry import Hooks
from arbiter_core.kernel.state import Decision, GameState, Marker, Obj, Work
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import definition
from arbiter_core.sba.conditions import found
from arbiter_core.stack.priority import give_priority

#: state-based actions a variant adds that act on the game rather than a permanent
#: (704.6e-f: schemes and phenomena in the command zone): (txn, marker) -> True when one
#: was performed (the check then repeats, 704.3)
GAME_SBAS: Hooks[str, Callable[[Txn, Marker], bool]] = Hooks("state-based action of a game")


@work("check_sba", owner="sba-checker")
def check(t: Txn, m: Marker, w: Work) -> None:
    """Perform SBAs until none apply (CR 704.3), then triggers, then priority."""
    then_priority = w.then_priority
    while not t.s.game_over:
        losers, objs, conflicts, choices = found(t.s)
        if not losers and not objs:
            if any(action(t, m) for action in GAME_SBAS["all"]):
                continue  # a variant's state-based action was performed: check again
            if conflicts:
                player, ids = conflicts[0]
                t.emit(ev.DecisionRequested(marker=m.number, kind="legend_rule", player=player,
                                            options=list(ids), count=1, rule="704.5j"))
                return
            if choices:  # 704.6d: one at a time, then the check repeats
                kind, player, oid, rule = choices[0]
                t.emit(ev.DecisionRequested(marker=m.number, kind=kind,
                                            player=player, options=[oid], count=1,
                                            choices=["yes", "no"], rule=rule))
                return
            break
        _perform(t, m, losers, objs)
    if t.s.game_over:
        return
    state_triggers(t, m)
    if any(tr.marker == m.number for tr in t.s.triggers):
        t.emit(ev.WorkQueued(marker=m.number, kind="put_triggers", then_priority=then_priority,
                             rule="117.5"))
        return
    if loops.check(t, m, then_priority):  # a loop of mandatory actions (104.4b, 801.16)
        if not t.s.game_over:
            t.emit(ev.WorkQueued(marker=m.number, kind="check_sba",
                                 then_priority=then_priority, rule="801.16"))
        return
    give_priority(t, m.number, then_priority)


def _perform(t: Txn, m: Marker, losers: tuple[tuple[str, str], ...],
             objs: tuple[tuple[str, int, str], ...]) -> None:
    """All the SBAs found, at once (704.3): losers, then what happens to objects."""
    for player, rule in losers:
        t.emit(ev.PlayerLost(player=player, rule=rule))
    for action, oid, rule in objs:
        o = t.s.objects.get(oid)
        if o is None:
            continue
        if action == "cease":
            t.emit(ev.ObjectCeasedToExist(obj=oid, rule=rule))
        elif action == "graveyard":
            t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="graveyard",
                                  to_player=o.owner, rule=rule))
        elif action == "unattach":
            t.emit(ev.Unattached(obj=oid, rule=rule))
    for action, oid, rule in objs:
        if action == "annihilate":
            _annihilate(t, oid, rule)
    t.emit(ev.StateBasedActionsChecked(marker=m.number, rule="704.3"))
    if losers:
        handle_losses(t, [p for p, _ in losers])


def state_triggers(t: Txn, m: Marker) -> None:
    """CR 603.8: a state trigger triggers when its condition is true and not again
    while it is waiting or on the stack (Transcendence's "20 or more life")."""
    s = t.s
    printed = _cards_with_life_triggers()
    for oid in s.battlefield:
        o = s.objects[oid]
        if o.token is None and o.became is None and not o.face_down \
                and o.name not in printed:
            continue
        for i in _life_triggers(o):
            if s.players[o.controller].life < 20:
                continue
            waiting = any(tr.source == oid and tr.ability == i for tr in s.triggers) or any(
                it.source == oid and it.ability == i for it in s.stack_items.values())
            if not waiting:
                t.emit(ev.AbilityTriggered(source=oid, source_name=o.name,
                                           controller=o.controller, ability=i,
                                           marker=m.number, rule="603.8"))


def _life_triggers(o: Obj) -> tuple[int, ...]:
    """Indexes of the object's "20 or more life" state triggers (by card name for a
    printed card, which is most of the battlefield)."""
    if o.token is None and o.became is None and not o.face_down:  # 708.2a
        return _card_life_triggers(o.name)
    return _life_trigger_indexes(definition(o))


@functools.cache
def _card_life_triggers(name: str) -> tuple[int, ...]:
    return _life_trigger_indexes(get_card(name))


@functools.cache
def _cards_with_life_triggers() -> frozenset[str]:
    return frozenset(name for name in card_names() if _card_life_triggers(name))


def _life_trigger_indexes(d: CardDefinition) -> tuple[int, ...]:
    return tuple(i for i, ab in enumerate(d.abilities)
                 if isinstance(ab, TriggeredAbility) and ab.event == "life_20_or_more")


def _annihilate(t: Txn, oid: int, rule: str) -> None:
    """CR 704.5q: remove N +1/+1 and N -1/-1 counters. Recorded as a move-free counter
    change by re-putting the counters (the object keeps its identity)."""
    o = t.s.objects[oid]
    n = min(o.counter("+1/+1"), o.counter("-1/-1"))
    t.emit(ev.CountersRemoved(obj=oid, counters={"+1/+1": n, "-1/-1": n}, rule=rule))


def _legends(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    return [ChooseObjects(player=d.player, choices=[o], marker=m.number) for o in d.options]


@decision("legend_rule", ChooseObjects, _legends)
def _keep_legend(t: Txn, m: Marker, d: Decision, cmd: ChooseObjects) -> None:
    """CR 704.5j: the chosen one stays; the rest go to their owners' graveyards."""
    check_choices(d, cmd)
    keep = cmd.choices[0]
    for oid in d.options:
        if oid != keep and oid in t.s.objects:
            t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="graveyard",
                                  to_player=t.s.objects[oid].owner, rule="704.5j"))
    # then_priority None: give_priority picks the first player in turn order from the
    # active player, the same fallback it uses everywhere.
    t.emit(ev.WorkQueued(marker=m.number, kind="check_sba", then_priority=None,
                         rule="704.3"))


@applies(ev.StateBasedActionsChecked)
def _checked(s: GameState, e: ev.StateBasedActionsChecked) -> None:
    """The check is done: deathtouch damage and empty-library draws were seen (704.5b,
    704.5h)."""
    for oid in s.battlefield:
        if s.objects[oid].deathtouch_hit:
            set_obj(s, oid, deathtouch_hit=False)
    for name, p in s.players.items():
        if p.drew_from_empty:
            set_player(s, name, drew_from_empty=False)


@explains(ev.StateBasedActionsChecked)
def _explain_state_based_actions_checked(before: GameState, e: ev.StateBasedActionsChecked,
                                         name: Namer) -> str:
    return "state-based actions checked"
