"""Priority (CR 117): who may act, passing, and what happens when all pass.

Each turn marker has its own priority and stack (CR 807.5); with one marker this is the
ordinary game. The players who receive priority on a marker's stack are the players
still in the game, in turn order from the marker's active player (CR 117.3, 101.4).
"""

from __future__ import annotations

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import PassPriority
from arbiter_core.kernel.decide import MARKER_FOR, handles
from arbiter_core.kernel.edits import set_marker
from arbiter_core.kernel.errors import InvalidCommand, RuleViolation
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import Decision, GameState, Marker, Priority
from arbiter_core.kernel.txn import Txn
from arbiter_core.multiplayer.influence import with_any_in_range
from arbiter_core.multiplayer.seating import team_representative, turn_order_from
from arbiter_core.sba.conditions import needs_check


def priority_players(s: GameState, m: Marker) -> list[str]:
    """Players who get priority on this marker's stack, from its active player. With
    shared team turns teams have priority (805.5): one seat per team stands for it."""
    order = turn_order_from(s, m.holder)
    if s.grand_melee and order:
        where, controllers = _stack_position(s, m)  # 807.5a, as `sees_stack`
        return with_any_in_range(s, order, {where, *controllers})
    if not s.shared_team_turns:
        return order
    return list(dict.fromkeys(team_representative(s, p) for p in order))


def sees_stack(s: GameState, m: Marker, player: str) -> bool:
    """CR 807.5a: priority for a marker's stack only if the marker is within the
    player's range of influence, or an object on that stack is controlled by a player
    within it."""
    where, controllers = _stack_position(s, m)
    return bool(with_any_in_range(s, [player], {where, *controllers}))


def _stack_position(s: GameState, m: Marker) -> tuple[str, list[str]]:
    """Where the marker is (with a departed holder: the player to their left, who takes
    it next) and who controls the objects on its stack (807.5a)."""
    where = m.holder if not s.players[m.holder].left else turn_order_from(s, m.holder)[0]
    return where, [s.stack_items[i].controller for i in m.stack]


def holds_priority(s: GameState, m: Marker, player: str) -> bool:
    """CR 117.1; 805.5a: any player of the team with priority may act."""
    p = m.pending
    if not isinstance(p, Priority):
        return False
    if p.player == player:
        return True
    return s.shared_team_turns and s.players[p.player].team == s.players[player].team


@MARKER_FOR.fill
def marker_for(s: GameState, player: str, marker: int | None) -> Marker:
    """The marker a player's command is about: the given one, or the one waiting on them."""
    if player not in s.players:
        raise InvalidCommand("player", f"no player named {player!r}")
    if marker is not None:
        if marker not in s.markers:
            raise InvalidCommand("marker", f"no turn marker {marker}")
        return s.markers[marker]
    for m in s.markers.values():
        p = m.pending
        if isinstance(p, Priority | Decision) and p.player == player:
            return m
    if s.shared_team_turns:
        for m in s.markers.values():
            p = m.pending
            if isinstance(p, Priority | Decision) and \
                    s.players[p.player].team == s.players[player].team:
                return m
    return next(iter(s.markers.values()))


def require_priority(s: GameState, player: str, marker: int | None) -> Marker:
    """CR 117.1: a player may act only while holding priority."""
    m = marker_for(s, player, marker)
    if s.players[player].left:
        raise RuleViolation("800.4a", f"{player} has left the game")
    if not holds_priority(s, m, player):
        raise RuleViolation("117.1", f"{player} does not hold priority")
    return m


def queue_priority(t: Txn, marker: int, player: str) -> None:
    """Before a player receives priority, SBAs are checked and triggers put on the stack
    (CR 117.5); the SBA checker owns that work."""
    t.emit(ev.WorkQueued(marker=marker, kind="check_sba", then_priority=player, rule="117.5"))


def pass_priority(t: Txn, player: str, marker: int | None) -> None:
    """CR 117.3d: pass; CR 117.4: when all pass in succession, resolve or end the step."""
    m = require_priority(t.s, player, marker)
    if t.s.shared_team_turns:
        player = team_representative(t.s, player)  # CR 805.5b: the team passes
    t.emit(ev.PriorityPassed(marker=m.number, player=player,
                             rule="805.5b" if t.s.shared_team_turns else "117.3d"))
    m = t.s.markers[m.number]
    order = priority_players(t.s, m)
    if all(p in m.passed for p in order):
        kind = "resolve_top" if m.stack else "advance_step"
        t.emit(ev.WorkQueued(marker=m.number, kind=kind, rule="117.4"))
        return
    i = order.index(player) if player in order else 0
    nxt = next(p for p in order[i + 1 :] + order[: i + 1] if p not in m.passed)
    if needs_check(t.s) or t.s.triggers:
        # CR 117.5: SBAs and triggers first, e.g. after a player left the game while
        # another held priority (800.4a).
        queue_priority(t, m.number, nxt)
        return
    t.emit(ev.PriorityGiven(marker=m.number, player=nxt, rule="117.3d"))


def give_priority(t: Txn, marker: int, player: str | None) -> None:
    """Grant priority (CR 117.3); if that player has left, the next in turn order gets it
    (CR 800.4h)."""
    m = t.s.markers[marker]
    order = priority_players(t.s, m)
    if not order:
        return
    if player is not None and t.s.shared_team_turns and not t.s.players[player].left:
        player = team_representative(t.s, player)
    target = player if player in order else None
    if target is None:
        base = player or m.holder
        target = turn_order_from(t.s, base)[0] if base in t.s.seats else order[0]
    t.emit(ev.PriorityGiven(marker=marker, player=target, rule="117.3"))


@applies(ev.PriorityGiven)
def _priority_given(s: GameState, e: ev.PriorityGiven) -> None:
    set_marker(s, e.marker, pending=Priority(e.player))


@applies(ev.PriorityPassed)
def _priority_passed(s: GameState, e: ev.PriorityPassed) -> None:
    m = s.markers[e.marker]
    set_marker(s, e.marker, passed=(*m.passed, e.player))


@handles(PassPriority)
def _pass(t: Txn, cmd: PassPriority) -> None:
    pass_priority(t, cmd.player, cmd.marker)


@explains(ev.PriorityGiven)
def _explain_priority_given(before: GameState, e: ev.PriorityGiven, name: Namer) -> str:
    return f"{e.player} receives priority"


@explains(ev.PriorityPassed)
def _explain_priority_passed(before: GameState, e: ev.PriorityPassed, name: Namer) -> str:
    return f"{e.player} passes priority"
