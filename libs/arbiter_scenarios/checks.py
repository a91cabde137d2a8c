"""Scenario checks (`expect` and `check` actions). A key the runner doesn't know is a
failure, never a pass."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from arbiter_core.kernel.events import PlayerLeftGame
from arbiter_core.kernel.evolve import empty_state
from arbiter_core.kernel.state import Decision, GameState, Priority, Waiting
from arbiter_core.layers.characteristics import power_toughness
from arbiter_core.multiplayer.seating import active_players
from arbiter_core.views.seat import view
from arbiter_runtime.fold import LogStates, fold
from arbiter_scenarios import casual
from arbiter_scenarios.commander_checks import CommanderCheckFailed, commander_check

if TYPE_CHECKING:
    from arbiter_scenarios.runner import Run


class CheckFailed(Exception):
    pass


def _fail(where: str, what: str, expected: Any, actual: Any) -> CheckFailed:
    return CheckFailed(f"{where}: {what}: expected {expected!r}, got {actual!r}")


def _per_player(run: Run, value: Any, where: str, key: str,
                get: Callable[[GameState, str], Any]) -> None:
    if not isinstance(value, dict):
        raise CheckFailed(f"{where}: {key} needs a mapping of player -> value")
    for player, expected in value.items():
        if player not in run.state.players:
            raise CheckFailed(f"{where}: no player named {player!r}")
        actual = get(run.state, player)
        if actual != expected:
            raise _fail(where, f"{key} of {player}", expected, actual)


def _hand_size(run: Run, s: GameState, player: str) -> int:
    """A player's hand size; for a player who has left the game, the last-known value
    (the spec), read by replaying the log up to their leaving (CR 800.4i)."""
    if not s.players[player].left:
        return len(s.zone(player, "hand"))
    state, log = empty_state(), LogStates(run.log)
    for e in run.log:
        if isinstance(e, PlayerLeftGame) and e.player == player:
            break
        fold(state, e, log)
    return len(state.zone(player, "hand"))


def _players_where(s: GameState, pred: Callable[[str], bool]) -> list[str]:
    return [p for p in s.seats if pred(p)]


def _lost(s: GameState, p: str) -> bool:
    pl = s.players[p]
    if s.game_over:
        return not pl.won and not pl.drew
    return (pl.lost or pl.left) and not pl.drew  # 801.15: a player who drew left too


def _set_check(where: str, key: str, expected: Any, actual: list[str]) -> None:
    if not isinstance(expected, list) or sorted(map(str, expected)) != sorted(actual):
        raise _fail(where, key, expected, actual)


def run_check(run: Run, check: dict[str, Any], where: str) -> None:
    (key, value), = check.items()
    actual: Any
    if key in casual.CHECKS:  # Planechase, Archenemy
        try:
            casual.CHECKS[key](run, value, where)
        except casual.CasualCheckFailed as e:
            raise CheckFailed(str(e)) from None
        return
    s = run.state
    names = run.names
    match key:
        case "life":
            _per_player(run, value, where, "life", lambda st, p: st.players[p].life)
        case "poison":
            _per_player(run, value, where, "poison", lambda st, p: st.players[p].poison)
        case "hand_size":
            _per_player(run, value, where, "hand size", lambda st, p: _hand_size(run, st, p))
        case "zone":
            card, owner, is_ = str(value.get("card")), value.get("owner"), value.get("is")
            objs = [o for o in names.objects(s, card) if owner is None or o.owner == owner]
            zones: list[str] = sorted({o.zone for o in objs}) or ["gone"]
            if is_ not in zones:
                raise _fail(where, f"zone of {card}", is_, zones[0] if len(zones) == 1
                            else zones)
        case "zone_count":
            player, zone, n = value.get("player"), value.get("zone"), value.get("n")
            if zone == "battlefield":
                actual = len([o for o in s.permanents() if o.controller == player])
            elif zone == "stack":
                actual = len([i for i in s.stack_items.values() if i.controller == player])
            else:
                actual = len(s.zone(str(player), str(zone)))
            if actual != n:
                raise _fail(where, f"{zone} count of {player}", n, actual)
        case "tapped" | "untapped":
            for ref in value:
                o = names.permanent(s, ref)
                if o.tapped != (key == "tapped"):
                    raise _fail(where, f"{ref}", key, "tapped" if o.tapped else "untapped")
        case "counters":
            o = names.permanent(s, value.get("card"))
            actual = o.counter(str(value.get("kind")))
            if actual != value.get("n"):
                raise _fail(where, f"{value.get('kind')} counters on {o.name}",
                            value.get("n"), actual)
        case "power_toughness":
            o = names.permanent(s, value.get("card"))
            actual_pt = list(power_toughness(s, o))
            if actual_pt != list(value.get("is", [])):
                raise _fail(where, f"power/toughness of {o.name}", value.get("is"), actual_pt)
        case "face_down" | "seen_as":
            _face_down_check(run, key, value, where)
        case "controller":
            o = names.permanent(s, value.get("card"))
            if o.controller != value.get("is"):
                raise _fail(where, f"controller of {o.name}", value.get("is"), o.controller)
        case "game_over":
            if s.game_over != bool(value):
                raise _fail(where, "game over", bool(value), s.game_over)
        case "winners":
            _set_check(where, "winners", value, _players_where(s, lambda p: s.players[p].won))
        case "lost":
            _set_check(where, "lost", value, _players_where(s, lambda p: _lost(s, p)))
        case "drew":
            _set_check(where, "drew", value, _players_where(s, lambda p: s.players[p].drew))
        case "in_game":
            _set_check(where, "in game", value,
                       _players_where(s, lambda p: not s.players[p].left
                                      and not s.players[p].lost))
        case "active_players":
            _set_check(where, "active players", value,
                       [p for m in s.markers.values() if not isinstance(m.pending, Waiting)
                        for p in active_players(s, m.holder)])
        case "team_life" | "team_poison":
            if not isinstance(value, dict):
                raise CheckFailed(f"{where}: {key} needs a mapping of team -> value")
            for team, expected in value.items():
                members = [p for p in s.seats if s.players[p].team == str(team)]
                if not members:
                    raise CheckFailed(f"{where}: no team named {team!r}")
                pl = s.players[members[0]]
                if s.shared_life:
                    actual = pl.life if key == "team_life" else pl.poison
                else:
                    actual = sum(s.players[p].life if key == "team_life"
                                 else s.players[p].poison for p in members)
                if actual != expected:
                    raise _fail(where, f"{key} of team {team}", expected, actual)
        case "turn_markers":
            actual_markers = {m.number: m.holder for m in s.markers.values()}
            if {int(k): v for k, v in value.items()} != actual_markers:
                raise _fail(where, "turn markers", value, actual_markers)
        case "step":
            number, expected = _marker_value(value)
            m = s.markers.get(number)
            actual = m.step.value if m else None
            if actual != expected:
                raise _fail(where, "step", expected, actual)
        case "turn":
            number, expected = _marker_value(value)
            m = s.markers.get(number)
            if (m.turn if m else None) != expected:
                raise _fail(where, "turn", expected, m.turn if m else None)
        case "stack_size":
            if isinstance(value, dict):
                m = s.markers.get(int(value.get("stack", 1)))
                actual = len(m.stack) if m else 0
                if actual != value.get("n"):
                    raise _fail(where, f"size of stack {value.get('stack')}", value.get("n"),
                                actual)
            elif sum(len(m.stack) for m in s.markers.values()) != value:
                raise _fail(where, "stack size", value,
                            sum(len(m.stack) for m in s.markers.values()))
        case "priority":
            number = int(value.get("stack", 1)) if isinstance(value, dict) else 1
            expected = value.get("player") if isinstance(value, dict) else value
            m = s.markers.get(number)
            p = m.pending if m else None
            actual = p.player if isinstance(p, Priority) else None
            if actual != expected:
                raise _fail(where, "priority", expected, actual)
        case "pending_choice":
            expected = value.get("player") if isinstance(value, dict) else value
            waiting = [m.pending.player for m in s.markers.values()
                       if isinstance(m.pending, Decision)]
            if expected not in waiting:
                raise _fail(where, "pending choice", expected, waiting or None)
        case "rejected":
            if run.last_rejected != bool(value):
                raise _fail(where, "last action rejected", bool(value), run.last_rejected)
        case "commander_damage" | "commander_tax":
            try:
                commander_check(s, key, value, where)
            except CommanderCheckFailed as e:
                raise CheckFailed(str(e)) from None
        case "plane" | "scheme_in_motion":
            raise CheckFailed(f"{where}: {key} is not supported for the {s.variant} variant yet")
        case _:
            raise CheckFailed(f"{where}: unknown check {key!r}")


def _face_down_check(run: Run, key: str, value: Any, where: str) -> None:
    """`face_down: {card: X, is: true}`: whether the spell or permanent X is face down
    (708); `seen_as: {card: X, by: P, is: NAME}`: the name player P's view shows for it
    (708.5: a face-down object's is hidden from all but its controller)."""
    s = run.state
    card = str(value.get("card"))
    objs = [o for o in run.names.objects(s, card) if o.zone in ("battlefield", "stack")]
    if not objs:
        raise CheckFailed(f"{where}: {key}: {card} is not on the battlefield or a stack")
    o = objs[0]
    if key == "face_down":
        if o.face_down != bool(value.get("is")):
            raise _fail(where, f"face down: {card}", bool(value.get("is")), o.face_down)
        return
    seat = str(value.get("by"))
    if seat not in s.players:
        raise CheckFailed(f"{where}: seen_as: no player named {seat!r}")
    v = view(s, seat)
    shown = [p.name for p in v.battlefield if p.id == o.id] + [
        it.name for m in v.markers for it in m.stack if it.obj == o.id]
    if shown != [value.get("is")]:
        raise _fail(where, f"{card} as {seat} sees it", value.get("is"),
                    shown[0] if shown else None)


def _marker_value(value: Any) -> tuple[int, Any]:
    if isinstance(value, dict):
        return int(value.get("marker", 1)), value.get("is")
    return 1, value
