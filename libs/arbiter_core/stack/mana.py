"""Mana costs, mana abilities and paying costs (CR 106, 107.4, 118, 601.2f-h, 605).

Payment is automatic from the pool and untapped mana sources unless the player names the
sources. Each mana ability activated on the way is recorded (tap, then mana added), so the
log shows exactly how a cost was paid.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import product

from arbiter_core.cards.model import ActivatedAbility, AddMana, CardDefinition
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseOption, PlayerCommand
from arbiter_core.kernel.decisions import decision
from arbiter_core.kernel.edits import set_player
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.registry import Hooks
from arbiter_core.kernel.state import Decision, GameState, Marker, Obj, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import definition, is_creature, keywords
from arbiter_core.stack.items import Legal, effect
from arbiter_core.stack.priority import queue_priority

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
    d = definition(o)
    hit = _MANA_ABILITY.get(id(d))  # asked of every permanent at each payment plan
    if hit is not None and hit[0] is d:
        return hit[1]
    found = _mana_ability_of(d)
    if len(_MANA_ABILITY) >= 10_000:
        _MANA_ABILITY.clear()
    _MANA_ABILITY[id(d)] = (d, found)  # kept by identity: the entry holds `d` alive
    return found


def _mana_ability_of(d: CardDefinition) -> tuple[int, str] | None:
    for i, ab in enumerate(d.abilities):
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


_MANA_ABILITY: dict[int, tuple[CardDefinition, tuple[int, str] | None]] = {}


#: mana abilities that add one mana of a color chosen as they resolve (605.3b), by their
#: effect model: the colors the source can make now ("": none, e.g. 903.4f)
MANA_OF_A_COLOR: Hooks[type, Callable[[GameState, Obj], str]] = Hooks(
    "mana of a color chosen")
_MAX_CHOOSING = 4  # sources of a chosen color tried at once in a plan


def mana_of_a_color(s: GameState, o: Obj) -> tuple[int, str] | None:
    """The object's mana ability that adds one mana of a color chosen as it resolves
    (Command Tower), as (ability index, the colors it can make now)."""
    d = definition(o)
    hit = _TAP_FOR_ONE.get(id(d))
    if hit is None or hit[0] is not d:
        hit = (d, tuple((i, type(ab.effects[0])) for i, ab in enumerate(d.abilities)
                        if isinstance(ab, ActivatedAbility) and ab.cost.tap
                        and not ab.cost.mana and not ab.targets and len(ab.effects) == 1))
        if len(_TAP_FOR_ONE) >= 10_000:
            _TAP_FOR_ONE.clear()
        _TAP_FOR_ONE[id(d)] = hit
    for i, kind in hit[1]:
        hooks = MANA_OF_A_COLOR[kind]
        if hooks:
            return i, hooks[0](s, o)
    return None


#: each definition's {T} abilities with one effect (the candidates of `mana_of_a_color`),
#: kept by identity as `_MANA_ABILITY` is
_TAP_FOR_ONE: dict[int, tuple[CardDefinition, tuple[tuple[int, type], ...]]] = {}


def choice_sources(s: GameState, player: str) -> list[tuple[Obj, str]]:
    """The player's untapped sources of one mana of a chosen color, with their colors."""
    out = []
    for o in s.permanents(player):
        found = mana_of_a_color(s, o)
        if found is not None and found[1] and can_tap_for_cost(s, o):
            out.append((o, found[1]))
    return out


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


def _plan_choosing(pool: str, sources: list[tuple[Obj, str]],
                   choosing: list[tuple[Obj, str]], cost: ManaCost
                   ) -> list[tuple[Obj, str]] | None:
    """A plan (each source with the mana it makes) using sources of a chosen color too:
    each color of each is tried (the color chosen as the ability resolves, 605.3b)."""
    fixed = {o.id: mana for o, mana in sources}
    for colors in product(*(c for _, c in choosing[:_MAX_CHOOSING])):
        extra = [(o, c) for (o, _), c in zip(choosing, colors, strict=False)]
        plan = _plan(pool, [*sources, *extra], cost)
        if plan is not None:
            made = {**fixed, **{o.id: c for o, c in extra}}
            return [(o, made[o.id]) for o in plan]
    return None


def _full_plan(s: GameState, player: str, cost: ManaCost) -> list[tuple[Obj, str]] | None:
    pool, sources = s.players[player].mana, untapped_sources(s, player)
    plan = _plan(pool, sources, cost)
    if plan is not None:
        fixed = {o.id: mana for o, mana in sources}
        return [(o, fixed[o.id]) for o in plan]
    choosing = choice_sources(s, player)
    return _plan_choosing(pool, sources, choosing, cost) if choosing else None


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
    return _full_plan(s, player, cost) is not None


def pay(t: Txn, player: str, cost: ManaCost, named: list[int] | None) -> None:
    """Activate mana abilities (CR 601.2g) and pay the cost (CR 601.2h). Raises
    RuleViolation, before any event is made, if it can't be paid."""
    s = t.s
    plan = _full_plan(s, player, cost) if named is None else _named_plan(s, player, cost,
                                                                         named)
    if plan is None:
        raise RuleViolation("601.2h", "not enough mana to pay the total cost")
    for o, mana in plan:
        activate_mana_ability(t, player, o, mana)
    if cost.total:
        t.emit(ev.ManaSpent(player=player, mana=_spend(s.players[player].mana, cost),
                            rule="601.2h"))


def _named_plan(s: GameState, player: str, cost: ManaCost, named: list[int]
                ) -> list[tuple[Obj, str]]:
    """The sources the player named, each with the mana it makes (a source of a chosen
    color makes the one the cost needs). Raises RuleViolation if they can't pay."""
    fixed: list[tuple[Obj, str]] = []
    choosing: list[tuple[Obj, str]] = []
    for oid in named:
        o = s.objects.get(oid)
        ability = mana_ability(o) if o is not None else None
        one_of = mana_of_a_color(s, o) if o is not None and ability is None else None
        if o is None or o.controller != player or (ability is None and one_of is None):
            raise RuleViolation("605.1a", f"object {oid} is not your mana source")
        if not can_tap_for_cost(s, o):
            raise RuleViolation("302.6", f"{o.name} can't be tapped for mana now")
        if ability is not None:
            fixed.append((o, ability[1]))
        else:
            assert one_of is not None
            choosing.append((o, one_of[1]))
    pool = s.players[player].mana + "".join(mana for _, mana in fixed)
    made = _plan_choosing(pool, [], [c for c in choosing if c[1]], cost)
    if made is None:
        raise RuleViolation("601.2h", "the named sources don't make enough mana")
    chosen = {o.id: mana for o, mana in made}
    return [*fixed, *((o, chosen.get(o.id, colors[:1])) for o, colors in choosing)]


def activate_mana_ability(t: Txn, player: str, o: Obj, mana: str | None = None,
                          marker: int | None = None) -> None:
    """A mana ability resolves at once, without the stack (CR 605.3b). `mana`: what a
    payment needs of it; a source of one mana of a chosen color activated on its own
    asks its controller for the color (`choose_mana_color`), if it can make two or more."""
    t.emit(ev.PermanentTapped(obj=o.id, rule="602.2b"))
    if mana is None:
        ability = mana_ability(o)
        if ability is None:
            one_of = mana_of_a_color(t.s, o)
            assert one_of is not None
            if len(one_of[1]) > 1:
                assert marker is not None, "a color to choose needs the player's marker"
                t.emit(ev.DecisionRequested(marker=marker, kind="choose_mana_color",
                                            player=player, options=[o.id], count=1,
                                            choices=list(one_of[1]), rule="605.3b"))
                return
            mana = one_of[1]
        else:
            mana = ability[1]
    if mana:
        t.emit(ev.ManaAdded(player=player, mana=mana, source=o.id, rule="605.3b"))


def _colors(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    return [ChooseOption(player=d.player, option=c, marker=m.number) for c in d.choices]


@decision("choose_mana_color", ChooseOption, _colors)
def _color_chosen(t: Txn, m: Marker, d: Decision, cmd: ChooseOption) -> None:
    """605.3b: the color of the mana, chosen as the ability resolves; then the player
    has priority again."""
    if cmd.option not in d.choices:
        raise RuleViolation("605.3b", f"{cmd.option!r} is not one of {list(d.choices)}")
    t.emit(ev.ManaAdded(player=d.player, mana=cmd.option, source=d.options[0],
                        rule="605.3b"))
    queue_priority(t, m.number, d.player)


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
