"""Life (CR 119) and the Two-Headed Giant life rules (CR 810.9).

With a shared life total (2HG) each change happens to a player and applies to the team's
total (810.9); a player's own life total, when an effect asks for it, is the team's
(810.9a). The state keeps every member's `life` equal to the team total (evolve.py).
"""

from __future__ import annotations

import functools

from arbiter_core.cards import get_card
from arbiter_core.cards.model import (
    CantGetPoison,
    LifeCantChange,
    NoMinusCountersOnYourCreatures,
    StaticAbility,
)
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.edits import change_life, set_player
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import GameState
from arbiter_core.kernel.txn import Txn


@functools.cache
def _has_static(name: str, kind: type) -> bool:
    return any(isinstance(ab, StaticAbility) and any(isinstance(e, kind) for e in ab.effects)
               for ab in get_card(name).abilities)


def _held(s: GameState, player: str, kind: type) -> bool:
    """A permanent with this static effect is controlled by the player - or, in
    Two-Headed Giant, by anyone on their team (810.9g-h, 810.10c)."""
    side = s.team_of(player) if s.shared_life else [player]
    return any(o.controller in side for oid in s.battlefield
               if (o := s.objects[oid]).token is None and not o.face_down
               and _has_static(o.name, kind))


def cant_change(s: GameState, player: str) -> bool:
    """"Your life total can't change" (Platinum Emperion): the player can't gain life
    (119.7) or lose life (119.8). In Two-Headed Giant no player of that player's team
    can (810.9g, 810.9h)."""
    return _held(s, player, LifeCantChange)


def cant_get_poison(s: GameState, player: str) -> bool:
    """"You can't get poison counters" (Melira); 810.10c: in Two-Headed Giant no player
    on that player's team can."""
    return _held(s, player, CantGetPoison)


def no_minus_counters(s: GameState, controller: str) -> bool:
    """"Creatures you control can't have -1/-1 counters put on them" (Melira)."""
    return any(o.controller == controller for oid in s.battlefield
               if (o := s.objects[oid]).token is None
               and _has_static(o.name, NoMinusCountersOnYourCreatures))


def gain(t: Txn, player: str, amount: int, rule: str) -> None:
    if amount > 0 and not t.s.players[player].left and not cant_change(t.s, player):
        t.emit(ev.LifeGained(player=player, amount=amount, rule=rule))


def lose(t: Txn, player: str, amount: int, rule: str) -> None:
    if amount > 0 and not t.s.players[player].left and not cant_change(t.s, player):
        t.emit(ev.LifeLost(player=player, amount=amount, rule=rule))


def can_pay(s: GameState, player: str, amount: int) -> str | None:
    """None if the player can pay `amount` life, else the rule that forbids it: 119.4b
    anyone can pay 0; 119.8 a player who can't lose life can't pay more (810.9h: nor can
    a teammate of such a player in Two-Headed Giant)."""
    if amount <= 0 or not cant_change(s, player):
        return None
    return "810.9h" if s.shared_life else "119.8"


def set_total(t: Txn, player: str, total: int) -> None:
    """The player's life total becomes `total`: they gain or lose the difference
    (CR 119.5). In Two-Headed Giant the player's total is the team's (810.9a) and the
    team's total changes by what that player gains or loses (810.9c)."""
    delta = total - t.s.players[player].life
    rule = "810.9c" if t.s.shared_life else "119.5"
    if delta > 0:
        gain(t, player, delta, rule)
    elif delta < 0:
        lose(t, player, -delta, rule)


def exchange(t: Txn, a: str, b: str) -> None:
    """Two players exchange life totals: each gains or loses the amount needed to equal
    the other's previous total (701.12c). If the whole exchange can't be done, none of it
    is (701.12a): a player whose life can't change blocks it. In Two-Headed Giant a
    player can't exchange life totals with a teammate (810.9e)."""
    s = t.s
    if a == b or s.players[a].left or s.players[b].left:
        return
    if s.shared_life and s.players[a].team == s.players[b].team:
        return  # 810.9e: the exchange won't happen
    life_a, life_b = s.players[a].life, s.players[b].life
    if life_a != life_b and (cant_change(s, a) or cant_change(s, b)):
        return  # 701.12a
    rule = "810.9e" if s.shared_life else "701.12c"
    for who, delta in ((a, life_b - life_a), (b, life_a - life_b)):
        if delta > 0:
            t.emit(ev.LifeGained(player=who, amount=delta, rule=rule))
        elif delta < 0:
            t.emit(ev.LifeLost(player=who, amount=-delta, rule=rule))


def give_poison(t: Txn, player: str, amount: int) -> None:
    """The player gets poison counters (122.1f); in Two-Headed Giant they are the
    team's (810.10)."""
    if amount > 0 and not t.s.players[player].left and not cant_get_poison(t.s, player):
        t.emit(ev.PoisonCountersChanged(player=player, amount=amount,
                                        rule="810.10" if t.s.shared_poison else "122.1f"))


def lose_all_poison(t: Txn, player: str) -> int:
    """The player loses all poison counters and the number lost is returned: in
    Two-Headed Giant the team's (810.10a: how many a player has is the team's count;
    810.10b: the team loses them)."""
    n = t.s.players[player].poison
    if n > 0 and not t.s.players[player].left:
        t.emit(ev.PoisonCountersChanged(player=player, amount=-n,
                                        rule="810.10b" if t.s.shared_poison else "122.1f"))
        return n
    return 0


def half_rounded_up(t: Txn, player: str) -> int:
    """"Half your life, rounded up" (CR 107.1a), of the team's total in 2HG (810.9a)."""
    life = t.s.players[player].life
    return (life + 1) // 2 if life > 0 else 0


@applies(ev.LifeGained)
def _life_gained(s: GameState, e: ev.LifeGained) -> None:
    change_life(s, e.player, e.amount)


@applies(ev.LifeLost)
def _life_lost(s: GameState, e: ev.LifeLost) -> None:
    change_life(s, e.player, -e.amount)


@applies(ev.PoisonCountersChanged)
def _poison(s: GameState, e: ev.PoisonCountersChanged) -> None:
    # 810.10: in Two-Headed Giant poison counters are the team's.
    for who in s.team_of(e.player) if s.shared_poison else [e.player]:
        set_player(s, who, poison=max(0, s.players[who].poison + e.amount))


@explains(ev.LifeGained)
def _explain_life_gained(before: GameState, e: ev.LifeGained, name: Namer) -> str:
    return f"{e.player} gains {e.amount} life"


@explains(ev.LifeLost)
def _explain_life_lost(before: GameState, e: ev.LifeLost, name: Namer) -> str:
    return f"{e.player} loses {e.amount} life"


@explains(ev.PoisonCountersChanged)
def _explain_poison(before: GameState, e: ev.PoisonCountersChanged, name: Namer) -> str:
    if e.amount < 0:
        return f"{e.player} loses {-e.amount} poison counters"
    return f"{e.player} gets {e.amount} poison counters"
