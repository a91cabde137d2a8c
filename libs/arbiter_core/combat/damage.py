"""The combat damage step (CR 510): who assigns each creature's combat damage, the
assignment's legality, and dealing it all at once; with first and double strike
(510.4, 702.7, 702.4), trample (702.19), deathtouch (702.2), lifelink (702.15), Fog's
prevention (615) and redirection (614.9).

A creature whose damage has one legal assignment assigns it without a decision. Every
other assignment is a decision: the active player's first - for attacking creatures
(510.1c) and, by 702.22k, for blocking creatures that block a creature with banding -
then each defending player's in APNAP order (510.1, 802.5) - for their blocking creatures
(510.1d) and, by 702.22j, for attacking creatures a creature with banding blocks. With
shared team turns the active team, then the defending team, each through its primary
player (805.10f). The assignments wait in `Combat.assigned`; the damage is dealt once
all are made (510.2).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from arbiter_core.card_types import planeswalkers
from arbiter_core.combat import banding
from arbiter_core.effects import damage_replacement as replacement
from arbiter_core.effects import life
from arbiter_core.effects.damage import after_prevention
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.edits import set_marker
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains, objs
from arbiter_core.kernel.refs import PlayerRef, Ref, object_ref, parse_ref
from arbiter_core.kernel.state import Combat, GameState, Marker, Obj, Step
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import keywords, power_toughness
from arbiter_core.multiplayer.influence import object_in_range, player_in_range
from arbiter_core.multiplayer.seating import team_representative, turn_order_from
from arbiter_core.stack.priority import queue_priority
from arbiter_core.turns.steps import step_action, step_skip


def any_first_strike(s: GameState, m: Marker) -> bool:
    """CR 510.4: any attacking or blocking creature with first or double strike."""
    if m.combat is None:
        return False
    ids = [a for a, _ in m.combat.attacks] + [b for b, _ in m.combat.blocks]
    return any(
        {"first_strike", "double_strike"} & keywords(s, s.objects[i])
        for i in ids if i in s.objects
    )


def _deals_now(s: GameState, m: Marker, o: Obj) -> bool:
    kw = keywords(s, o)
    assert m.combat is not None
    if m.step == Step.FIRST_STRIKE_DAMAGE:
        return bool({"first_strike", "double_strike"} & kw)
    if not m.combat.had_first_strike_step:
        return True
    return "double_strike" in kw or o.id not in m.combat.first_strikers_dealt


def _on_battlefield(s: GameState, ids: list[int]) -> list[int]:
    return [i for i in ids if i in s.objects and s.objects[i].zone == "battlefield"]


def _live_blockers(s: GameState, m: Marker, attacker: int) -> list[int]:
    """The creatures blocking `attacker` that are still there and in combat (506.4)."""
    assert m.combat is not None
    removed = m.combat.removed
    return [b for b in _on_battlefield(s, m.combat.blockers_of(attacker)) if b not in removed]


def _live_blocked(s: GameState, m: Marker, blocker: int) -> list[int]:
    """The attacking creatures `blocker` blocks that are still there (510.1d) and still
    attacking (506.4)."""
    assert m.combat is not None
    attacking = set(m.combat.attacker_ids())
    return [a for a in _on_battlefield(s, list(dict.fromkeys(
        a for b, a in m.combat.blocks if b == blocker))) if a in attacking]


def _blocker_ids(m: Marker) -> list[int]:
    """The blocking creatures still in combat (506.4)."""
    assert m.combat is not None
    return [b for b in dict.fromkeys(b for b, _ in m.combat.blocks)
            if b not in m.combat.removed]


def _side(s: GameState, player: str) -> str:
    """A team decides through its primary player with shared team turns (805.10f)."""
    return team_representative(s, player) if s.shared_team_turns else player


def assigners(s: GameState, m: Marker) -> dict[int, str]:
    """The creatures dealing combat damage now whose damage needs a decision, and who
    makes it: two or more blockers, or one with trample (510.1c, 702.19b) - the active
    player, or the defending player if a blocker has banding (702.22j); a blocking
    creature blocking two or more creatures (510.1d) - its controller, or the active
    player if one of them has banding (702.22k)."""
    assert m.combat is not None
    out: dict[int, str] = {}
    for a in _on_battlefield(s, m.combat.attacker_ids()):
        o = s.objects[a]
        if not _deals_now(s, m, o) or power_toughness(s, o)[0] <= 0:
            continue
        blockers = _live_blockers(s, m, a)
        if len(blockers) >= 2 or (len(blockers) == 1 and "trample" in keywords(s, o)):
            defender = m.combat.defender_of(a)
            if banding.defender_assigns(s, blockers) and defender is not None:
                out[a] = _side(s, defender)
            else:
                out[a] = _side(s, m.holder)
    for b in _on_battlefield(s, _blocker_ids(m)):
        o = s.objects[b]
        if not _deals_now(s, m, o) or power_toughness(s, o)[0] <= 0:
            continue
        blocked = _live_blocked(s, m, b)
        if len(blocked) >= 2:
            out[b] = _side(s, m.holder if banding.attacker_assigns(s, blocked)
                           else o.controller)
    return out


def combat_damage(t: Txn, m: Marker) -> bool:
    """CR 510.1-510.2. Returns True when waiting for a player's assignment."""
    s = t.s
    if m.combat is None:
        return False
    needs = assigners(s, m)
    order = [_side(s, p) for p in turn_order_from(s, m.holder) if not s.players[p].left]
    for who in dict.fromkeys([_side(s, m.holder), *order]):
        mine = [c for c, p in needs.items() if p == who]
        if mine and who not in m.combat.assigned_by:
            t.emit(ev.DecisionRequested(marker=m.number, kind="assign_combat_damage",
                                        player=who, options=mine, rule=_decision_rule(s, m,
                                                                                      who, mine)))
            return True
    amounts = _amounts(s, m)
    if _ask_order(t, m, amounts):
        return True  # 616.1: an affected player orders the replacement effects first
    _deal(t, m, amounts)
    if m.step == Step.FIRST_STRIKE_DAMAGE:
        dealt = [a for a in _on_battlefield(s, m.combat.attacker_ids())
                 if _deals_now(s, m, s.objects[a])] + [
            b for b in _on_battlefield(s, _blocker_ids(m)) if _deals_now(s, m, s.objects[b])]
        t.emit(ev.FirstStrikeDamageDealt(marker=m.number, creatures=dealt, rule="510.4"))
    return False


def _ask_order(t: Txn, m: Marker, amounts: dict[tuple[int, Ref], int]) -> bool:
    """The affected player's choice of order among the damage replacement effects that
    apply to one of the damage events not prevented (616.1, effects/damage_replacement)."""
    s = t.s
    assert m.combat is not None
    shields = [f for f in s.effects if f.kind == "prevent_combat_damage"]
    dealt = [(src, key, n) for (src, key), n in amounts.items()
             if not any(_prevents(s, f.controller, s.objects[src], key) for f in shields)]
    return replacement.ask(t, m, dealt, m.combat.replacement_orders)


def _go_on(t: Txn, m: Marker) -> None:
    """Combat damage goes on once an order is chosen (616.1e)."""
    if not combat_damage(t, m):
        queue_priority(t, m.number, m.holder)


replacement.COMBAT_DAMAGE.fill(_go_on)


def _decision_rule(s: GameState, m: Marker, who: str, creatures: list[int]) -> str:
    assert m.combat is not None
    attacking = set(m.combat.attacker_ids())
    if who == _side(s, m.holder):
        if any(c not in attacking for c in creatures):
            return "702.22k"
        return "805.10f" if s.shared_team_turns else "510.1c"
    return "702.22j" if any(c in attacking for c in creatures) else "510.1d"


def assign(t: Txn, m: Marker, player: str, options: tuple[int, ...],
           chosen: dict[int, dict[Ref, int]]) -> None:
    """A player's assignment for the creatures asked about (510.1e: checked as a whole),
    then the next player's decision or the damage."""
    s = t.s
    if set(chosen) != set(options):
        raise RuleViolation("510.1c", "assign damage for exactly the creatures asked about: "
                                      f"{list(options)}")
    checked = [(c, validate_assignment(s, m, s.objects[c], chosen[c])) for c in options]
    t.emit(ev.CombatDamageAssigned(marker=m.number, player=player, assignments=checked,
                                   rule="510.1e"))
    if not combat_damage(t, t.s.markers[m.number]):
        queue_priority(t, m.number, m.holder)


def _amounts(s: GameState, m: Marker) -> dict[tuple[int, Ref], int]:
    """Each creature's damage to each recipient (510.1a-d), with the decisions made."""
    assert m.combat is not None
    chosen = dict(m.combat.assigned)
    amounts: dict[tuple[int, Ref], int] = defaultdict(int)
    for a in _on_battlefield(s, m.combat.attacker_ids()):
        o = s.objects[a]
        power = power_toughness(s, o)[0]
        if not _deals_now(s, m, o) or power <= 0:
            continue
        blockers = _live_blockers(s, m, a)
        to = planeswalkers.attack_recipient(s, m, a)
        if a in chosen:
            for key, n in chosen[a]:
                amounts[(a, key)] += n
        elif not m.combat.blockers_of(a) or (not blockers and "trample" in keywords(s, o)):
            # 510.1b, 702.19d: to the player or planeswalker it attacks (802.2a,
            # 805.10e); not to a player who has left (800.4e).
            if to and not (isinstance(to, PlayerRef) and s.players[to.player].left):
                amounts[(a, to)] += power
        elif blockers:
            amounts[(a, object_ref(blockers[0]))] += power
    for b in _on_battlefield(s, _blocker_ids(m)):
        o = s.objects[b]
        power = power_toughness(s, o)[0]
        if not _deals_now(s, m, o) or power <= 0:
            continue
        if b in chosen:
            for key, n in chosen[b]:
                amounts[(b, key)] += n
            continue
        blocked = _live_blocked(s, m, b)
        if blocked:
            amounts[(b, object_ref(blocked[0]))] += power
    return amounts


def validate_assignment(s: GameState, m: Marker, c: Obj, split: dict[Ref, int]
                        ) -> dict[Ref, int]:
    """CR 510.1c-e: all of the creature's power, among the creatures blocking it (or that
    it blocks, 510.1d); CR 702.19b trample: the excess to the player only once every
    blocker is assigned lethal damage (702.2c: any deathtouch damage is lethal). Whoever
    assigns (702.22j-k), the same rules hold."""
    assert m.combat is not None
    power = power_toughness(s, c)[0]
    attacking = c.id in m.combat.attacker_ids()
    rule = "510.1c" if attacking else "510.1d"
    others = _live_blockers(s, m, c.id) if attacking else _live_blocked(s, m, c.id)
    defender = planeswalkers.attack_recipient(s, m, c.id) if attacking else None
    allowed: set[Ref] = {object_ref(b) for b in others}
    trample = attacking and "trample" in keywords(s, c)
    if trample and defender:
        allowed.add(defender)  # 702.19b: the player or planeswalker it attacks
    if any(n < 0 for n in split.values()) or sum(split.values()) != power:
        raise RuleViolation(rule, f"{c.name} must assign exactly its {power} damage")
    for key in split:
        if key not in allowed:
            raise RuleViolation(rule, f"{c.name} can't assign damage to {key}")
    if trample and defender and split.get(defender, 0) > 0:
        deathtouch = "deathtouch" in keywords(s, c)
        for b in others:
            o = s.objects[b]
            lethal = 1 if deathtouch else max(0, power_toughness(s, o)[1] - o.damage)
            if split.get(object_ref(b), 0) < lethal:
                raise RuleViolation("702.19b", f"{o.name} must be assigned lethal damage first")
    return {k: n for k, n in split.items() if n > 0}


def default_assignment(s: GameState, m: Marker, c: Obj) -> dict[Ref, int]:
    """A legal assignment: lethal damage to each creature in turn, the rest to the last
    one, or with trample to the defending player."""
    assert m.combat is not None
    power = power_toughness(s, c)[0]
    attacking = c.id in m.combat.attacker_ids()
    others = _live_blockers(s, m, c.id) if attacking else _live_blocked(s, m, c.id)
    deathtouch = "deathtouch" in keywords(s, c)
    out: dict[Ref, int] = {}
    left = power
    for b in others:
        o = s.objects[b]
        lethal = 1 if deathtouch else max(0, power_toughness(s, o)[1] - o.damage)
        n = min(left, lethal)
        out[object_ref(b)] = n
        left -= n
    if left:
        defender = planeswalkers.attack_recipient(s, m, c.id) if attacking else None
        key = (defender if attacking and "trample" in keywords(s, c) and defender
               else object_ref(others[-1]))
        out[key] = out.get(key, 0) + left
    return {k: n for k, n in out.items() if n > 0}


def _deal(t: Txn, m: Marker, amounts: dict[tuple[int, Ref], int]) -> None:
    """CR 510.2: all combat damage is dealt at once; Fog prevents it (615)."""
    s = t.s
    shields = [f for f in s.effects if f.kind == "prevent_combat_damage"]
    gained: dict[str, int] = defaultdict(int)
    for (src_id, key), n in amounts.items():
        src = s.objects[src_id]
        if any(_prevents(s, f.controller, src, key) for f in shields):
            continue
        kw = keywords(s, src)
        # 614.1a, 615.1a and redirection shields (614.9; 801.13a: only within the
        # source's controller's range of influence) in the order chosen (616.1)
        assert m.combat is not None
        for to, k in replacement.route(t, src_id, key, n, m.combat.replacement_orders,
                                       src.controller):
            if isinstance(to, PlayerRef):
                k = after_prevention(s, src_id, to.player, k)  # 615.1
                if k <= 0:
                    continue
                # 119.8, 810.9h: no life loss for a player whose life total can't change.
                t.emit(ev.DamageDealt(source=src_id, player=to.player, amount=k, combat=True,
                                      life_loss=not life.cant_change(s, to.player),
                                      rule="510.2"))
            else:
                t.emit(ev.DamageDealt(source=src_id, obj=to.obj, amount=k, combat=True,
                                      deathtouch="deathtouch" in kw, rule="510.2"))
                planeswalkers.damage_removes_loyalty(t, to.obj, k)  # 120.3c
            if "lifelink" in kw:
                gained[src.controller] += k
    for player, n in gained.items():
        life.gain(t, player, n, "702.15b")


def _prevents(s: GameState, controller: str | None, src: Obj, key: Ref) -> bool:
    """Fog's shield (615, a prevention effect, 801.13) covers damage only between
    sources and recipients within its controller's range of influence (801.13b)."""
    if controller is None or not s.influence:
        return True
    if not object_in_range(s, controller, src):
        return False
    if isinstance(key, PlayerRef):
        return player_in_range(s, controller, key.player)
    target = s.objects.get(key.obj)
    return target is not None and object_in_range(s, controller, target)


@applies(ev.CombatDamageAssigned)
def _damage_assigned(s: GameState, e: ev.CombatDamageAssigned) -> None:
    cd = s.markers[e.marker].combat or Combat()
    set_marker(s, e.marker, combat=replace(
        cd, assigned=(*cd.assigned, *((c, tuple(sorted((parse_ref(k), n)
                                                       for k, n in split.items())))
                                      for c, split in e.assignments)),
        assigned_by=(*cd.assigned_by, e.player)))


@applies(ev.FirstStrikeDamageDealt)
def _first_strike_dealt(s: GameState, e: ev.FirstStrikeDamageDealt) -> None:
    cf = s.markers[e.marker].combat or Combat()
    set_marker(s, e.marker, combat=replace(
        cf, first_strikers_dealt=tuple(e.creatures), had_first_strike_step=True,
        assigned=(), assigned_by=(), replacement_orders=()))


@step_skip(Step.FIRST_STRIKE_DAMAGE)
def _no_first_strike(s: GameState, m: Marker) -> tuple[Step, str] | None:
    """CR 510.4: the first-strike damage step only with first or double strike."""
    return None if any_first_strike(s, m) else (Step.COMBAT_DAMAGE, "500.1")


@step_action(Step.FIRST_STRIKE_DAMAGE)
@step_action(Step.COMBAT_DAMAGE)
def _damage_step(t: Txn, m: Marker) -> bool:
    return combat_damage(t, m)  # 510.1-510.2


@explains(ev.CombatDamageAssigned)
def _explain_combat_damage_assigned(before: GameState, e: ev.CombatDamageAssigned,
                                    name: Namer) -> str:
    return f"{e.player} assigns combat damage: " + "; ".join(
        f"{name(c)} -> " + ", ".join(
            f"{n} to {name.target(k)}"
            for k, n in split.items())
        for c, split in e.assignments)


@explains(ev.FirstStrikeDamageDealt)
def _explain_first_strike_damage_dealt(before: GameState, e: ev.FirstStrikeDamageDealt,
                                       name: Namer) -> str:
    return f"first-strike damage dealt by {objs(name, e.creatures)}"
