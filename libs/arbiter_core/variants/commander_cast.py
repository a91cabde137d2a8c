"""Casting a commander from the command zone (CR 903.8).

A player may cast a commander they own from the command zone (a zone `stack.casting`
lets a card be cast from through `CAST_FROM`), with the usual timing (117.1a) and
targets. It costs an additional {2} for each previous time that player cast it from the
command zone this game: the "commander tax", counted per commander card
(`CommanderState.casts`), recorded by `CommanderCastFromCommandZone` as it is cast.
Listed among a player's priority actions beside the hand's spells.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.actions import priority_actions
from arbiter_core.kernel.commands import CastSpell, PlayerCommand
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import GameState, Marker, Obj
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import definition
from arbiter_core.stack.casting import CAST_FROM, sorcery_timing_ok, spell_cost
from arbiter_core.stack.items import spell_targets
from arbiter_core.stack.mana import can_pay
from arbiter_core.stack.playable import target_choices
from arbiter_core.variants.commander import commander_owner

TAX = 2  # 903.8: {2} for each previous cast from the command zone


class CommanderCastFromCommandZone(ev.EventBase):
    """`player` casts their commander `obj` from the command zone, paying `tax` more
    (903.8)."""

    type: Literal["CommanderCastFromCommandZone"] = "CommanderCastFromCommandZone"
    player: str
    obj: int
    tax: int


def tax_for(s: GameState, card: int) -> int:
    """903.8: the additional cost of the next cast of commander `card` from the command
    zone."""
    return TAX * s.commander.cast_count(card) if s.commander is not None else 0


def commander_tax(s: GameState, player: str) -> int:
    """The tax on `player`'s next cast of their commander (the first, with several)."""
    if s.commander is None:
        return 0
    cards = [c for c, owner in s.commander.commanders if owner == player]
    return tax_for(s, cards[0]) if cards else 0


@CAST_FROM.register("command")
def _from_command_zone(t: Txn, o: Obj, player: str) -> int:
    """903.8: only a commander, only by its owner; the tax is recorded as it is cast."""
    if commander_owner(t.s, o.card) != player:
        raise RuleViolation("903.8", f"{o.name} is not a commander {player} owns in the "
                                     "command zone")
    tax = tax_for(t.s, o.card)
    t.emit(CommanderCastFromCommandZone(player=player, obj=o.id, tax=tax, rule="903.8"))
    return tax


@priority_actions(order=15)
def command_zone_actions(s: GameState, m: Marker, player: str) -> list[PlayerCommand]:
    """The player's commanders they may cast from the command zone now (903.8)."""
    if s.commander is None:
        return []
    out: list[PlayerCommand] = []
    main = sorcery_timing_ok(s, m, player)
    for oid in s.zone(player, "command"):
        o = s.objects[oid]
        if commander_owner(s, o.card) != player:
            continue
        d = definition(o)
        if "Land" in d.types or ("Instant" not in d.types and not main):
            continue
        for targets in target_choices(s, spell_targets(d), player, oid):
            n = sum(len(g) for g in targets)
            if can_pay(s, player, spell_cost(d, 0, n).plus_generic(tax_for(s, o.card))):
                out.append(CastSpell(player=player, card=oid, targets=targets,
                                     marker=m.number))
    return out


@applies(CommanderCastFromCommandZone)
def _cast(s: GameState, e: CommanderCastFromCommandZone) -> None:
    c = s.commander
    assert c is not None
    card = s.objects[e.obj].card
    casts = tuple(x for x in c.casts if x[0] != card)
    s.commander = replace(c, casts=(*casts, (card, c.cast_count(card) + 1)))


@explains(CommanderCastFromCommandZone)
def _explain(before: GameState, e: CommanderCastFromCommandZone, name: Namer) -> str:
    return (f"{e.player} casts {name(e.obj)} from the command zone"
            + (f", paying {{{e.tax}}} commander tax" if e.tax else ""))
