"""Characteristics after continuous effects (CR 604 static abilities, CR 613 layers).

Layer 7 (power and toughness, CR 613.4) is applied here in timestamp order: 7c adds the
static abilities of permanents on the battlefield (Glorious Anthem, Holy Strength,
Bonesplitter) and resolved "until end of turn" effects (Giant Growth), then counters
(CR 613.4c). Layer 2 (control) comes with the multiplayer control-change cards.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import replace

from arbiter_core.cards import POOL, card_names, get_card
from arbiter_core.cards.model import (
    TOKEN_ABILITIES,
    AllCreaturesHaveKeyword,
    CantAttackOrBlock,
    CardDefinition,
    KeywordAbility,
    ModifyPowerToughness,
    OpponentsCreaturesLoseKeyword,
    StaticAbility,
    TokenSpec,
)
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.edits import set_obj
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.memo import fact
from arbiter_core.kernel.registry import Hooks
from arbiter_core.kernel.state import Effect, GameState, Obj
from arbiter_core.layers.face_down import FACE_DOWN
from arbiter_core.multiplayer.information import chosen_hand_modifier


@functools.cache
def _token_definition(t: TokenSpec) -> CardDefinition:
    """A token's characteristics (frozen data: built once per kind of token)."""
    return CardDefinition(name=t.name, colors=t.colors, types=t.types,
                          subtypes=t.subtypes, power=t.power, toughness=t.toughness,
                          abilities=TOKEN_ABILITIES.get(t.name, ((), ""))[0])


#: characteristic-defining abilities setting power and toughness (604.3, 613.4a): each
#: answers (power, toughness) for a definition whose ability it is, or None
PT_DEFINED: Hooks[str, Callable[[GameState, CardDefinition], tuple[int, int] | None]] = (
    Hooks("power and toughness defined"))

_TOKEN_DEFINITIONS: dict[int, tuple[TokenSpec, CardDefinition]] = {}  # by id of the spec


#: the back faces of transforming double-faced cards, by card name (712.2; registered by
#: `layers/transform.py`)
BACK_FACES: dict[str, CardDefinition] = {}


def definition(o: Obj) -> CardDefinition:
    """The card's characteristics: printed, or a token's (CR 111.4), with a permanent
    "becomes a creature" effect applied (layers 4, 6, 7b; Lurking Evil). Asked for every
    permanent at every SBA check: a token's is kept by the identity of its (frozen)
    spec, which hashes slowly. A face-down object has the characteristics of 708.2a
    (`face_down.FACE_DOWN`), whatever card it is."""
    if o.face_down:
        return FACE_DOWN
    if o.transformed and o.name in BACK_FACES:  # 712.8e (layers/transform.py)
        return BACK_FACES[o.name]
    token = o.token
    if token is not None:
        hit = _TOKEN_DEFINITIONS.get(id(token))
        if hit is not None and hit[0] is token:
            return hit[1]
        d = _token_definition(token)
        if len(_TOKEN_DEFINITIONS) >= 10_000:
            _TOKEN_DEFINITIONS.clear()
        _TOKEN_DEFINITIONS[id(token)] = (token, d)
        return d if o.became is None else _animated(d, o.became)
    if o.became is not None:
        return _became(o.name, o.became)
    printed = POOL.get(o.name)
    return printed if printed is not None else get_card(o.name)  # UnknownCard


def cost_for_mana_value(o: Obj) -> str | None:
    """The mana cost an object's mana value is calculated from (202.3): its own, except
    that a transforming double-faced permanent with its back face up uses its front
    face's (712.8e; the back face itself has no mana cost, layers/transform.py)."""
    if o.transformed and not o.face_down and o.name in BACK_FACES:
        return definition(replace(o, transformed=False)).mana_cost
    return definition(o).mana_cost


@functools.cache
def _became(name: str, became: tuple[int, int, tuple[str, ...], tuple[str, ...]]
            ) -> CardDefinition:
    return _animated(get_card(name), became)


def _animated(d: CardDefinition, became: tuple[int, int, tuple[str, ...], tuple[str, ...]]
              ) -> CardDefinition:
    """A card's or a token's characteristics as a creature (layers 4, 6, 7b)."""
    power, toughness, subtypes, kws = became
    return d.model_copy(update={
        "types": (*d.types, "Creature") if "Creature" not in d.types else d.types,
        "subtypes": (*d.subtypes, *subtypes), "power": power, "toughness": toughness,
        "abilities": (*d.abilities, *(KeywordAbility(keyword=k) for k in kws)),
    })


@functools.cache
def _cards_with(kind: type) -> frozenset[str]:
    """Names of the cards with a static ability that has this effect."""
    return frozenset(name for name in card_names() if any(
        isinstance(ab, StaticAbility) and any(isinstance(e, kind) for e in ab.effects)
        for ab in get_card(name).abilities))


def printed_card(o: Obj) -> bool:
    """Whether the object's abilities are its card's, found by its name: not a token's
    (111.4) and not a face-down object's, which has none (708.2a)."""
    return o.token is None and not o.face_down


def static_holders(s: GameState, kind: type) -> frozenset[str]:
    """Players controlling a permanent with this static effect - or an object outside
    the battlefield whose static abilities work there (`OUTSIDE_HOLDERS`: 902.7, a
    vanguard's)."""
    names = _cards_with(kind)
    found = frozenset(o.controller for o in map(s.objects.__getitem__, s.battlefield)
                      if printed_card(o) and o.name in names)
    for outside in OUTSIDE_HOLDERS["holders"]:
        found |= outside(s, kind)
    return found


def is_type(o: Obj, card_type: str) -> bool:
    return card_type in definition(o).types


def is_creature(o: Obj) -> bool:
    return is_type(o, "Creature")


def keywords(s: GameState, o: Obj) -> frozenset[str]:
    """Keyword abilities the object has (CR 702), with layer-6 grants (613.1f) such as
    Act of Treason's haste."""
    d = definition(o)
    own = frozenset(a.keyword for a in d.abilities if isinstance(a, KeywordAbility))
    granted = [f.keyword for f in s.effects
               if f.kind == "keyword" and o.id in f.affected and f.keyword]
    if "Creature" in d.types and o.zone == "battlefield":
        granted += _granted_to_all_creatures(s, o)
    result = own | frozenset(granted) if granted else own
    if "infect" in result and _loses_infect(s, o):
        result -= {"infect"}
    return result


@functools.cache
def _card_removes(name: str) -> tuple[str, ...]:
    return tuple(eff.keyword for ab in get_card(name).abilities if isinstance(ab, StaticAbility)
                 for eff in ab.effects if isinstance(eff, OpponentsCreaturesLoseKeyword))


def _loses_infect(s: GameState, o: Obj) -> bool:
    """"Creatures your opponents control lose infect" (Melira), layer 6 after grants
    (613.1f, timestamp order not needed: nothing grants infect)."""
    team = s.players[o.controller].team
    return any("infect" in _card_removes(src.name) and s.players[src.controller].team != team
               for oid in s.battlefield if printed_card(src := s.objects[oid]))


@functools.cache
def _card_grants(name: str) -> tuple[str, ...]:
    """Keywords a card's static abilities give all creatures (Concordant Crossroads)."""
    return tuple(eff.keyword for ab in get_card(name).abilities if isinstance(ab, StaticAbility)
                 for eff in ab.effects if isinstance(eff, AllCreaturesHaveKeyword))


@functools.cache
def _granting_cards() -> frozenset[str]:
    return frozenset(name for name in card_names() if _card_grants(name))


def _granted_to_all_creatures(s: GameState, o: Obj) -> list[str]:
    """Layer 6 grants to all creatures, each only within its source's controller's range
    of influence (801.10)."""
    out: list[str] = []
    for src in fact(s, "granting permanents", _granting_permanents):
        near = s.influence.get(src.controller)
        if near is None or o.controller in near:
            out += _card_grants(src.name)
    for outside in OUTSIDE_GRANTS["grants"]:
        out += outside(s, o)
    return out


def _granting_permanents(s: GameState) -> list[Obj]:
    granting = _granting_cards()
    return [src for src in map(s.objects.__getitem__, s.battlefield)
            if printed_card(src) and src.name in granting]


StaticEffect = ModifyPowerToughness | CantAttackOrBlock

#: static effects of objects that work outside the battlefield (901.7: a face-up plane's
#: in the command zone), each rule listing its own: state -> (source, effect) pairs for
#: "statics"; (state, creature) -> keywords the creature has for "grants"
OUTSIDE_STATICS: Hooks[str, Callable[[GameState], list[tuple[Obj, StaticEffect]]]] = Hooks(
    "static effects from outside the battlefield")
OUTSIDE_GRANTS: Hooks[str, Callable[[GameState, Obj], list[str]]] = Hooks(
    "keywords creatures have from outside the battlefield")
#: (state, kind of static effect) -> players who control an object outside the
#: battlefield with that effect ("holders")
OUTSIDE_HOLDERS: Hooks[str, Callable[[GameState, type], frozenset[str]]] = Hooks(
    "static effects of players from outside the battlefield")


Became = tuple[int, int, tuple[str, ...], tuple[str, ...]]
#: static abilities making a permanent a creature (layers 4 and 7b; Karn's, 902.7):
#: (state, permanent) -> its power, toughness, subtypes and keywords as one, or None
STATIC_ANIMATION: Hooks[str, Callable[[GameState, Obj], Became | None]] = Hooks(
    "static abilities making permanents creatures")


def entering_as(s: GameState, oid: int) -> None:
    """CR 614.12: a permanent enters with the continuous effects of the static abilities
    that would apply to it on the battlefield - a noncreature artifact under Karn enters
    as a creature, so "whenever a creature enters" sees it (their watchers keep it
    current afterwards)."""
    o = s.objects[oid]
    if o.became is not None or o.face_down:
        return
    for animate in STATIC_ANIMATION["animate"]:
        became = animate(s, o)
        if became is not None:
            set_obj(s, oid, became=became)
            return


@functools.cache
def _card_statics(name: str) -> tuple[StaticEffect, ...]:
    """A card's static P/T and attack effects (card data is immutable: cached by name)."""
    return tuple(eff for ab in get_card(name).abilities if isinstance(ab, StaticAbility)
                 for eff in ab.effects if isinstance(eff, ModifyPowerToughness | CantAttackOrBlock))


def statics(s: GameState) -> list[tuple[Obj, StaticEffect]]:
    """Every static P/T or attack effect on the battlefield, in timestamp order."""
    return list(fact(s, "statics", _statics))


def _statics(s: GameState) -> list[tuple[Obj, StaticEffect]]:
    out: list[tuple[Obj, StaticEffect]] = []
    objects = s.objects
    for oid in s.battlefield:
        src = objects[oid]
        if printed_card(src) and (found := _card_statics(src.name)):
            out.extend([(src, eff) for eff in found])
    for outside in OUTSIDE_STATICS["statics"]:
        out.extend(outside(s))
    out.sort(key=lambda pair: pair[0].timestamp)  # CR 613.7: timestamp order
    return out


def _applies(src: Obj, subject: str, o: Obj) -> bool:
    if subject in ("enchanted", "equipped"):
        return src.attached_to == o.id
    if subject == "creatures_you_control":
        return o.controller == src.controller and is_type(o, "Creature")
    if subject == "self":
        return src.id == o.id
    if subject == "all_creatures":
        return is_type(o, "Creature")
    return False


def _reach(src: Obj, subject: str) -> int | str | None:
    """What an effect can apply to, as an index key that `Statics.affecting` looks up for
    an object: its id, or its controller's name; None: anything (`_applies` decides).
    Must agree with `_applies`."""
    if subject in ("enchanted", "equipped"):
        return -1 if src.attached_to is None else src.attached_to  # -1: no object's id
    if subject == "creatures_you_control":
        return src.controller
    if subject == "self":
        return src.id
    return None


class Statics:
    """`statics(s)` indexed by what each effect can apply to, for measuring many objects
    against one state (an SBA check looks at every creature's toughness)."""

    def __init__(self, s: GameState) -> None:
        self._by: dict[int | str, list[tuple[int, Obj, StaticEffect]]] = {}
        self._anywhere: list[tuple[int, Obj, StaticEffect]] = []
        for i, (src, eff) in enumerate(statics(s)):
            key = _reach(src, eff.subject)
            bucket = self._anywhere if key is None else self._by.setdefault(key, [])
            bucket.append((i, src, eff))
        self._resolved: dict[int, list[Effect]] = {}  # resolved effects, by affected object
        for f in s.effects:
            for oid in dict.fromkeys(f.affected):
                self._resolved.setdefault(oid, []).append(f)

    def affecting(self, o: Obj) -> list[tuple[Obj, StaticEffect]]:
        """The effects that may apply to `o`, in the timestamp order of `statics`."""
        by = self._by
        found = [*by.get(o.id, ()), *by.get(o.controller, ()), *self._anywhere]
        if not found:
            return []
        found.sort(key=lambda entry: entry[0])
        return [(src, eff) for _, src, eff in found]

    def resolved(self, o: Obj) -> list[Effect]:
        """The resolved effects (`GameState.effects`) that name `o`, in their order."""
        return self._resolved.get(o.id, [])


def power_toughness(s: GameState, o: Obj, effects: Statics | None = None,
                    d: CardDefinition | None = None) -> tuple[int, int]:
    """Power and toughness after layer 7 (CR 613.4). `effects` (`Statics(s)`) and the
    object's `definition` may be passed when many objects are measured against one
    state. The SBA check (sba.py) reuses its result while nothing but a marker's
    priority, step or combat changes: an effect that depends on those must say so there."""
    if d is None:
        d = definition(o)
    power, toughness = d.power or 0, d.toughness or 0
    if d.power is None and "Creature" in d.types:  # "*": a characteristic-defining ability
        for defined in PT_DEFINED["all"]:  # (604.3, layer 7a)
            pt = defined(s, d)
            if pt is not None:
                power, toughness = pt
    if o.zone != "battlefield":
        return power, toughness
    for src, eff in statics(s) if effects is None else effects.affecting(o):
        if isinstance(eff, ModifyPowerToughness) and _applies(src, eff.subject, o):
            power += eff.power
            toughness += eff.toughness
    chosen_p, chosen_t = chosen_hand_modifier(s, o)  # Nyxathid, with 800.4i
    power, toughness = power + chosen_p, toughness + chosen_t
    for f in s.effects if effects is None else effects.resolved(o):
        if f.kind == "pt" and o.id in f.affected:
            power += f.power
            toughness += f.toughness
    if not o.counters:
        return power, toughness
    net = o.counter("+1/+1") - o.counter("-1/-1")
    return power + net, toughness + net


def cant_attack_or_block(s: GameState, o: Obj) -> bool:
    """An effect says the creature can't attack or block (CR 508.1c, 509.1b)."""
    if any(f.kind == "detain" and o.id in f.affected for f in s.effects):
        return True  # detained until its detainer's next turn (701.35a)
    return any(
        isinstance(eff, CantAttackOrBlock) and _applies(src, eff.subject, o)
        for src, eff in statics(s)
    )


def colors(o: Obj) -> tuple[str, ...]:
    return definition(o).colors


@applies(ev.PermanentBecameCreature)
def _became_creature(s: GameState, e: ev.PermanentBecameCreature) -> None:
    set_obj(s, e.obj, became=(e.power, e.toughness, tuple(e.subtypes), tuple(e.keywords)))


@explains(ev.PermanentBecameCreature)
def _explain_became_creature(before: GameState, e: ev.PermanentBecameCreature,
                             name: Namer) -> str:
    return f"{name(e.obj)} becomes a {e.power}/{e.toughness} creature"
