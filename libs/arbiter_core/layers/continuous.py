"""Continuous effects from resolving spells and abilities (CR 611.2): the effects of the
card model that create them (+N/+M until end of turn, 613.4c; a keyword, 613.1f;
becoming a creature, layers 4, 6 and 7b; Fog's prevention, 615; detain, 701.35a), and
their events: created with a timestamp (613.7), used up (a redirection shield, 614.9),
and ended (514.2, 701.35a). Which layer each kind applies in is in `characteristics`
(layer 7), `control` (layer 2) and `combat` (restrictions and requirements)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from arbiter_core.cards.model import (
    AllCreaturesHaveKeyword,
    BecomeCreature,
    CantAttackOrBlock,
    Detain,
    GainKeyword,
    ModifyPowerToughness,
    OpponentsCreaturesLoseKeyword,
    PerCardInChosenPlayersHand,
    PreventCombatDamage,
)
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains, objs
from arbiter_core.kernel.refs import parse_ref
from arbiter_core.kernel.registry import Hooks
from arbiter_core.kernel.state import Effect, GameState, Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.stack.items import Legal, effect, group, objects_of, static_effect

#: what else ends with the "until end of turn" effects at cleanup (514.2): each hook is
#: given the effects that just ended (a copy effect, `layers/copy_until_end_of_turn.py`)
ENDED_AT_CLEANUP: Hooks[str, Callable[[Txn, tuple[Effect, ...]], None]] = Hooks(
    "end of an until-end-of-turn effect")


def still_affected(s: GameState, ending: tuple[Effect, ...], kind: str) -> list[int]:
    """The permanents still on the battlefield that the ending effects of `kind`
    affected (514.2: what an `ENDED_AT_CLEANUP` hook undoes), in the effects' order."""
    return [oid for f in ending if f.kind == kind for oid in f.affected
            if oid in s.objects and s.objects[oid].zone == "battlefield"]

# Static abilities whose effects `characteristics` applies in their layers (613.1f,
# 613.4c; 508.1c and 509.1b for "can't attack or block") and `information` (Nyxathid's
# +N/+N for each card in the chosen player's hand, with 800.4i).
static_effect(CantAttackOrBlock, AllCreaturesHaveKeyword, OpponentsCreaturesLoseKeyword,
              PerCardInChosenPlayersHand)


@applies(ev.EffectCreated)
def _created(s: GameState, e: ev.EffectCreated) -> None:
    s.timestamp += 1
    s.effects.append(Effect(id=s.timestamp, kind=e.kind, affected=tuple(e.affected),
                            power=e.power, toughness=e.toughness, marker=e.marker,
                            timestamp=s.timestamp, controller=e.controller, until=e.until,
                            keyword=e.keyword, subtypes=tuple(e.subtypes),
                            keywords=tuple(e.keywords), tap_when_lost=e.tap_when_lost,
                            redirect=(parse_ref(e.redirect[0]), parse_ref(e.redirect[1]))
                            if len(e.redirect) == 2 else None,
                            amount=e.amount))


@applies(ev.EffectUsed)
def _used(s: GameState, e: ev.EffectUsed) -> None:
    s.effects = [replace(f, amount=f.amount - e.amount) if f.id == e.effect else f
                 for f in s.effects]


@applies(ev.EffectEnded)
def _ended(s: GameState, e: ev.EffectEnded) -> None:
    s.effects = [f for f in s.effects if f.id != e.effect]


@effect(ModifyPowerToughness)
def _modify_pt(t: Txn, m: Marker, item: StackItem, eff: ModifyPowerToughness, legal: Legal,
               index: int) -> bool:
    if eff.subject == "self":
        ids = [item.source] if item.source in t.s.battlefield else []
    else:
        ids = objects_of(group(legal, eff.target))
    if ids and eff.until_end_of_turn:
        t.emit(ev.EffectCreated(kind="pt", affected=[i for i in ids if i is not None],
                                power=eff.power, toughness=eff.toughness, marker=m.number,
                                rule="611.2a"))
    return False


@effect(PreventCombatDamage)
def _prevent_combat_damage(t: Txn, m: Marker, item: StackItem, eff: PreventCombatDamage,
                           legal: Legal, index: int) -> bool:
    t.emit(ev.EffectCreated(kind="prevent_combat_damage", marker=m.number,
                            controller=item.controller, rule="615.1a"))
    return False


@effect(GainKeyword)
def _gain_keyword(t: Txn, m: Marker, item: StackItem, eff: GainKeyword, legal: Legal,
                  index: int) -> bool:
    ids = objects_of(group(legal, eff.target))
    if ids:
        t.emit(ev.EffectCreated(kind="keyword", affected=ids, keyword=eff.keyword,
                                marker=m.number, controller=item.controller, rule="613.1f"))
    return False


@effect(BecomeCreature)
def _become_creature(t: Txn, m: Marker, item: StackItem, eff: BecomeCreature, legal: Legal,
                     index: int) -> bool:
    src = t.s.objects.get(item.source or -1)
    if src is not None and src.zone == "battlefield":
        t.emit(ev.PermanentBecameCreature(obj=src.id, power=eff.power, toughness=eff.toughness,
                                          subtypes=list(eff.subtypes),
                                          keywords=list(eff.keywords), rule="613.1d"))
    return False


@effect(Detain)
def _detain(t: Txn, m: Marker, item: StackItem, eff: Detain, legal: Legal,
            index: int) -> bool:
    """701.35a: until the controller's next turn, the permanents can't attack or block
    and their activated abilities can't be activated."""
    ids = objects_of(group(legal, eff.target))
    if ids:
        t.emit(ev.EffectCreated(kind="detain", affected=ids, controller=item.controller,
                                until="your_next_turn", marker=m.number, rule="701.35a"))
    return False


@explains(ev.EffectCreated)
def _explain_effect_created(before: GameState, e: ev.EffectCreated, name: Namer) -> str:
    if e.kind == "pt":
        return (f"{objs(name, e.affected)} get{'s' if len(e.affected) == 1 else ''} "
                f"{e.power:+d}/{e.toughness:+d} until end of turn")
    return "combat damage is prevented this turn"


@explains(ev.EffectUsed)
def _explain_effect_used(before: GameState, e: ev.EffectUsed, name: Namer) -> str:
    return f"effect {e.effect} is used up by {e.amount}"


@explains(ev.EffectEnded)
def _explain_effect_ended(before: GameState, e: ev.EffectEnded, name: Namer) -> str:
    return f"effect {e.effect} ends"
