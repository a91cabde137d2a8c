"""Grand Melee (CR 807): several turn markers, so several players take turns at once, each
marker with its own steps, priority and stack (807.5).

- 807.4a-b: one marker for each full four players, handed out four seats apart from the
  starting player. Ruling (docs/grand-melee.md): with fewer than four players left,
  807.4a would leave no marker; the game goes on with one marker and one stack.
- 807.4c: a marker passes to the left when its turn ends; a holder who leaves before
  their turn begins hands it on at once.
- 807.4d: a player can't begin a turn while another marker is within three seats to
  their left (the marker waits: `Waiting`).
- 807.4e-g: designation for removal when leaving players reduce the marker count.
- 807.4i-j: extra turns near other markers.
"""

from __future__ import annotations

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.edits import set_marker
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import GameState, Marker, Waiting
from arbiter_core.kernel.txn import Txn
from arbiter_core.multiplayer.seating import next_in_turn_order, turn_order_from


def marker_count(players: int) -> int:
    """CR 807.4a, with the ruling that at least one marker remains."""
    return max(1, players // 4)


def first_holders(seats: list[str], starting: str) -> list[str]:
    """CR 807.4b: the starting player, then every fourth seat to the left."""
    i = seats.index(starting)
    return [seats[(i + 4 * k) % len(seats)] for k in range(marker_count(len(seats)))]


def _others(s: GameState, number: int) -> list[Marker]:
    return [m for m in s.markers.values() if m.number != number]


def blocked_left(s: GameState, player: str, number: int) -> bool:
    """CR 807.4d: another marker is held within three seats to `player`'s left."""
    near = turn_order_from(s, player)[1:4]
    return any(m.holder in near for m in _others(s, number))


def blocked_right(s: GameState, player: str, number: int) -> bool:
    """CR 807.4i: another marker is held within three seats to `player`'s right."""
    order = turn_order_from(s, player)
    near = list(reversed(order[1:]))[:3]
    return any(m.holder in near for m in _others(s, number))


def taking_turn(m: Marker) -> bool:
    return not isinstance(m.pending, Waiting)


def _begin(t: Txn, m: Marker, player: str, extra: bool) -> None:
    t.emit(ev.TurnBegan(marker=m.number, player=player, turn=m.turn + 1, extra=extra,
                        rule="807.4i" if extra else "807.4c"))


def start_turn(t: Txn, number: int, player: str) -> None:
    """`player` holds marker `number` and may begin: an extra turn owed to them first
    (807.4i-j), otherwise their turn; or wait (807.4d)."""
    m = t.s.markers[number]
    if blocked_left(t.s, player, number):
        if not isinstance(m.pending, Waiting) or m.holder != player:
            t.emit(ev.MarkerPassed(marker=number, to=player, waiting=True, rule="807.4d"))
        return
    if player in m.normal_next:
        _begin(t, m, player, extra=False)  # their own turn, owed after the extra one
    elif player in m.extra_turns:
        _begin(t, m, player, extra=True)
    elif player in t.s.extra_due:
        # 807.4i-j: the deferred extra turn comes just before their own next turn.
        _begin(t, m, player, extra=True)
        t.emit(ev.NormalTurnOwed(marker=number, player=player, rule="807.4j"))
    else:
        _begin(t, m, player, extra=False)


def end_turn(t: Txn, m: Marker) -> None:
    """After marker `m`'s turn ends: remove it (807.4g), keep it for an extra turn
    (807.4i) or pass it to the left (807.4c)."""
    s = t.s
    holder = m.holder
    if m.removal > 0:
        _remove(t, m)
        wake(t)
        return
    if holder in m.normal_next and not s.players[holder].left:
        start_turn(t, m.number, holder)  # 807.4d applies; the right-hand check doesn't
        wake(t)
        return
    if holder in m.extra_turns and not s.players[holder].left:
        if blocked_right(s, holder, m.number):
            t.emit(ev.ExtraTurnDeferred(marker=m.number, player=holder, rule="807.4i"))
        else:
            start_turn(t, m.number, holder)
            wake(t)
            return
    nxt = next_in_turn_order(s, holder)
    if nxt is not None:
        blocked = blocked_left(s, nxt, m.number)
        t.emit(ev.MarkerPassed(marker=m.number, to=nxt, waiting=blocked, rule="807.4c"))
        if not blocked:
            start_turn(t, m.number, nxt)
    wake(t)


def _remove(t: Txn, m: Marker) -> None:
    """CR 807.4g: remove the marker; extra designations pass to the marker on its right."""
    for player in m.extra_turns:  # 807.4j: taken just before their next turn instead
        if not t.s.players[player].left:
            t.emit(ev.ExtraTurnDeferred(marker=m.number, player=player, rule="807.4j"))
    times = m.removal
    t.emit(ev.MarkerRemoved(marker=m.number, rule="807.4g"))
    if times > 1 and t.s.markers:
        right = _marker_right_of(t.s, m.holder)
        if right is not None:
            t.emit(ev.MarkerDesignatedForRemoval(marker=right.number, times=times - 1,
                                                 rule="807.4g"))
            _remove_idle(t)


def _marker_right_of(s: GameState, player: str) -> Marker | None:
    """The first marker found going right from `player`'s seat (their own first)."""
    seats = s.seats
    i = seats.index(player)
    by_holder = {mk.holder: mk for mk in s.markers.values()}
    for k in range(len(seats)):
        p = seats[(i - k) % len(seats)]
        if p in by_holder:
            return by_holder[p]
    return None


def _remove_idle(t: Txn) -> None:
    """CR 807.4g: a designated marker whose holder isn't taking a turn goes at once."""
    for m in list(t.s.markers.values()):
        if m.removal > 0 and not taking_turn(m) and len(t.s.markers) > 1:
            _remove(t, t.s.markers[m.number])


def on_leave(t: Txn, leavers: list[str]) -> None:
    """CR 807.4c, 807.4e-f: designate markers for removal when the leavers reduce the
    number of markers; hand on a waiting leaver's marker at once."""
    s = t.s
    needed = marker_count(len(s.in_game()))
    # 807.4f: markers already designated don't count, once for each designation.
    effective = len(s.markers) - sum(m.removal for m in s.markers.values())
    for _ in range(effective - needed):
        candidates = [mk for p in leavers if (mk := _marker_right_of(t.s, p)) is not None]
        if not candidates:
            break
        target = min(candidates, key=lambda mk: mk.number)  # 807.4e: lowest number
        t.emit(ev.MarkerDesignatedForRemoval(marker=target.number, rule="807.4e"))
    _remove_idle(t)
    wake(t)


def wake(t: Txn) -> None:
    """Markers that were waiting begin their turns once nothing blocks them (807.4d);
    a waiting holder who left hands the marker to the left (807.4c)."""
    changed = True
    while changed:
        changed = False
        for m in list(t.s.markers.values()):
            if not isinstance(m.pending, Waiting):
                continue
            if t.s.players[m.holder].left:
                nxt = next_in_turn_order(t.s, m.holder)
                if nxt is None:
                    continue
                t.emit(ev.MarkerPassed(marker=m.number, to=nxt, waiting=True, rule="807.4c"))
                changed = True
                continue
            if not blocked_left(t.s, m.holder, m.number):
                start_turn(t, m.number, m.holder)
                changed = True


@applies(ev.MarkerPassed)
def _marker_passed(s: GameState, e: ev.MarkerPassed) -> None:
    set_marker(s, e.marker, holder=e.to, passed=(), combat=None, stack=(),
               pending=Waiting(e.to) if e.waiting else s.markers[e.marker].pending)


@applies(ev.MarkerDesignatedForRemoval)
def _designated(s: GameState, e: ev.MarkerDesignatedForRemoval) -> None:
    mk = s.markers[e.marker]
    set_marker(s, e.marker, removal=mk.removal + e.times)


@applies(ev.MarkerRemoved)
def _marker_removed(s: GameState, e: ev.MarkerRemoved) -> None:
    s.markers.pop(e.marker)


@applies(ev.NormalTurnOwed)
def _normal_turn_owed(s: GameState, e: ev.NormalTurnOwed) -> None:
    mk = s.markers[e.marker]
    set_marker(s, e.marker, normal_next=(*mk.normal_next, e.player))


@applies(ev.ExtraTurnDeferred)
def _extra_deferred(s: GameState, e: ev.ExtraTurnDeferred) -> None:
    mk = s.markers[e.marker]
    rest = list(mk.extra_turns)
    if e.player in rest:
        rest.remove(e.player)
    set_marker(s, e.marker, extra_turns=tuple(rest))
    s.extra_due = (*s.extra_due, e.player)


@explains(ev.MarkerPassed)
def _explain_marker_passed(before: GameState, e: ev.MarkerPassed, name: Namer) -> str:
    waits = ", who waits (807.4d)" if e.waiting else ""
    return f"turn marker {e.marker} passes to {e.to}{waits}"


@explains(ev.MarkerDesignatedForRemoval)
def _explain_designated(before: GameState, e: ev.MarkerDesignatedForRemoval,
                        name: Namer) -> str:
    return f"turn marker {e.marker} is designated for removal"


@explains(ev.MarkerRemoved)
def _explain_marker_removed(before: GameState, e: ev.MarkerRemoved, name: Namer) -> str:
    return f"turn marker {e.marker} is removed"


@explains(ev.NormalTurnOwed)
def _explain_normal_turn_owed(before: GameState, e: ev.NormalTurnOwed, name: Namer) -> str:
    return f"{e.player} is owed their own turn after an extra turn"


@explains(ev.ExtraTurnDeferred)
def _explain_extra_deferred(before: GameState, e: ev.ExtraTurnDeferred, name: Namer) -> str:
    return f"{e.player}'s extra turn waits for another marker (807.4i)"
