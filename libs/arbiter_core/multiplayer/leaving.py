"""What waited on a player who left the game moves on (CR 800.4a, 800.4h, 800.4j):
their priority goes to the next player in turn order, their declarations are empty, and
a choice the rules ask of them is made by the next player."""

from __future__ import annotations

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.decisions import DECISIONS
from arbiter_core.kernel.edits import pop, set_marker, set_player
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import Decision, GameState, Marker, Waiting, Work
from arbiter_core.kernel.txn import Txn
from arbiter_core.multiplayer.seating import next_in_turn_order
from arbiter_core.stack.priority import priority_players, queue_priority


def after_all_left(t: Txn, players: list[str]) -> None:
    """Every marker waiting on one of `players` moves on."""
    for player in players:
        for number in list(t.s.markers):
            if number in t.s.markers:
                after_leave(t, t.s.markers[number], player)


def after_leave(t: Txn, m: Marker, player: str) -> None:
    """Whatever waited on a player who left moves on (CR 800.4a, 800.4h, 800.4j): a
    decision through its kind's `on_leave` (the holder gets priority when it has none),
    priority to the next player in turn order."""
    p = m.pending
    if isinstance(p, Decision) and p.stack_item is not None and (
            p.stack_item not in t.s.stack_items):
        queue_priority(t, m.number, m.holder)  # its spell left with its controller (800.4a)
        return
    if isinstance(p, Work | Waiting) or p.player != player:
        return
    if isinstance(p, Decision):
        kind = DECISIONS.get(p.kind)
        if kind is None or kind.on_leave is None or not kind.on_leave(t, m, p, player):
            queue_priority(t, m.number, m.holder)
        return
    # CR 800.4a: the next player in turn order gets priority in the leaver's place - in
    # Grand Melee the next one who gets priority for this stack at all (807.5a).
    order = priority_players(t.s, m)
    seats = t.s.seats
    i = seats.index(player)
    nxt = next((q for k in range(1, len(seats)) if (q := seats[(i + k) % len(seats)])
                in order), None) or next_in_turn_order(t.s, player)
    queue_priority(t, m.number, nxt or m.holder)


@applies(ev.PlayerLeftGame)
def _left(s: GameState, e: ev.PlayerLeftGame) -> None:
    """CR 800.4a: the leaver's objects leave the game; their spells and abilities on the
    stack cease to exist; their waiting triggers are removed."""
    player = e.player
    # 800.4i: what is known about the player as they left (their hand size) is kept.
    set_player(s, player, left=True, mana="", hand_left_with=len(s.zone(player, "hand")))
    for oid, o in list(s.objects.items()):
        if o.owner == player:
            if o.zone == "battlefield":
                s.battlefield.remove(oid)
            del s.objects[oid]
    for key in [k for k in s.zones if k[0] == player]:
        s.zones[key] = []
    for item in list(s.stack_items.values()):
        if item.controller == player or (item.obj is not None and item.obj not in s.objects):
            pop(s, item.id, item.marker)
    s.triggers = [t for t in s.triggers if t.controller != player]
    # 800.4a: effects that give the leaver control end; 800.4d: their delayed triggers
    # won't be put on the stack.
    s.effects = [f for f in s.effects if not (f.kind == "control" and f.controller == player)]
    s.delayed = [d for d in s.delayed if d.controller != player and d.owner != player]
    for number, m in s.markers.items():
        if player in m.passed:
            set_marker(s, number, passed=tuple(p for p in m.passed if p != player))


@explains(ev.PlayerLeftGame)
def _explain_player_left_game(before: GameState, e: ev.PlayerLeftGame, name: Namer) -> str:
    return f"{e.player} leaves the game"
