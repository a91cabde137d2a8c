"""Combat (CR 506-509): declaring attackers and blockers, with the keyword rules that
change them: flying and reach (702.9, 702.17), defender (702.3), haste and summoning
sickness (702.10, 302.6), vigilance (702.20), menace (702.111); attacking bands
(banding.py, 702.22); restrictions and requirements on the whole declaration
(requirements.py, 508.1c-d, 509.1b). Combat damage is combat_damage.py (510).
Attack options: attack multiple players (802), attack left and right (803.1). A creature
may attack a planeswalker its controller's attackable players control (planeswalkers.py).
Teams with shared team turns (805.10, which 810.7 uses for Two-Headed Giant): the active
team is the attacking team and each of its players an attacking player, the other team
defending (805.10a); one combined attack in which each creature attacks a chosen
defending player (805.10b), one combined block (805.10d), damage assigned by the active
team first (805.10f). For an attacking creature, "the defending player" is the player it
attacks (802.2a, 805.10e): `Combat.defender_of`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace

from arbiter_core.card_types import planeswalkers
from arbiter_core.cards.model import CantAttackYouIfChosenColorWithoutFlying, StaticAbility
from arbiter_core.combat import banding, requirements
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.edits import set_marker
from arbiter_core.kernel.errors import InvalidCommand, RuleViolation
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains, objs
from arbiter_core.kernel.registry import Hooks
from arbiter_core.kernel.state import Combat, GameState, Marker, Obj
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import (
    cant_attack_or_block,
    definition,
    is_creature,
    keywords,
)
from arbiter_core.multiplayer.influence import player_in_range
from arbiter_core.multiplayer.seating import active_players, opponents, turn_order_from
from arbiter_core.stack.items import static_effect

static_effect(CantAttackYouIfChosenColorWithoutFlying)  # a restriction: `moat_stops`

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
    applies only to attacks on that player (802.3a, 805.10b); then the planeswalkers
    those players control, as "o:<id>" (506.2, 508.1b, 801.3, 802.3, 803.1a-b)."""
    players = attackable_players(s, o.controller)
    return [p for p in players if not moat_stops(s, o, p)] + \
        planeswalkers.attackable_planeswalkers(s, players)


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


def could_attack(s: GameState, m: Marker) -> list[Obj]:
    """The creatures of the active player (805.10b: the active team) that can attack
    some player, judged creature by creature (508.1a, 508.1c)."""
    actives = active_players(s, m.holder)
    return [o for o in s.permanents() if o.controller in actives and can_attack(s, o)
            and targets_for(s, o)]


def request_attackers(t: Txn, m: Marker) -> bool:
    """CR 508.1: the active player declares attackers (a decision). With no creature
    able to attack, the empty declaration is the only legal one and is made at once."""
    s = t.s
    ap = m.holder
    actives = active_players(s, ap)  # 805.10b: the active team declares one attack
    able = [o.id for o in could_attack(s, m)]
    if not able:
        t.emit(ev.AttackersDeclared(marker=m.number, player=ap, attacks=[], rule="508.1"))
        return False
    t.emit(ev.DecisionRequested(marker=m.number, kind="declare_attackers",
                                player=actives[0], options=able,
                                rule="805.10b" if s.shared_team_turns else "508.1a"))
    return True


def declare_attackers(t: Txn, m: Marker, player: str, attacks: list[tuple[int, str]],
                      bands: list[list[int]] | None = None) -> None:
    """CR 508.1a-e (802.3, 805.10b): check the declaration, then the attackers become
    tapped (508.1f)."""
    s = t.s
    bands = bands or []
    check_attack(s, m, attacks, bands)
    t.emit(ev.AttackersDeclared(marker=m.number, player=player, attacks=list(attacks),
                                bands=[list(b) for b in bands], rule="508.1"))
    for oid, _ in attacks:
        if "vigilance" not in keywords(s, s.objects[oid]):
            t.emit(ev.PermanentTapped(obj=oid, rule="508.1f"))


def check_attack(s: GameState, m: Marker, attacks: list[tuple[int, str]],
                 bands: list[list[int]]) -> None:
    """Raise if the declaration is illegal: each creature on its own (508.1a-c), the
    whole attack's restrictions and requirements (508.1c-d), its bands (702.22c-d)."""
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
        walker = planeswalkers.attacked_object(s, defender)
        if walker is not None:  # 508.1b: a planeswalker an attackable player controls
            defender = walker.controller
        elif defender not in s.players:
            raise RuleViolation("506.3", f"only a player or a planeswalker can be attacked, "
                                         f"not {defender}")
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
    requirements.check_attack(s, m.holder, [s.objects[oid] for oid, _ in attacks],
                              could_attack(s, m))
    banding.check_bands(s, attacks, bands)


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


#: rules that forbid a creature to block (509.1b) from outside the card model (901.7: a
#: face-up plane's "Creatures can't block"): (state, blocker) -> True when it can't
CANT_BLOCK: Hooks[str, Callable[[GameState, Obj], bool]] = Hooks("can't-block restriction")


#: evasion abilities of an attacker (702.9b flying is here; fear, 702.36b, in its keyword
#: module): (state, attacker, blocker) -> the rule that forbids the block, or None
EVASION: Hooks[str, Callable[[GameState, Obj, Obj], str | None]] = Hooks("evasion")


def evasion(s: GameState, attacker: Obj, blocker: Obj) -> str | None:
    """The rule of an evasion ability that keeps `blocker` from blocking `attacker`."""
    return next((r for rule in EVASION["all"] if (r := rule(s, attacker, blocker))), None)


def _restricted(s: GameState, blocker: Obj) -> bool:
    return cant_attack_or_block(s, blocker) or any(
        rule(s, blocker) for rule in CANT_BLOCK["all"])


def can_block(s: GameState, blocker: Obj, attacker: Obj, defender: str, m: Marker) -> bool:
    """CR 509.1a untapped; 802.4a only creatures attacking that player (805.10d: any
    player on the defending team); 702.9b flying; 509.1b restrictions (Pacifism)."""
    side = blocking_side(s, defender)
    if not is_creature(blocker) or blocker.tapped or blocker.controller not in side:
        return False
    if m.combat is None or m.combat.defender_of(attacker.id) not in side:
        return False
    if _restricted(s, blocker):
        return False
    if "flying" in keywords(s, attacker):
        return bool({"flying", "reach"} & keywords(s, blocker))
    return evasion(s, attacker, blocker) is None


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
            elif _restricted(s, b):
                rule = "509.1b"
            elif not b.tapped and evasion(s, a, b):
                rule = evasion(s, a, b) or "509.1b"
            else:
                rule = "509.1a"
            raise RuleViolation(rule, f"{b.name} can't block {a.name}")
    _check_menace(s, blocks)
    requirements.check_blocks(s, player, len(blocks))
    t.emit(ev.BlockersDeclared(marker=m.number, player=player, blocks=list(blocks),
                               rule="509.1"))
    assert m.combat is not None
    added = banding.band_blocks(s, m.combat, blocks)
    if added:  # 702.22h: a band is blocked as a whole
        t.emit(ev.BandBlocked(marker=m.number, blocks=added, rule="702.22h"))


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


@applies(ev.AttackersDeclared)
def _attackers_declared(s: GameState, e: ev.AttackersDeclared) -> None:
    ma = s.markers[e.marker]
    attacks, walkers = planeswalkers.split_attacks(s, list(e.attacks))  # 506.2, 508.1b
    set_marker(s, e.marker, combat=Combat(attacks=attacks, planeswalkers=walkers,
                                          bands=tuple(tuple(b) for b in e.bands)),
               attacked=(*ma.attacked, *(a for a, _ in e.attacks)))


@applies(ev.BlockersDeclared)
def _blockers_declared(s: GameState, e: ev.BlockersDeclared) -> None:
    cb = s.markers[e.marker].combat or Combat()
    set_marker(s, e.marker, combat=replace(
        cb, blocks=(*cb.blocks, *e.blocks),
        blockers_declared_by=(*cb.blockers_declared_by, e.player)))


@applies(ev.CombatEnded)
def _combat_ended(s: GameState, e: ev.CombatEnded) -> None:
    set_marker(s, e.marker, combat=None)


@explains(ev.AttackersDeclared)
def _explain_attackers_declared(before: GameState, e: ev.AttackersDeclared, name: Namer) -> str:
    if not e.attacks:
        return f"{e.player} declares no attackers"
    bands = "".join(f"; band: {objs(name, b)}" for b in e.bands)
    return (f"{e.player} attacks: " + ", ".join(f"{name(a)} -> {d}" for a, d in e.attacks)
            + bands)


@explains(ev.BlockersDeclared)
def _explain_blockers_declared(before: GameState, e: ev.BlockersDeclared, name: Namer) -> str:
    if not e.blocks:
        return f"{e.player} declares no blockers"
    return f"{e.player} blocks: " + ", ".join(f"{name(b)} blocks {name(a)}"
                                               for b, a in e.blocks)


@explains(ev.CombatEnded)
def _explain_combat_ended(before: GameState, e: ev.CombatEnded, name: Namer) -> str:
    return "combat ends"
