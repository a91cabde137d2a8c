"""Turn structure (CR 500-514): steps in order, turn-based actions, the next turn.

The turn orchestrator owns two kinds of work: the turn-based actions of a step that has
just begun (CR 703), and advancing when all players pass with an empty stack (CR 500.2).
Each step's turn-based actions are registered by the rule that makes them
(`@step_action(Step.DECLARE_ATTACKERS)` in combat, the end step's delayed triggers in
`stack.delayed`), and so is each rule that skips a step (`@step_skip`: 103.8a here,
508.8 and 510.4 in combat).
"""

from __future__ import annotations

from collections.abc import Callable

from arbiter_core.cards.model import ExtraTurn
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.decide import work
from arbiter_core.kernel.edits import move, set_marker, set_obj, set_player
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.hashing import state_hash
from arbiter_core.kernel.registry import Hooks
from arbiter_core.kernel.state import GameState, Marker, StackItem, Step, Waiting, Work
from arbiter_core.kernel.txn import Txn, before_emit
from arbiter_core.layers import continuous, control
from arbiter_core.multiplayer import influence
from arbiter_core.multiplayer.seating import active_players, next_turn_player
from arbiter_core.sba.conditions import needs_check
from arbiter_core.stack.items import Legal, effect
from arbiter_core.stack.priority import queue_priority
from arbiter_core.turns.draw import DRAW_STEP_REPLACEMENTS, draw
from arbiter_core.variants.base import variant_of

ORDER = list(Step)
#: a step's turn-based actions (703.4): True when no player gets priority now (a
#: decision was asked, or the step moved on by itself)
StepAction = Callable[[Txn, Marker], bool]
#: instead of beginning a step: the step to begin (and the rule), or None
StepSkip = Callable[[GameState, Marker], "tuple[Step, str] | None"]
STEP_ACTIONS: Hooks[Step, StepAction] = Hooks("turn-based action")
STEP_SKIPS: Hooks[Step, StepSkip] = Hooks("step skip")


def step_action(step: Step, order: float = 0) -> Callable[[StepAction], StepAction]:
    """Register the decorated turn-based action of `step` (CR 703)."""
    def add(action: StepAction) -> StepAction:
        STEP_ACTIONS.add(step, action, order)
        return action
    return add


def step_skip(step: Step) -> Callable[[StepSkip], StepSkip]:
    """Register the decorated rule that may skip `step` (it names the step instead)."""
    def add(skip: StepSkip) -> StepSkip:
        STEP_SKIPS.add(step, skip)
        return skip
    return add


@work("turn_based_actions", owner="turn-orchestrator")
def turn_based_actions(t: Txn, m: Marker, w: Work | None = None) -> None:
    """The turn-based actions as a step begins (CR 703.4), then priority (CR 117.3a)."""
    for action in STEP_ACTIONS[m.step]:
        if action(t, m):
            return
    queue_priority(t, m.number, m.holder)


@step_action(Step.UNTAP)
def _untap(t: Txn, m: Marker) -> bool:
    """CR 502.3: the active player (805.4: each on the active team) untaps their
    permanents; no player gets priority (502.4)."""
    variant_of(t.s).untapping(t, m)
    actives = active_players(t.s, m.holder)
    tapped = [o.id for o in t.s.permanents() if o.tapped and o.controller in actives]
    if tapped:
        t.emit(ev.PermanentsUntapped(objs=tapped, rule="502.3"))
    advance(t, m.number)
    return True


@step_action(Step.DRAW)
def _draw_step(t: Txn, m: Marker) -> bool:
    """CR 504.1; 805.4b and 805.6a: each player on the active team draws - unless a
    replacement asks a player first (903.9b), when the step waits."""
    return _draws(t, m, 0)


def draw_rule(s: GameState, m: Marker) -> str:
    return "504.1" if len(active_players(s, m.holder)) == 1 else "805.4b"


def _draws(t: Txn, m: Marker, start: int) -> bool:
    for p in active_players(t.s, m.holder)[start:]:
        if any(ask(t, m, p) for ask in DRAW_STEP_REPLACEMENTS["all"]):
            return True
        draw(t, p, draw_rule(t.s, m))
    return False


def resume_draw_step(t: Txn, m: Marker, player: str) -> None:
    """After `player`'s draw was replaced or made (903.9b answered): the other players'
    draws, the draw step's other turn-based actions, then priority."""
    actives = active_players(t.s, m.holder)
    start = actives.index(player) + 1 if player in actives else len(actives)
    if _draws(t, m, start):
        return
    actions = STEP_ACTIONS[Step.DRAW]
    for action in actions[actions.index(_draw_step) + 1:]:
        if action(t, m):
            return
    queue_priority(t, m.number, m.holder)


@step_skip(Step.DRAW)
def _first_draw(s: GameState, m: Marker) -> tuple[Step, str] | None:
    """CR 103.8a: the first player's first draw step is skipped."""
    return (Step.PRECOMBAT_MAIN, "103.8a") if m.skip_draw else None


@step_action(Step.CLEANUP)
def _cleanup(t: Txn, m: Marker) -> bool:
    """CR 514.1 discard to hand size (a decision), 514.2 damage and "until end of turn"
    effects end. CR 514.3: normally no player gets priority; if SBAs or triggers are
    waiting, they get it and another cleanup step follows (514.3a)."""
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
    for ended in continuous.ENDED_AT_CLEANUP["all"]:
        ended(t, ending)
    if needs_check(t.s) or t.s.triggers:
        t.emit(ev.WorkQueued(marker=m.number, kind="check_sba", then_priority=ap,
                             rule="514.3a"))
    else:
        advance(t, m.number)
    return True


def next_step(s: GameState, m: Marker) -> tuple[Step, str] | None:
    """The step after the marker's current one and the rule that makes it next, or None
    when the turn ends (CR 500.1), after the skips registered for each step."""
    step = m.step
    if step == Step.CLEANUP:
        return None
    nxt = ORDER[ORDER.index(step) + 1]
    rule = {Step.PRECOMBAT_MAIN: "505.1", Step.END_OF_COMBAT: "511.1"}.get(nxt, "500.1")
    skipped = True
    while skipped:
        skipped = False
        for skip in STEP_SKIPS[nxt]:
            instead = skip(s, m)
            if instead is not None:
                nxt, rule = instead
                skipped = True
                break
    return nxt, rule


@work("advance_step", owner="turn-orchestrator")
def _advance_step(t: Txn, m: Marker, w: Work) -> None:
    advance(t, m.number)


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
    nxt = next_step(s, m)
    if nxt is not None:
        t.emit(ev.StepBegan(marker=marker, step=nxt[0].value, rule=nxt[1]))
        return
    _next_turn(t, m)


def _next_turn(t: Txn, m: Marker) -> None:
    """Extra turns first, most recent first (CR 500.7); otherwise the next player in turn
    order takes the next turn (CR 101.4, 806.3); a player who left takes none (800.4k)."""
    s = t.s
    if s.game_over:
        return
    if variant_of(s).turn_ended(t, m):  # e.g. Grand Melee's markers (807.4c)
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


# ------------------------------------------------------------------ appliers


@before_emit(ev.TurnBegan)
def _checkpoint(t: Txn, e: ev.TurnBegan) -> None:
    """As each turn begins, the state's hash is recorded (a replay checks it)."""
    t.emit(ev.StateCheckpointed(marker=e.marker, state_hash=state_hash(t.s),
                                algorithm="text-sha256", rule="500.1"))


@applies(ev.MarkerPlaced)
def _marker_placed(s: GameState, e: ev.MarkerPlaced) -> None:
    """A turn marker is placed as the game starts (103.8, 807.4b)."""
    s.markers[e.marker] = Marker(
        number=e.marker, holder=e.holder, turn=e.turn, step=Step(e.step),
        pending=Waiting(e.holder) if e.waiting else Work("turn_based_actions"),
        skip_draw=e.skip_draw)


@applies(ev.StepBegan)
def _step_began(s: GameState, e: ev.StepBegan) -> None:
    set_marker(s, e.marker, step=Step(e.step), passed=(), pending=Work("turn_based_actions"))


@applies(ev.CardDrawn)
def _card_drawn(s: GameState, e: ev.CardDrawn) -> None:
    move(s, e.obj, e.new_id, "hand", None)


@applies(ev.DrawFromEmptyLibraryAttempted)
def _drew_from_empty(s: GameState, e: ev.DrawFromEmptyLibraryAttempted) -> None:
    set_player(s, e.player, drew_from_empty=True)  # 704.5b


@applies(ev.ExtraTurnAdded)
def _extra_turn_added(s: GameState, e: ev.ExtraTurnAdded) -> None:
    m = s.markers[e.marker]
    set_marker(s, e.marker, extra_turns=(e.player, *m.extra_turns))


@applies(ev.DamageWoreOff)
def _damage_wore_off(s: GameState, e: ev.DamageWoreOff) -> None:
    """514.2: damage wears off and "until end of turn" effects end."""
    for oid in s.battlefield:
        if s.objects[oid].damage or s.objects[oid].deathtouch_hit:
            set_obj(s, oid, damage=0, deathtouch_hit=False)
    s.effects = [f for f in s.effects if f.marker != e.marker or f.until != "end_of_turn"]


@applies(ev.TurnBegan)
def _turn_began(s: GameState, e: ev.TurnBegan) -> None:
    """CR 500.1, 805.4, 801.2c: a marker's turn begins; extra and owed turns are used up."""
    m = s.markers[e.marker]
    extra = list(m.extra_turns)
    if e.extra and e.player in extra:
        extra.remove(e.player)
    elif e.extra and e.player in s.extra_due:
        due = list(s.extra_due)
        due.remove(e.player)
        s.extra_due = tuple(due)
    owed = list(m.normal_next)
    if not e.extra and e.player in owed:
        owed.remove(e.player)
    set_marker(
        s, e.marker, holder=e.player, turn=e.turn, step=Step.UNTAP, passed=(),
        combat=None, pending=Work("turn_based_actions"), skip_draw=False,
        extra_turns=tuple(extra), normal_next=tuple(owed), attacked=(),
        loyalty_used=(),
    )
    # CR 805.4: with shared team turns the whole team takes the turn.
    active = s.team_of(e.player) if s.shared_team_turns else [e.player]
    for who in active:
        set_player(s, who, lands_played=0)
    for oid in s.battlefield:
        if s.objects[oid].controller in active and s.objects[oid].sick:
            set_obj(s, oid, sick=False)
    s.turns_taken += 1
    s.influence = influence.compute(s)  # CR 801.2c


@effect(ExtraTurn)
def _extra_turn(t: Txn, m: Marker, item: StackItem, eff: ExtraTurn, legal: Legal,
                index: int) -> bool:
    """CR 500.7: the controller takes an extra turn after this one."""
    t.emit(ev.ExtraTurnAdded(marker=m.number, player=item.controller, rule="500.7"))
    return False


@explains(ev.MarkerPlaced)
def _explain_marker_placed(before: GameState, e: ev.MarkerPlaced, name: Namer) -> str:
    return f"turn marker {e.marker} to {e.holder}: turn {e.turn}, {e.step}"


@explains(ev.CardDrawn)
def _explain_card_drawn(before: GameState, e: ev.CardDrawn, name: Namer) -> str:
    return f"{e.player} draws {name(e.new_id)}"


@explains(ev.DrawFromEmptyLibraryAttempted)
def _explain_draw_from_empty(before: GameState, e: ev.DrawFromEmptyLibraryAttempted,
                             name: Namer) -> str:
    return f"{e.player} draws from an empty library"


@explains(ev.TurnBegan)
def _explain_turn_began(before: GameState, e: ev.TurnBegan, name: Namer) -> str:
    return f"{'extra ' if e.extra else ''}turn {e.turn} of {e.player} begins"


@explains(ev.StepBegan)
def _explain_step_began(before: GameState, e: ev.StepBegan, name: Namer) -> str:
    return f"{e.step.replace('_', ' ')} step begins"


@explains(ev.DamageWoreOff)
def _explain_damage_wore_off(before: GameState, e: ev.DamageWoreOff, name: Namer) -> str:
    return "damage wears off; until-end-of-turn effects end"


@explains(ev.ExtraTurnAdded)
def _explain_extra_turn_added(before: GameState, e: ev.ExtraTurnAdded, name: Namer) -> str:
    return f"{e.player} will take an extra turn"
