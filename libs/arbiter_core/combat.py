"""Combat (CR 506-511): attackers, blockers, combat damage, with the keyword rules that
change them: flying and reach (702.9, 702.17), defender (702.3), haste and summoning
sickness (702.10, 302.6), vigilance (702.20), first and double strike (702.7, 702.4),
trample (702.19), deathtouch (702.2), lifelink (702.15), and Fog's prevention (615).
Attack options: attack multiple players (802), attack left and right (803.1).
Teams with shared team turns (805.10, which 810.7 uses for Two-Headed Giant): the active
team is the attacking team and each of its players an attacking player, the other team
defending (805.10a); one combined attack in which each creature attacks a chosen
defending player (805.10b), one combined block (805.10d), damage assigned by the active
team first (805.10f). For an attacking creature, "the defending player" is the player it
attacks (802.2a, 805.10e): `Combat.defender_of`.
"""

from __future__ import annotations

from collections import defaultdict

from arbiter_core import events as ev
from arbiter_core import life, redirect
from arbiter_core.cards.model import CantAttackYouIfChosenColorWithoutFlying, StaticAbility
from arbiter_core.errors import InvalidCommand, RuleViolation
from arbiter_core.influence import object_in_range, player_in_range
from arbiter_core.layers import (
    cant_attack_or_block,
    definition,
    is_creature,
    keywords,
    power_toughness,
)
from arbiter_core.state import Decision, GameState, Marker, Obj, Step
from arbiter_core.txn import Txn
from arbiter_core.variants import active_players, opponents, team_representative, turn_order_from

# ------------------------------------------------------------------ attackers (508)


def can_attack(s: GameState, o: Obj) -> bool:
    """CR 508.1a: untapped, and haste or continuous control since the turn began
    (302.6); CR 702.3b defender; CR 508.1c restrictions (Pacifism)."""
    if not is_creature(o) or o.tapped:
        return False
    kw = keywords(s, o)
    if "defender" in kw:
        return False
    if o.sick and "haste" not in kw:
        return False
    return not cant_attack_or_block(s, o)


def moat_stops(s: GameState, o: Obj, defender: str) -> bool:
    """Teferi's Moat: creatures of the chosen color without flying can't attack its
    controller (a restriction, CR 508.1c)."""
    if "flying" in keywords(s, o):
        return False
    colors = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
    for moat in s.permanents(defender):
        if moat.chosen_color and colors[moat.chosen_color] in definition(o).colors and any(
                isinstance(e, CantAttackYouIfChosenColorWithoutFlying)
                for ab in definition(moat).abilities if isinstance(ab, StaticAbility)
                for e in ab.effects):
            return True
    return False


def targets_for(s: GameState, o: Obj) -> list[str]:
    """The players this creature may attack now: a restriction on attacking one player
    applies only to attacks on that player (802.3a, 805.10b)."""
    return [p for p in attackable_players(s, o.controller) if not moat_stops(s, o, p)]


def attackable_players(s: GameState, player: str) -> list[str]:
    """Which players `player` may attack: opponents within range of influence (801.3);
    with attack multiple players any of them, all being defending players (802.1,
    802.2), each attacker attacking one chosen player (802.3); with attack left or right only an
    opponent seated immediately to that side (803.1a-b); in Emperor and Alternating
    Teams only an opponent seated immediately next to the player (809.3c, 811.4)."""
    opps = [p for p in opponents(s, player) if player_in_range(s, player, p)]
    seats = turn_order_from(s, player)
    if len(seats) <= 2:
        return opps
    left, right = seats[1], seats[-1]
    option = s.attack_option
    if option == "left":
        opps = [p for p in opps if p == left]
    elif option == "right":
        opps = [p for p in opps if p == right]
    if s.attack_adjacent_only:
        opps = [p for p in opps if p in (left, right)]
    return opps


def request_attackers(t: Txn, m: Marker) -> bool:
    """CR 508.1: the active player declares attackers (a decision). With no creature
    able to attack, the empty declaration is the only legal one and is made at once."""
    s = t.s
    ap = m.holder
    actives = active_players(s, ap)  # 805.10b: the active team declares one attack
    able = [o.id for o in s.permanents() if o.controller in actives and can_attack(s, o)
            and targets_for(s, o)]
    if not able:
        t.emit(ev.AttackersDeclared(marker=m.number, player=ap, attacks=[], rule="508.1"))
        return False
    t.emit(ev.DecisionRequested(marker=m.number, kind="declare_attackers",
                                player=actives[0], options=able,
                                rule="805.10b" if s.shared_team_turns else "508.1a"))
    return True


def declare_attackers(t: Txn, m: Marker, player: str, attacks: list[tuple[int, str]]) -> None:
    s = t.s
    seen: set[int] = set()
    actives = active_players(s, m.holder)
    for oid, defender in attacks:
        o = s.objects.get(oid)
        if o is None or o.zone != "battlefield" or o.controller not in actives:
            raise InvalidCommand("attacks", f"object {oid} is not a creature your "
                                            f"{'team controls' if len(actives) > 1 else 'control'}")
        allowed = attackable_players(s, o.controller)
        if oid in seen:
            raise RuleViolation("508.1a", f"{o.name} is declared as an attacker twice")
        seen.add(oid)
        if not can_attack(s, o):
            rule = "702.3b" if "defender" in keywords(s, o) else (
                "508.1c" if cant_attack_or_block(s, o) else "508.1a")
            raise RuleViolation(rule, f"{o.name} can't attack")
        if defender in allowed and moat_stops(s, o, defender):
            raise RuleViolation("508.1c", f"{o.name} can't attack {defender} (Teferi's Moat)")
        if defender not in allowed:
            if defender in s.players and not player_in_range(s, o.controller, defender):
                rule = "801.3"
            elif s.attack_adjacent_only and defender in opponents(s, o.controller):
                rule = "809.3c" if s.emperors else "811.4"
            elif s.attack_option in ("left", "right") and \
                    defender in opponents(s, o.controller):
                rule = "803.1a" if s.attack_option == "left" else "803.1b"
            else:
                rule = "508.1b"
            raise RuleViolation(rule, f"{o.name} can't attack {defender}")
    t.emit(ev.AttackersDeclared(marker=m.number, player=player, attacks=list(attacks),
                                rule="508.1"))
    for oid, _ in attacks:
        if "vigilance" not in keywords(s, s.objects[oid]):
            t.emit(ev.PermanentTapped(obj=oid, rule="508.1f"))


# ------------------------------------------------------------------ blockers (509)


def defending_players(s: GameState, m: Marker) -> list[str]:
    """Players attacked this combat, in turn order from the active player (APNAP)."""
    attacked = {d for _, d in (m.combat.attacks if m.combat else ())}
    return [p for p in turn_order_from(s, m.holder) if p in attacked]


def blocking_side(s: GameState, player: str) -> list[str]:
    """Who blocks together: the player, or the whole defending team (805.10d)."""
    if s.shared_team_turns:
        return [p for p in s.team_of(player) if not s.players[p].left]
    return [player]


def can_block(s: GameState, blocker: Obj, attacker: Obj, defender: str, m: Marker) -> bool:
    """CR 509.1a untapped; 802.4a only creatures attacking that player (805.10d: any
    player on the defending team); 702.9b flying; 509.1b restrictions (Pacifism)."""
    side = blocking_side(s, defender)
    if not is_creature(blocker) or blocker.tapped or blocker.controller not in side:
        return False
    if m.combat is None or m.combat.defender_of(attacker.id) not in side:
        return False
    if cant_attack_or_block(s, blocker):
        return False
    if "flying" in keywords(s, attacker):
        return bool({"flying", "reach"} & keywords(s, blocker))
    return True


def request_blockers(t: Txn, m: Marker) -> bool:
    """CR 509.1: each defending player declares blockers in APNAP order (802.4), or
    each defending team once (805.10d) - a decision."""
    s = t.s
    combat = m.combat
    assert combat is not None
    deciders = list(dict.fromkeys(blocking_side(s, d)[0] for d in defending_players(s, m)))
    for d in deciders:
        if d in combat.blockers_declared_by:
            continue
        side = blocking_side(s, d)
        attackers = [s.objects[a] for a, dd in combat.attacks if dd in side and a in s.objects]
        able = [b.id for b in s.permanents() if b.controller in side
                and any(can_block(s, b, a, d, m) for a in attackers)]
        if not able:
            t.emit(ev.BlockersDeclared(marker=m.number, player=d, blocks=[], rule="509.1"))
            continue
        t.emit(ev.DecisionRequested(marker=m.number, kind="declare_blockers", player=d,
                                    options=able,
                                    rule="805.10d" if s.shared_team_turns else "509.1a"))
        return True
    return False


def declare_blockers(t: Txn, m: Marker, player: str, blocks: list[tuple[int, int]]) -> None:
    s = t.s
    seen: set[int] = set()
    side = blocking_side(s, player)
    player = side[0] if side else player  # the team's combined block (805.10d)
    for bid, aid in blocks:
        b, a = s.objects.get(bid), s.objects.get(aid)
        if b is None or b.zone != "battlefield" or b.controller not in side:
            raise InvalidCommand("blocks", f"object {bid} is not a creature you control")
        if a is None or m.combat is None or aid not in m.combat.attacker_ids():
            raise InvalidCommand("blocks", f"object {aid} is not an attacking creature")
        if bid in seen:
            raise RuleViolation("509.1a", f"{b.name} can block only one attacker")
        seen.add(bid)
        if not can_block(s, b, a, player, m):
            if m.combat.defender_of(aid) not in side:
                rule = "805.10d" if s.shared_team_turns else "802.4a"
            elif "flying" in keywords(s, a) and not b.tapped:
                rule = "702.9b"
            elif cant_attack_or_block(s, b):
                rule = "509.1b"
            else:
                rule = "509.1a"
            raise RuleViolation(rule, f"{b.name} can't block {a.name}")
    _check_menace(s, blocks)
    t.emit(ev.BlockersDeclared(marker=m.number, player=player, blocks=list(blocks),
                               rule="509.1"))


def _check_menace(s: GameState, blocks: list[tuple[int, int]]) -> None:
    """CR 702.111b: a creature with menace can't be blocked except by two or more
    creatures. 802.4b: the legality of a defending player's blocks is judged on their own
    declaration alone - the creatures attacking them and the blockers they (or, with
    shared team turns, their team, 805.10d) control - ignoring creatures attacking other
    players and blockers controlled by other players."""
    count: dict[int, int] = defaultdict(int)
    for _, aid in blocks:
        count[aid] += 1
    for aid, n in count.items():
        if n == 1 and "menace" in keywords(s, s.objects[aid]):
            raise RuleViolation("702.111b", f"{s.objects[aid].name} can't be blocked except "
                                            "by two or more creatures")


# ------------------------------------------------------------------ damage (510)


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


def _live_blockers(s: GameState, m: Marker, attacker: int) -> list[int]:
    assert m.combat is not None
    return [b for b in m.combat.blockers_of(attacker) if b in s.objects
            and s.objects[b].zone == "battlefield"]


def needs_assignment(s: GameState, m: Marker, a: Obj) -> bool:
    """A real choice: two or more blockers (510.1c), or trample when blocked (702.19b)."""
    if power_toughness(s, a)[0] <= 0:
        return False
    blockers = _live_blockers(s, m, a.id)
    return len(blockers) >= 2 or (len(blockers) == 1 and "trample" in keywords(s, a))


def _attackers_now(s: GameState, m: Marker) -> list[Obj]:
    assert m.combat is not None
    return [s.objects[a] for a in m.combat.attacker_ids()
            if a in s.objects and s.objects[a].zone == "battlefield"
            and _deals_now(s, m, s.objects[a])]


def combat_damage(t: Txn, m: Marker, chosen: dict[int, dict[str, int]] | None = None) -> bool:
    """CR 510.1-510.2; with shared team turns the active team assigns (805.10f).
    Returns True when waiting for the active player's assignment."""
    s = t.s
    if m.combat is None:
        return False
    attackers = _attackers_now(s, m)
    choosing = [a.id for a in attackers if needs_assignment(s, m, a)]
    if choosing and chosen is None:
        # 805.10f: with shared team turns the active team (its primary player) assigns.
        who = team_representative(s, m.holder) if s.shared_team_turns else m.holder
        t.emit(ev.DecisionRequested(marker=m.number, kind="assign_combat_damage",
                                    player=who, options=choosing,
                                    rule="805.10f" if s.shared_team_turns else "510.1c"))
        return True
    amounts: dict[tuple[int, str], int] = defaultdict(int)
    for a in attackers:
        power = power_toughness(s, a)[0]
        if power <= 0:
            continue
        blockers = _live_blockers(s, m, a.id)
        defender = m.combat.defender_of(a.id)
        blocked = bool(m.combat.blockers_of(a.id))
        if a.id in choosing:
            assert chosen is not None
            for key, n in validate_assignment(s, m, a, chosen.get(a.id, {})).items():
                amounts[(a.id, key)] += n
        elif not blocked or (not blockers and "trample" in keywords(s, a)):
            # 510.1b, 702.19d: to the player it attacks (802.2a, 805.10e); not to a
            # player who has left (800.4e).
            if defender and not s.players[defender].left:
                amounts[(a.id, f"p:{defender}")] += power
        elif blockers:
            amounts[(a.id, f"o:{blockers[0]}")] += power
    for b_id, a_id in m.combat.blocks:
        b = s.objects.get(b_id)
        if b is None or b.zone != "battlefield" or not _deals_now(s, m, b):
            continue
        if a_id in s.objects and s.objects[a_id].zone == "battlefield":
            power = power_toughness(s, b)[0]
            if power > 0:
                amounts[(b_id, f"o:{a_id}")] += power
    _deal(t, m, amounts)
    if m.step == Step.FIRST_STRIKE_DAMAGE:
        dealt = [a.id for a in attackers] + [
            b for b, _ in m.combat.blocks
            if b in s.objects and _deals_now(s, m, s.objects[b])]
        t.emit(ev.FirstStrikeDamageDealt(marker=m.number, creatures=dealt, rule="510.4"))
    return False


def validate_assignment(s: GameState, m: Marker, a: Obj, split: dict[str, int]) -> dict[str, int]:
    """CR 510.1c / 510.1e: all of the power among the blockers; CR 702.19b trample: the
    excess to the player only once every blocker is assigned lethal damage (702.2c:
    any deathtouch damage is lethal)."""
    power = power_toughness(s, a)[0]
    blockers = _live_blockers(s, m, a.id)
    defender = m.combat.defender_of(a.id) if m.combat else None
    allowed = {f"o:{b}" for b in blockers}
    trample = "trample" in keywords(s, a)
    if trample and defender:
        allowed.add(f"p:{defender}")
    if any(n < 0 for n in split.values()) or sum(split.values()) != power:
        raise RuleViolation("510.1c", f"{a.name} must assign exactly its {power} damage")
    for key in split:
        if key not in allowed:
            raise RuleViolation("510.1c", f"{a.name} can't assign damage to {key}")
    if trample and split.get(f"p:{defender}", 0) > 0:
        deathtouch = "deathtouch" in keywords(s, a)
        for b in blockers:
            o = s.objects[b]
            lethal = 1 if deathtouch else max(0, power_toughness(s, o)[1] - o.damage)
            if split.get(f"o:{b}", 0) < lethal:
                raise RuleViolation("702.19b", f"{o.name} must be assigned lethal damage first")
    return {k: n for k, n in split.items() if n > 0}


def default_assignment(s: GameState, m: Marker, a: Obj) -> dict[str, int]:
    """A legal assignment: lethal damage to each blocker in order, the rest to the last
    blocker, or with trample to the defending player."""
    power = power_toughness(s, a)[0]
    blockers = _live_blockers(s, m, a.id)
    deathtouch = "deathtouch" in keywords(s, a)
    out: dict[str, int] = {}
    left = power
    for b in blockers:
        o = s.objects[b]
        lethal = 1 if deathtouch else max(0, power_toughness(s, o)[1] - o.damage)
        n = min(left, lethal)
        out[f"o:{b}"] = n
        left -= n
    if left:
        defender = m.combat.defender_of(a.id) if m.combat else None
        key = f"p:{defender}" if "trample" in keywords(s, a) and defender else f"o:{blockers[-1]}"
        out[key] = out.get(key, 0) + left
    return {k: n for k, n in out.items() if n > 0}


def _deal(t: Txn, m: Marker, amounts: dict[tuple[int, str], int]) -> None:
    """CR 510.2: all combat damage is dealt at once; Fog prevents it (615)."""
    s = t.s
    shields = [f for f in s.effects if f.kind == "prevent_combat_damage"]
    gained: dict[str, int] = defaultdict(int)
    for (src_id, key), n in amounts.items():
        src = s.objects[src_id]
        if any(_prevents(s, f.controller, src, key) for f in shields):
            continue
        kw = keywords(s, src)
        # Redirection shields (614.9) may send some of it elsewhere (801.13a: only
        # within the source's controller's range of influence).
        parts = ([(key, n)] if not redirect.shielded(s, key)
                 else [(to, k) for to, k, _ in redirect.split(t, key, n, src.controller)])
        for to, k in parts:
            if to.startswith("p:"):
                # 119.8, 810.9h: no life loss for a player whose life total can't change.
                t.emit(ev.DamageDealt(source=src_id, player=to[2:], amount=k, combat=True,
                                      life_loss=not life.cant_change(s, to[2:]),
                                      rule="510.2"))
            else:
                t.emit(ev.DamageDealt(source=src_id, obj=int(to[2:]), amount=k, combat=True,
                                      deathtouch="deathtouch" in kw, rule="510.2"))
            if "lifelink" in kw:
                gained[src.controller] += k
    for player, n in gained.items():
        life.gain(t, player, n, "702.15b")


def _prevents(s: GameState, controller: str | None, src: Obj, key: str) -> bool:
    """Fog's shield (615, a prevention effect, 801.13) covers damage only between
    sources and recipients within its controller's range of influence (801.13b)."""
    if controller is None or not s.influence:
        return True
    if not object_in_range(s, controller, src):
        return False
    if key.startswith("p:"):
        return player_in_range(s, controller, key[2:])
    target = s.objects.get(int(key[2:]))
    return target is not None and object_in_range(s, controller, target)


def pending_decision(s: GameState, m: Marker, kind: str, player: str) -> Decision:
    """The decision `player` must make; with shared team turns a teammate may answer
    for the team (805.2, 805.10b, 805.10d)."""
    p = m.pending
    ok = isinstance(p, Decision) and p.kind == kind and (
        p.player == player or (s.shared_team_turns and p.player in s.players
                               and s.players[p.player].team == s.players[player].team))
    if not ok:
        raise RuleViolation("117.1", f"{player} is not being asked to {kind.replace('_', ' ')}")
    assert isinstance(p, Decision)
    return p
