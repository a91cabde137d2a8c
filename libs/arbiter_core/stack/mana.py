"""Mana costs, mana abilities and paying costs (CR 106, 107.4, 118, 601.2f-h, 605).

Payment is automatic from the pool and untapped mana sources unless the player names the
sources. Each mana ability activated on the way is recorded (tap, then mana added), so the
log shows exactly how a cost was paid.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from arbiter_core.cards.model import ActivatedAbility, AddMana
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.edits import set_player
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import GameState, Marker, Obj, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import definition, is_creature, keywords
from arbiter_core.stack.items import Legal, effect

COLORS = "WUBRG"
_SYMBOL = re.compile(r"\{([^}]+)\}")


@dataclass(frozen=True, slots=True)
class ManaCost:
    """A parsed cost (CR 107.4): generic amount, colored symbols, number of {X}."""

    generic: int = 0
    colored: str = ""  # e.g. "RR", "C" for {C}
    x: int = 0

    def plus_generic(self, n: int) -> ManaCost:
        return ManaCost(self.generic + n, self.colored, self.x)

    @property
    def total(self) -> int:
        return self.generic + len(self.colored)


def parse_cost(text: str) -> ManaCost:
    generic, colored, x = 0, "", 0
    for sym in _SYMBOL.findall(text):
        if sym.isdigit():
            generic += int(sym)
        elif sym == "X":
            x += 1
        elif sym in COLORS or sym == "C":
            colored += sym
        else:
            raise ValueError(f"unsupported mana symbol {{{sym}}}")
    return ManaCost(generic, colored, x)


def mana_ability(o: Obj) -> tuple[int, str] | None:
    """The object's mana ability (CR 605.1a) as (ability index, mana produced)."""
    for i, ab in enumerate(definition(o).abilities):
        if (
            isinstance(ab, ActivatedAbility)
            and ab.cost.tap
            and not ab.cost.mana
            and not ab.targets
            and len(ab.effects) == 1
            and isinstance(ab.effects[0], AddMana)
        ):
            return i, ab.effects[0].mana
    return None


def can_tap_for_cost(s: GameState, o: Obj) -> bool:
    """A {T} cost needs an untapped permanent, and a creature must have been under its
    controller's control continuously since their most recent turn began (CR 302.6)."""
    if o.zone != "battlefield" or o.tapped:
        return False
    return not (is_creature(o) and o.sick and "haste" not in keywords(s, o))


def untapped_sources(s: GameState, player: str) -> list[tuple[Obj, str]]:
    out = []
    for o in s.permanents(player):
        ability = mana_ability(o)
        if ability is not None and can_tap_for_cost(s, o):
            out.append((o, ability[1]))
    return out


def _plan(pool: str, sources: list[tuple[Obj, str]], cost: ManaCost) -> list[Obj] | None:
    """Choose sources to tap so that pool + their mana covers `cost`; None if impossible.
    Every source here makes one kind of mana, so colored-first greedy is exact."""
    avail = list(pool)
    use: list[Obj] = []
    rest = list(sources)
    for sym in cost.colored:
        if sym in avail:
            avail.remove(sym)
            continue
        pick = next((p for p in rest if sym in p[1]), None)
        if pick is None:
            return None
        rest.remove(pick)
        use.append(pick[0])
        avail.extend(pick[1])
        avail.remove(sym)
    need = cost.generic - len(avail)
    rest.sort(key=lambda p: (0 if p[1][0] == "C" else 1, -len(p[1]), p[0].id))
    while need > 0:
        if not rest:
            return None
        o, mana = rest.pop(0)
        use.append(o)
        need -= len(mana)
    return use


def _spend(pool: str, cost: ManaCost) -> str:
    """The exact symbols spent: colored first, then generic, colorless before colors."""
    left = list(pool)
    spent = []
    for sym in cost.colored:
        left.remove(sym)
        spent.append(sym)
    order = sorted(left, key=lambda c: ("C" + COLORS).index(c))
    spent.extend(order[: cost.generic])
    return "".join(spent)


def can_pay(s: GameState, player: str, cost: ManaCost) -> bool:
    return _plan(s.players[player].mana, untapped_sources(s, player), cost) is not None


def pay(t: Txn, player: str, cost: ManaCost, named: list[int] | None) -> None:
    """Activate mana abilities (CR 601.2g) and pay the cost (CR 601.2h). Raises
    RuleViolation, before any event is made, if it can't be paid."""
    s = t.s
    if named is None:
        plan = _plan(s.players[player].mana, untapped_sources(s, player), cost)
        if plan is None:
            raise RuleViolation("601.2h", "not enough mana to pay the total cost")
    else:
        plan = []
        for oid in named:
            o = s.objects.get(oid)
            if o is None or o.controller != player or mana_ability(o) is None:
                raise RuleViolation("605.1a", f"object {oid} is not your mana source")
            if not can_tap_for_cost(s, o):
                raise RuleViolation("302.6", f"{o.name} can't be tapped for mana now")
            plan.append(o)
        pool = s.players[player].mana + "".join(mana_ability(o)[1] for o in plan)  # type: ignore[index]
        if _plan(pool, [], cost) is None:
            raise RuleViolation("601.2h", "the named sources don't make enough mana")
    for o in plan:
        activate_mana_ability(t, player, o)
    if cost.total:
        t.emit(ev.ManaSpent(player=player, mana=_spend(s.players[player].mana, cost),
                            rule="601.2h"))


def activate_mana_ability(t: Txn, player: str, o: Obj) -> None:
    """A mana ability resolves at once, without the stack (CR 605.3b)."""
    ability = mana_ability(o)
    assert ability is not None
    t.emit(ev.PermanentTapped(obj=o.id, rule="602.2b"))
    t.emit(ev.ManaAdded(player=player, mana=ability[1], source=o.id, rule="605.3b"))


@applies(ev.ManaAdded)
def _mana_added(s: GameState, e: ev.ManaAdded) -> None:
    set_player(s, e.player, mana=s.players[e.player].mana + e.mana)


@applies(ev.ManaSpent)
def _mana_spent(s: GameState, e: ev.ManaSpent) -> None:
    pool = s.players[e.player].mana
    for sym in e.mana:
        pool = pool.replace(sym, "", 1)
    set_player(s, e.player, mana=pool)


@applies(ev.ManaEmptied)
def _mana_emptied(s: GameState, e: ev.ManaEmptied) -> None:
    for who in e.players:  # 500.4
        set_player(s, who, mana="")


@effect(AddMana)
def _add_mana(t: Txn, m: Marker, item: StackItem, eff: AddMana, legal: Legal,
              index: int) -> bool:
    t.emit(ev.ManaAdded(player=item.controller, mana=eff.mana, rule="106.3"))
    return False


@explains(ev.ManaAdded)
def _explain_mana_added(before: GameState, e: ev.ManaAdded, name: Namer) -> str:
    src = f" from {name(e.source)}" if e.source is not None else ""
    return f"{e.player} adds {e.mana}{src}"


@explains(ev.ManaSpent)
def _explain_mana_spent(before: GameState, e: ev.ManaSpent, name: Namer) -> str:
    return f"{e.player} spends {e.mana}"


@explains(ev.ManaEmptied)
def _explain_mana_emptied(before: GameState, e: ev.ManaEmptied, name: Namer) -> str:
    return f"mana empties from the pools of {', '.join(e.players)}"
