"""Planeswalkers (CR 306) and loyalty abilities (CR 606), each rule in one place:

- 306.5b: a planeswalker enters with loyalty counters equal to its printed loyalty
  (`enter_with_loyalty`, a replacement effect of 614.1c, so no event sees it without).
- 606.2-606.6: a loyalty ability is an activated ability whose cost puts on or removes
  loyalty counters (606.4, `pay_loyalty`); it is activated only when its controller
  could cast a sorcery, once per turn per permanent (606.3: `Marker.loyalty_used`), and a
  negative cost needs that many counters (606.6). `check_loyalty` raises for each.
- 120.3c: damage dealt to a planeswalker removes that many loyalty counters
  (`damage_removes_loyalty`). 704.5i (0 loyalty -> graveyard) is in sba.py.
- 506.2, 508.1b, 801.3, 802.3, 803.1a-b: a creature may attack a planeswalker
  controlled by a player it could attack (`attackable_planeswalkers`); an attack on a
  planeswalker is named by reference in the declaration, and the combat records the
  planeswalker's controller as the defending player (506.2) beside the planeswalker
  attacked (`Combat.planeswalkers`). Combat damage of an unblocked creature goes to the
  planeswalker it attacks (510.1b), none if it has left combat (506.4c).
"""

from __future__ import annotations

from arbiter_core.cards.model import ActivatedAbility, CardDefinition, EquipAbility
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.refs import ObjectRef, Ref, attacked, object_ref, player_ref
from arbiter_core.kernel.state import MAIN_STEPS, GameState, Marker, Obj, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import definition, is_type
from arbiter_core.multiplayer.seating import active_players
from arbiter_core.sba.conditions import object_sba
from arbiter_core.stack.resolve import AS_ENTERS

LOYALTY = "loyalty"


def is_planeswalker(o: Obj) -> bool:
    return is_type(o, "Planeswalker")


def enter_with_loyalty(t: Txn, m: Marker, item: StackItem, oid: int) -> bool:
    """CR 306.5b: a planeswalker enters with its printed loyalty in loyalty counters."""
    loyalty = definition(t.s.objects[oid]).loyalty
    if loyalty:
        t.emit(ev.CountersPut(obj=oid, counters={LOYALTY: loyalty}, rule="306.5b"))
    return False


def is_loyalty_ability(ab: ActivatedAbility | EquipAbility) -> bool:
    """CR 606.2: an activated ability with a loyalty symbol in its cost."""
    return isinstance(ab, ActivatedAbility) and ab.cost.loyalty is not None


def check_loyalty(s: GameState, m: Marker, player: str, o: Obj, ab: ActivatedAbility) -> None:
    """Raise unless `player` may activate this loyalty ability of `o` now: CR 606.3 (a
    main phase of their turn - 805.4a: their team's - with an empty stack, and no loyalty
    ability of `o` activated this turn) and 606.6 (enough counters for a negative
    cost)."""
    if player not in active_players(s, m.holder) or m.step not in MAIN_STEPS or m.stack:
        raise RuleViolation("606.3", "a loyalty ability is activated only in a main phase "
                                     "of your turn with an empty stack")
    if o.id in m.loyalty_used:
        raise RuleViolation("606.3", f"a loyalty ability of {o.name} was already "
                                     "activated this turn")
    cost = ab.cost.loyalty or 0
    if cost < 0 and o.counter(LOYALTY) < -cost:
        raise RuleViolation("606.6", f"{o.name} has {o.counter(LOYALTY)} loyalty, "
                                     f"fewer than the {-cost} this ability removes")


def can_activate(s: GameState, m: Marker, player: str, o: Obj, ab: ActivatedAbility) -> bool:
    try:
        check_loyalty(s, m, player, o, ab)
    except RuleViolation:
        return False
    return True


def pay_loyalty(t: Txn, o: Obj, ab: ActivatedAbility) -> None:
    """CR 606.4: the cost is putting on (+N) or removing (-N) loyalty counters."""
    n = ab.cost.loyalty or 0
    if n > 0:
        t.emit(ev.CountersPut(obj=o.id, counters={LOYALTY: n}, rule="606.4"))
    elif n < 0:
        t.emit(ev.CountersRemoved(obj=o.id, counters={LOYALTY: -n}, rule="606.4"))


def damage_removes_loyalty(t: Txn, oid: int, amount: int) -> None:
    """CR 120.3c: damage dealt to a planeswalker removes that many loyalty counters."""
    o = t.s.objects.get(oid)
    if o is None or amount <= 0 or not is_planeswalker(o):
        return
    n = min(amount, o.counter(LOYALTY))
    if n:
        t.emit(ev.CountersRemoved(obj=oid, counters={LOYALTY: n}, rule="120.3c"))


def attackable_planeswalkers(s: GameState, players: list[str]) -> list[str]:
    """CR 506.2, 508.1b, 802.3: the planeswalkers controlled by the players a creature
    may attack (`players`, already limited by range of influence, 801.3, and by attack
    left/right, 803.1a-b), as references (an attack names a planeswalker by reference,
    `refs.attacked`)."""
    allowed = set(players)
    return [object_ref(o.id) for o in s.permanents() if o.controller in allowed
            and is_planeswalker(o)]


def split_attacks(s: GameState, attacks: list[tuple[int, str]]
                  ) -> tuple[tuple[tuple[int, str], ...], tuple[tuple[int, int], ...]]:
    """A declaration's attacks as (attacker -> defending player) and (attacker ->
    planeswalker): the controller of an attacked planeswalker is that attacker's
    defending player (506.2, 802.2a)."""
    players: list[tuple[int, str]] = []
    walkers: list[tuple[int, int]] = []
    for a, d in attacks:
        o = attacked_object(s, d)
        if o is None:
            players.append((a, d))
        else:
            players.append((a, o.controller))
            walkers.append((a, o.id))
    return tuple(players), tuple(walkers)


def activated_loyalty(o: Obj, index: int) -> bool:
    """Whether ability `index` of `o` is a loyalty ability (606.2), for 606.3's count."""
    abilities = definition(o).abilities
    ab = abilities[index] if 0 <= index < len(abilities) else None
    return isinstance(ab, ActivatedAbility) and ab.cost.loyalty is not None


def attacked_object(s: GameState, defender: str) -> Obj | None:
    """The planeswalker an attack names (`refs.attacked`), if it is one on the
    battlefield."""
    named = attacked(defender)
    if not isinstance(named, ObjectRef):
        return None
    o = s.objects.get(named.obj)
    if o is None or o.zone != "battlefield" or not is_planeswalker(o):
        return None
    return o


def planeswalker_attacked_by(s: GameState, m: Marker, attacker: int) -> Obj | None:
    """The planeswalker `attacker` attacks, while it is still in combat: on the
    battlefield, a planeswalker, under the same control (506.4, 506.4c)."""
    if m.combat is None:
        return None
    for a, pw in m.combat.planeswalkers:
        if a == attacker:
            o = s.objects.get(pw)
            ok = o is not None and o.zone == "battlefield" and is_planeswalker(o) \
                and o.controller == m.combat.defender_of(attacker)
            return o if ok else None
    return None


def attacks_a_planeswalker(m: Marker, attacker: int) -> bool:
    return m.combat is not None and any(a == attacker for a, _ in m.combat.planeswalkers)


def attack_recipient(s: GameState, m: Marker, attacker: int) -> Ref | None:
    """Where an attacking creature's combat damage goes when it is unblocked or tramples
    over (510.1b, 702.19b, 702.19d): the planeswalker it attacks - nowhere if that
    planeswalker has left combat (506.4c) - else the player it attacks (802.2a,
    805.10e)."""
    if attacks_a_planeswalker(m, attacker):
        o = planeswalker_attacked_by(s, m, attacker)
        return object_ref(o.id) if o is not None else None
    defender = m.combat.defender_of(attacker) if m.combat is not None else None
    return player_ref(defender) if defender else None


AS_ENTERS.add("all", enter_with_loyalty, order=10)  # a replacement effect (614.1c)


@object_sba(order=10)
def _no_loyalty(s: GameState, o: Obj, d: CardDefinition) -> tuple[str, str] | None:
    """704.5i: a planeswalker with 0 loyalty goes to its owner's graveyard (306.5c)."""
    if "Planeswalker" in d.types and o.counter(LOYALTY) <= 0:
        return ("graveyard", "704.5i")
    return None
