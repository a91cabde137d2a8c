"""Turn structure (CR 500-514): steps in order, turn-based actions, the next turn.

The turn orchestrator owns two kinds of work: the turn-based actions of a step that has
just begun (CR 703), and advancing when all players pass with an empty stack (CR 500.2).
"""

from __future__ import annotations

from arbiter_core.combat import damage as combat_damage
from arbiter_core.combat import declare as combat
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.state import Marker, Step
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers import control
from arbiter_core.multiplayer import grand_melee
from arbiter_core.stack import delayed
from arbiter_core.stack.priority import queue_priority
from arbiter_core.variants.base import active_players, next_turn_player

ORDER = list(Step)


def draw(t: Txn, player: str, rule: str) -> None:
    """Draw the top card (CR 121.1); from an empty library, note it for 704.5b."""
    library = t.s.zone(player, "library")
    if not library:
        t.emit(ev.DrawFromEmptyLibraryAttempted(player=player, rule="121.4"))
        return
    t.emit(ev.CardDrawn(player=player, obj=library[0], new_id=t.new_id(), rule=rule))


def turn_based_actions(t: Txn, m: Marker) -> None:
    """The turn-based actions as a step begins (CR 703.4), then priority (CR 117.3a)."""
    s = t.s
    ap = m.holder
    actives = active_players(s, ap)
    match m.step:
        case Step.UNTAP:
            if s.grand_melee:
                # Grand Melee turns begin in grand_melee.py: "until your next turn"
                # effects of the players now taking a turn end here (701.35a).
                for f in list(s.effects):
                    if f.until == "your_next_turn" and f.controller in actives:
                        t.emit(ev.EffectEnded(effect=f.id, rule="701.35a"))
            # CR 502.3: the active player (805.4: each on the active team) untaps their
            # permanents; no player gets priority (502.4).
            tapped = [o.id for o in s.permanents() if o.tapped and o.controller in actives]
            if tapped:
                t.emit(ev.PermanentsUntapped(objs=tapped, rule="502.3"))
            advance(t, m.number)
            return
        case Step.DRAW:
            # CR 504.1; 805.4b and 805.6a: each player on the active team draws.
            for p in actives:
                draw(t, p, "504.1" if len(actives) == 1 else "805.4b")
        case Step.DECLARE_ATTACKERS:
            if combat.request_attackers(t, m):
                return
        case Step.DECLARE_BLOCKERS:
            if combat.request_blockers(t, m):
                return
        case Step.FIRST_STRIKE_DAMAGE | Step.COMBAT_DAMAGE:
            if combat_damage.combat_damage(t, m):
                return
        case Step.END:
            delayed.trigger_at_end_step(t, m)  # 603.7: they go on the stack (603.3)
        case Step.CLEANUP:
            _cleanup(t, m)
            return
        case _:
            pass
    queue_priority(t, m.number, ap)


def _cleanup(t: Txn, m: Marker) -> bool:
    """CR 514.1 discard to hand size (a decision), 514.2 damage and "until end of turn"
    effects end. Returns True when waiting on a decision. CR 514.3: normally no player
    gets priority; if SBAs or triggers are waiting, they get it and another cleanup
    step follows (514.3a)."""
    s = t.s
    ap = m.holder
    if not s.players[ap].left:
        hand = s.zone(ap, "hand")
        excess = len(hand) - s.players[ap].max_hand_size
        if excess > 0:
            t.emit(ev.DecisionRequested(marker=m.number, kind="discard", player=ap,
                                        options=list(hand), count=excess, rule="514.1"))
            return True
    ending = tuple(f for f in s.effects if f.marker == m.number and f.until == "end_of_turn")
    t.emit(ev.DamageWoreOff(marker=m.number, rule="514.2"))
    control.refresh(t, ending)  # control effects that just ended (613.1b)
    from arbiter_core.sba.check import needs_check

    if needs_check(t.s) or t.s.triggers:
        t.emit(ev.WorkQueued(marker=m.number, kind="check_sba", then_priority=ap,
                             rule="514.3a"))
    else:
        advance(t, m.number)
    return True


def next_step(m: Marker, has_first_strike: bool) -> Step | None:
    """The step after the marker's current one, or None when the turn ends (CR 500.1).
    Skips: the first player's first draw (103.8a), combat damage steps with no
    attackers (508.8), the first-strike step without first or double strike (510.4)."""
    step = m.step
    if step == Step.CLEANUP:
        return None
    nxt = ORDER[ORDER.index(step) + 1]
    if nxt == Step.DRAW and m.skip_draw:
        nxt = Step.PRECOMBAT_MAIN
    if step == Step.DECLARE_ATTACKERS and not (m.combat and m.combat.attacks):
        nxt = Step.END_OF_COMBAT
    if nxt == Step.FIRST_STRIKE_DAMAGE and not has_first_strike:
        nxt = Step.COMBAT_DAMAGE
    return nxt


def advance(t: Txn, marker: int) -> None:
    """End the current step and begin the next (CR 500.2-500.4), or end the turn."""
    s = t.s
    m = s.markers[marker]
    pools = [p for p in s.in_game() if s.players[p].mana]
    if pools:
        t.emit(ev.ManaEmptied(players=pools, rule="500.4"))
    if m.step == Step.END_OF_COMBAT:
        t.emit(ev.CombatEnded(marker=marker, rule="511.3"))
    if m.step == Step.CLEANUP and (m.stack or t.s.triggers):
        # CR 514.3a: another cleanup step.
        t.emit(ev.StepBegan(marker=marker, step=Step.CLEANUP.value, rule="514.3a"))
        return
    nxt = next_step(m, combat_damage.any_first_strike(s, m))
    if nxt is not None:
        rule = {Step.PRECOMBAT_MAIN: "505.1", Step.END_OF_COMBAT: "511.1"}.get(nxt, "500.1")
        if nxt == Step.PRECOMBAT_MAIN and m.step == Step.UPKEEP and m.skip_draw:
            rule = "103.8a"
        if nxt == Step.END_OF_COMBAT and m.step == Step.DECLARE_ATTACKERS:
            rule = "508.8"
        t.emit(ev.StepBegan(marker=marker, step=nxt.value, rule=rule))
        return
    _next_turn(t, m)


def _next_turn(t: Txn, m: Marker) -> None:
    """Extra turns first, most recent first (CR 500.7); otherwise the next player in turn
    order takes the next turn (CR 101.4, 806.3); a player who left takes none (800.4k)."""
    s = t.s
    if s.game_over:
        return
    if s.grand_melee:
        grand_melee.end_turn(t, m)
        return
    extra = [p for p in m.extra_turns if not s.players[p].left]
    if extra:
        end_until_next_turn(t, m.holder, extra[0], extra=True)
        # CR 805.8: with shared team turns, the player's team takes the extra turn.
        t.emit(ev.TurnBegan(marker=m.number, player=extra[0], turn=m.turn + 1, extra=True,
                            rule="805.8" if s.shared_team_turns else "500.7"))
        return
    player = next_turn_player(s, m.holder)
    if player is None:
        return
    end_until_next_turn(t, m.holder, player)
    t.emit(ev.TurnBegan(marker=m.number, player=player, turn=m.turn + 1,
                        rule="805.4" if s.shared_team_turns else "500.1"))


def end_until_next_turn(t: Txn, previous: str, player: str, extra: bool = False) -> None:
    """Effects that last "until your next turn" (detain, 701.35a) end as their
    controller's next turn begins (with shared team turns, the team's, 805.4). 800.4m:
    for a controller who has left the game they end when that turn would have begun -
    as the turn of a later player begins after the turn order passed the leaver's seat.
    They neither end at once nor last forever."""
    s = t.s
    seats = s.seats
    i = seats.index(previous)
    passed: list[str] = []  # seats the turn order goes past to reach `player`
    for k in range(1, len(seats)):
        q = seats[(i + k) % len(seats)]
        if extra or q == player:  # an extra turn (500.7) passes no seat
            break
        passed.append(q)
    starting = active_players(s, player)
    for f in list(s.effects):
        if f.until != "your_next_turn" or f.controller is None:
            continue
        if f.controller in starting:
            t.emit(ev.EffectEnded(effect=f.id, rule="701.35a"))
        elif s.players[f.controller].left and f.controller in passed:
            t.emit(ev.EffectEnded(effect=f.id, rule="800.4m"))
