"""Combat's decisions (CR 508.1, 509.1, 510.1): declaring attackers and blockers and
assigning combat damage, each answered by a command of its own; the answers a player
may give (`legal_actions`); the turn-based actions that ask them; and what happens when
the player asked leaves the game (800.4a, 800.4h, 800.4j). With shared team turns a
teammate may answer for the team (805.2, 805.10b, 805.10d, 805.10f).
"""

from __future__ import annotations

from arbiter_core.combat import requirements
from arbiter_core.combat.banding import has_banding
from arbiter_core.combat.damage import assign, combat_damage, default_assignment
from arbiter_core.combat.declare import (
    can_block,
    check_attack,
    could_attack,
    declare_attackers,
    declare_blockers,
    request_attackers,
    request_blockers,
    targets_for,
)
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import (
    AssignCombatDamage,
    DeclareAttackers,
    DeclareBlockers,
    PlayerCommand,
)
from arbiter_core.kernel.decide import MARKER_FOR, handles
from arbiter_core.kernel.decisions import answered_by_command, pending
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.state import Decision, GameState, Marker, Step
from arbiter_core.kernel.txn import Txn
from arbiter_core.multiplayer.seating import team_representative
from arbiter_core.stack.priority import queue_priority
from arbiter_core.turns.steps import step_action, step_skip

# ------------------------------------------------------------------ the commands


@handles(DeclareAttackers)
def _declare_attackers(t: Txn, cmd: DeclareAttackers) -> None:
    m = MARKER_FOR.value(t.s, cmd.player, cmd.marker)
    pending(t.s, m, "declare_attackers", cmd.player)
    declare_attackers(t, m, cmd.player, list(cmd.attacks), [list(b) for b in cmd.bands])
    queue_priority(t, m.number, m.holder)


@handles(DeclareBlockers)
def _declare_blockers(t: Txn, cmd: DeclareBlockers) -> None:
    m = MARKER_FOR.value(t.s, cmd.player, cmd.marker)
    pending(t.s, m, "declare_blockers", cmd.player)
    declare_blockers(t, m, cmd.player, list(cmd.blocks))
    m = t.s.markers[m.number]
    if not request_blockers(t, m):
        queue_priority(t, m.number, m.holder)


@handles(AssignCombatDamage)
def _assign_combat_damage(t: Txn, cmd: AssignCombatDamage) -> None:
    m = MARKER_FOR.value(t.s, cmd.player, cmd.marker)
    d = pending(t.s, m, "assign_combat_damage", cmd.player)
    assign(t, m, d.player, d.options, dict(cmd.assignments))


# ------------------------------------------------------------------ the steps


@step_action(Step.DECLARE_ATTACKERS)
def _attackers_step(t: Txn, m: Marker) -> bool:
    return request_attackers(t, m)  # 508.1


@step_skip(Step.DECLARE_BLOCKERS)
def _no_attackers(s: GameState, m: Marker) -> tuple[Step, str] | None:
    """CR 508.8: with no creatures attacking, the combat damage steps are skipped."""
    return None if m.combat and m.combat.attacks else (Step.END_OF_COMBAT, "508.8")


@step_action(Step.DECLARE_BLOCKERS)
def _blockers_step(t: Txn, m: Marker) -> bool:
    return request_blockers(t, m)  # 509.1


# ------------------------------------------------------------------ the answers


def _blocks(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    """None, or each creature blocking each attacker it can block."""
    player = d.player
    out: list[PlayerCommand] = [DeclareBlockers(player=player, marker=m.number)]
    attackers = m.combat.attacker_ids() if m.combat else []
    for b in d.options:
        for a in attackers:
            if a in s.objects and can_block(s, s.objects[b], s.objects[a], player, m):
                out.append(DeclareBlockers(player=player, blocks=[(b, a)], marker=m.number))
    return out


def _assignments(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    plan = {a: default_assignment(s, m, s.objects[a]) for a in d.options}
    return [AssignCombatDamage(player=d.player, assignments=plan, marker=m.number)]


def _attack_candidates(s: GameState, m: Marker, can_hit: dict[int, list[str]]
                       ) -> list[tuple[list[tuple[int, str]], list[list[int]]]]:
    """None, each creature alone, everyone at one player, a band of every creature with
    banding and one without, the creatures that obey the most requirements."""
    candidates: list[tuple[list[tuple[int, str]], list[list[int]]]] = [([], [])]
    for oid, targets in can_hit.items():
        candidates += [([(oid, target)], []) for target in targets]
    defenders = sorted({p for ps in can_hit.values() for p in ps})
    if len(can_hit) > 1:
        for target in defenders:
            # everyone at `target`, or at their own first choice if they can't
            candidates.append(([(oid, target if target in ps else ps[0])
                                for oid, ps in can_hit.items()], []))
    banders = [oid for oid in can_hit if has_banding(s, s.objects[oid])]
    others = [oid for oid in can_hit if oid not in banders]
    for target in defenders:
        band = [oid for oid in banders + others[:1] if target in can_hit[oid]]
        if len(band) > 1 and any(oid in banders for oid in band):
            candidates.append(([(oid, target) for oid in band], [band]))
    required = requirements.required_attackers(s, m.holder, could_attack(s, m))
    if required:
        candidates.append(([(o.id, can_hit[o.id][0]) for o in required if o.id in can_hit],
                           []))
    return candidates


def _attacks(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    """Representative declarations (`_attack_candidates`), keeping only the legal ones
    (508.1c-d, 702.22c-d)."""
    can_hit = {oid: targets_for(s, s.objects[oid]) for oid in d.options}
    can_hit = {oid: ps for oid, ps in can_hit.items() if ps}
    out: list[PlayerCommand] = []
    for attacks, bands in _attack_candidates(s, m, can_hit):
        try:
            check_attack(s, m, attacks, bands)
        except RuleViolation:
            continue
        out.append(DeclareAttackers(player=d.player, attacks=attacks, bands=bands,
                                    marker=m.number))
    return out


# ------------------------------------------------------------------ when the player leaves


def _team_passes_on(t: Txn, m: Marker, d: Decision, player: str) -> bool:
    """CR 800.4h: a choice the rules ask of a player who has left the game is made by the
    next player in turn order. With shared team turns the rules ask the team's primary
    player (805.2) for the team's attack, block or damage assignment (805.10b, d, f);
    when that player leaves, their teammate next in turn order - the team's new primary
    player - makes it, for what is left of the team."""
    if not t.s.shared_team_turns:
        return False
    mates = [q for q in t.s.team_of(player) if not t.s.players[q].left]
    if not mates:
        return False
    nxt = team_representative(t.s, mates[0])
    if d.kind == "assign_combat_damage":
        if not combat_damage(t, m):  # recomputed; asks the team again
            queue_priority(t, m.number, m.holder)
        return True
    options = [o for o in d.options if o in t.s.objects]
    if options:
        t.emit(ev.DecisionRequested(marker=m.number, kind=d.kind, player=nxt,
                                    options=options, count=d.count, rule="800.4h"))
        return True
    if d.kind == "declare_attackers":
        t.emit(ev.AttackersDeclared(marker=m.number, player=nxt, attacks=[], rule="800.4h"))
        queue_priority(t, m.number, m.holder)
        return True
    t.emit(ev.BlockersDeclared(marker=m.number, player=nxt, blocks=[], rule="800.4h"))
    if not request_blockers(t, t.s.markers[m.number]):
        queue_priority(t, m.number, m.holder)
    return True


def _attacker_left(t: Txn, m: Marker, d: Decision, player: str) -> bool:
    """800.4j: the leaver declares no attackers; the holder gets priority."""
    if _team_passes_on(t, m, d, player):
        return True
    t.emit(ev.AttackersDeclared(marker=m.number, player=player, attacks=[], rule="800.4j"))
    return False


def _blocker_left(t: Txn, m: Marker, d: Decision, player: str) -> bool:
    """800.4a: the leaver blocks with nothing; the next defending player declares."""
    if _team_passes_on(t, m, d, player):
        return True
    t.emit(ev.BlockersDeclared(marker=m.number, player=player, blocks=[], rule="800.4a"))
    m = t.s.markers[m.number]
    if not request_blockers(t, m):
        queue_priority(t, m.number, m.holder)
    return True


def _assigner_left(t: Txn, m: Marker, d: Decision, player: str) -> bool:
    """The leaver's creatures are gone (800.4a): whatever still needs an assignment is
    asked of the next player who assigns (802.5), or the damage is dealt."""
    if _team_passes_on(t, m, d, player):
        return True
    if not combat_damage(t, m):
        queue_priority(t, m.number, m.holder)
    return True


answered_by_command("declare_attackers", DeclareAttackers, _attacks, team_listed=True,
                    on_leave=_attacker_left)
answered_by_command("declare_blockers", DeclareBlockers, _blocks, team_listed=True,
                    on_leave=_blocker_left)
answered_by_command("assign_combat_damage", AssignCombatDamage, _assignments,
                    team_listed=True, on_leave=_assigner_left)
