"""Counters (CR 122) put by effects as they resolve: proliferate (701.34, a decision
of permanents and players), a counter on each creature a player controls (122.6), a
counter removed from the source, and the counters a permanent enters with (614.1c).
"-1/-1" counters are not put on creatures whose controller has Melira (`life`)."""

from __future__ import annotations

from arbiter_core.cards.model import (
    EntersWithCounters,
    Proliferate,
    PutCounterOnEachCreature,
    RemoveCounterFromSelf,
    StaticAbility,
)
from arbiter_core.effects import life
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseObjects, PlayerCommand
from arbiter_core.kernel.decisions import decision
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.state import Decision, GameState, Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import definition, is_creature
from arbiter_core.multiplayer.influence import object_in_range, player_in_range
from arbiter_core.stack.items import Legal, effect, static_effect
from arbiter_core.stack.resolve import AS_ENTERS, resume


@effect(PutCounterOnEachCreature)
def _counter_on_each(t: Txn, m: Marker, item: StackItem, eff: PutCounterOnEachCreature,
                     legal: Legal, index: int) -> bool:
    """Put a counter on each creature you (or that player) control (CR 122.6), within
    range (801.10); "-1/-1" not on creatures whose controller has Melira."""
    s = t.s
    who = item.controller if eff.whose == "you" else item.that_player
    if who is None or s.players[who].left:
        return False
    if eff.counter == "-1/-1" and life.no_minus_counters(s, who):
        return False
    for o in s.permanents(who):
        if is_creature(o) and object_in_range(s, item.controller, o):
            t.emit(ev.CountersPut(obj=o.id, counters={eff.counter: 1}, rule="122.6"))
    return False


@effect(RemoveCounterFromSelf)
def _remove_counter(t: Txn, m: Marker, item: StackItem, eff: RemoveCounterFromSelf,
                    legal: Legal, index: int) -> bool:
    src = t.s.objects.get(item.source or -1)
    if src is not None and src.zone == "battlefield" and src.counter(eff.counter):
        t.emit(ev.CountersRemoved(obj=src.id, counters={eff.counter: 1}, rule="608.2c"))
    return False


static_effect(EntersWithCounters)  # a replacement effect (614.1c): `_enters_with_counters`


def _enters_with_counters(t: Txn, m: Marker, item: StackItem, oid: int) -> bool:
    """"~ enters the battlefield with N [kind] counters on it" (614.1c)."""
    for ab in definition(t.s.objects[oid]).abilities:
        if isinstance(ab, StaticAbility):
            for e in ab.effects:
                if isinstance(e, EntersWithCounters):
                    t.emit(ev.CountersPut(obj=oid, counters={e.counter: e.count},
                                          rule="614.1c"))
    return False


AS_ENTERS.add("all", _enters_with_counters, order=20)


# ------------------------------------------------------------------ proliferate (701.34)


@effect(Proliferate)
def _proliferate(t: Txn, m: Marker, item: StackItem, eff: Proliferate, legal: Legal,
                 index: int) -> bool:
    """CR 701.34a: the controller chooses any number of permanents and/or players that
    have a counter - a choice of objects and players, so only those within their range
    of influence (801.5a). In Two-Headed Giant a player has the kinds of counters their
    team has (810.10d): a player whose team has poison counters may be chosen."""
    s = t.s
    who = item.controller
    if s.players[who].left:
        return False
    objs = [o.id for o in s.permanents() if o.counters and object_in_range(s, who, o)]
    players = [p for p in s.in_game() if s.players[p].poison > 0
               and player_in_range(s, who, p)]
    if not objs and not players:
        return False
    t.emit(ev.ResolutionPaused(item=item.id, resume_at=index + 1, rule="608.2d"))
    t.emit(ev.DecisionRequested(marker=m.number, kind="proliferate", player=who,
                                options=objs, choices=players, count=len(objs) + len(players),
                                min_count=0, stack_item=item.id, rule="701.34a"))
    return True


def _answers(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    """None, or every permanent offered and one player of each team (701.34b)."""
    one_each = list({s.players[p].team: p for p in reversed(d.choices)}.values())
    return [ChooseObjects(player=d.player, choices=[], marker=m.number),
            ChooseObjects(player=d.player, choices=list(d.options), players=sorted(one_each),
                          marker=m.number)]


def _check(s: GameState, d: Decision, cmd: ChooseObjects) -> None:
    """CR 701.34a: any number of the permanents and players offered (each within the
    proliferating player's range, 801.5a); 701.34b: in Two-Headed Giant only one player
    of a team can be given a poison counter."""
    if len(set(cmd.choices)) != len(cmd.choices) or len(set(cmd.players)) != len(cmd.players):
        raise RuleViolation("701.34a", "choose each permanent or player at most once")
    outside: list[int | str] = [c for c in cmd.choices if c not in d.options]
    outside += [p for p in cmd.players if p not in d.choices]
    if outside:
        x = outside[0]
        o = s.objects.get(x) if isinstance(x, int) else None
        has_counter = (o is not None and o.zone == "battlefield" and bool(o.counters)) or (
            isinstance(x, str) and x in s.players and not s.players[x].left
            and s.players[x].poison > 0)
        # Not offered though it has a counter: it is outside the range of influence.
        raise RuleViolation("801.5a" if has_counter else "701.34a",
                            f"{x} can't be chosen to proliferate")
    teams = [s.players[p].team for p in cmd.players]
    if s.shared_poison and len(set(teams)) != len(teams):
        raise RuleViolation("701.34b", "only one player of a team can be given a poison "
                                       "counter")


@decision("proliferate", ChooseObjects, _answers)
def _proliferated(t: Txn, m: Marker, d: Decision, cmd: ChooseObjects) -> None:
    """Give each chosen permanent and player another counter of each kind already there
    (701.34a). Poison counters are a Two-Headed Giant team's (810.10d)."""
    _check(t.s, d, cmd)
    assert d.stack_item is not None
    for oid in cmd.choices:
        o = t.s.objects[oid]
        kinds = {k: 1 for k, _ in o.counters if not (
            k == "-1/-1" and is_creature(o) and life.no_minus_counters(t.s, o.controller))}
        if kinds:
            t.emit(ev.CountersPut(obj=oid, counters=kinds, rule="701.34a"))
    for p in cmd.players:
        if not life.cant_get_poison(t.s, p):
            t.emit(ev.PoisonCountersChanged(player=p, amount=1,
                                            rule="810.10d" if t.s.shared_poison else "701.34a"))
    resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])
