"""Targets (CR 115): what each target kind may choose, checked when a spell is cast or an
ability activated (CR 601.2c, 602.2b) and again on resolution (CR 608.2b).

A target is a typed reference (`kernel.refs`): a player or an object.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from arbiter_core.cards.model import StaticAbility, TargetSpec, YouHaveHexproof
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.refs import ObjectRef, PlayerRef, Ref, object_ref, player_ref
from arbiter_core.kernel.registry import Hooks
from arbiter_core.kernel.state import GameState, Obj
from arbiter_core.layers.characteristics import colors, definition, is_creature, is_type
from arbiter_core.multiplayer.influence import near, object_in_range, player_in_range
from arbiter_core.multiplayer.seating import opponents

PLAYER_KINDS = ("any", "player", "player_or_planeswalker", "creature_planeswalker_or_player")


#: rules that make an object an illegal target for spells and abilities a player
#: controls, from a keyword module (702.11b hexproof): (state, controller, object) -> True
#: when it can't be targeted
TARGET_RESTRICTIONS: Hooks[str, Callable[[GameState, str, Obj], bool]] = Hooks(
    "target restriction")


def is_legal(s: GameState, spec: TargetSpec, controller: str, target: Ref,
             source: int | None = None) -> bool:
    """Whether `target` meets `spec` now (CR 115.1, 115.5: a spell can't target itself;
    801.4: nothing outside the controller's range of influence)."""
    if isinstance(target, PlayerRef):
        return _player_legal(s, spec, controller, target.player, None)
    return _object_legal(s, spec, controller, target.obj, source, None)


def _player_legal(s: GameState, spec: TargetSpec, controller: str, name: str,
                  opps: Collection[str] | None) -> bool:
    """`is_legal` for a player; `opps`: the controller's opponents, if known."""
    p = s.players.get(name)
    return (p is not None and not p.left
            and (spec.kind in PLAYER_KINDS
                 or (spec.kind == "opponent"
                     and name in (opponents(s, controller) if opps is None else opps)))
            and player_in_range(s, controller, name)
            and not (has_hexproof(s, name) and controller in opponents(s, name)))


def has_hexproof(s: GameState, player: str) -> bool:
    """CR 702.11d: a player with hexproof ("You have hexproof": Leyline of Sanctity)
    can't be the target of spells or abilities their opponents control."""
    return any(isinstance(e, YouHaveHexproof) for o in s.permanents(player)
               for ab in definition(o).abilities if isinstance(ab, StaticAbility)
               for e in ab.effects)


def _object_legal(s: GameState, spec: TargetSpec, controller: str, oid: int,
                  source: int | None, opps: Collection[str] | None) -> bool:
    """`is_legal` for an object; `opps`: the controller's opponents, if known."""
    if oid == source:
        return False
    o = s.objects.get(oid)
    if o is None:
        return False
    if o.zone in ("battlefield", "stack") and not object_in_range(s, controller, o):
        return False
    if spec.not_color is not None and spec.not_color in colors(o):
        return False
    if any(cannot(s, controller, o) for cannot in TARGET_RESTRICTIONS["all"]):
        return False
    fits = OBJECT_TARGETS.get(spec.kind)
    return fits is not None and fits(s, o, controller, opps)


#: whether an object fits a kind of target: (state, object, the controller, opponents if known)
ObjectTarget = Callable[[GameState, Obj, str, Collection[str] | None], bool]


def _opponent_controls(s: GameState, o: Obj, controller: str,
                       opps: Collection[str] | None) -> bool:
    return (o.zone == "battlefield" and is_creature(o)
            and o.controller in (opponents(s, controller) if opps is None else opps))


def _in_opponents_graveyard(s: GameState, o: Obj, controller: str,
                            opps: Collection[str] | None) -> bool:
    return (o.zone == "graveyard" and is_creature(o)
            and o.owner in (opponents(s, controller) if opps is None else opps))


def _on_battlefield(test: Callable[[Obj], bool]) -> ObjectTarget:
    return lambda s, o, controller, opps: o.zone == "battlefield" and test(o)


def _in_your_graveyard(test: Callable[[Obj], bool]) -> ObjectTarget:
    return lambda s, o, controller, opps: (o.zone == "graveyard" and o.owner == controller
                                           and test(o))


#: Which objects each kind of target requirement (115.1) admits: a new kind is a new
#: entry here ("player" and "opponent" admit no object).
OBJECT_TARGETS: dict[str, ObjectTarget] = {
    "creature": _on_battlefield(is_creature),
    # 115.4: "any target" takes planeswalkers too
    "any": _on_battlefield(lambda o: is_creature(o) or is_type(o, "Planeswalker")),
    "creature_planeswalker_or_player": _on_battlefield(
        lambda o: is_creature(o) or is_type(o, "Planeswalker")),
    "artifact_or_enchantment": _on_battlefield(
        lambda o: is_type(o, "Artifact") or is_type(o, "Enchantment")),
    "spell": lambda s, o, controller, opps: o.zone == "stack" and any(
        i.obj == o.id for i in s.stack_items.values()),
    "creature_card_in_your_graveyard": _in_your_graveyard(is_creature),
    # 205.3m: Goblin is a creature type
    "goblin_card_in_your_graveyard": _in_your_graveyard(
        lambda o: "Goblin" in definition(o).subtypes),
    "creature_an_opponent_controls": _opponent_controls,
    "player_or_planeswalker": _on_battlefield(lambda o: is_type(o, "Planeswalker")),
    "noncreature_artifact": _on_battlefield(
        lambda o: is_type(o, "Artifact") and not is_creature(o)),
    "red_green_or_white_creature_you_control": lambda s, o, controller, opps: (
        o.zone == "battlefield" and is_creature(o) and o.controller == controller
        and not {"R", "G", "W"}.isdisjoint(colors(o))),
    "creature_card_in_an_opponents_graveyard": _in_opponents_graveyard,
    "creature_you_control": lambda s, o, controller, opps: (
        o.zone == "battlefield" and is_creature(o) and o.controller == controller),
}


def check_choice(s: GameState, specs: tuple[TargetSpec, ...], chosen: list[list[Ref]],
                 controller: str, source: int | None = None) -> tuple[tuple[Ref, ...], ...]:
    """CR 601.2c: one list of targets per requirement, the right number, each legal,
    and the same object or player not chosen twice for one word "target" (115.3)."""
    if len(chosen) != len(specs):
        raise RuleViolation("601.2c", f"this needs {len(specs)} target group(s), "
                                      f"{len(chosen)} given")
    limited = bool(s.influence)
    out: list[tuple[Ref, ...]] = []
    for spec, group in zip(specs, chosen, strict=True):
        if len(group) < spec.min_count or (spec.max_count is not None
                                           and len(group) > spec.max_count):
            raise RuleViolation("601.2c", "wrong number of targets")
        if len(set(group)) != len(group):
            raise RuleViolation("115.3", "the same target is chosen twice")
        earlier = {x for g in out for x in g}
        if spec.another and earlier & set(group):  # "another target" (115.3)
            raise RuleViolation("115.3", "\"another target\" can't be one already chosen")
        for target in group:
            if not is_legal(s, spec, controller, target, source):
                rule = "115.1"
                if limited and _out_of_range(s, controller, target):
                    rule = "801.4"
                raise RuleViolation(rule, f"{describe(s, target)} is not a legal target")
        out.append(tuple(group))
    return tuple(out)


def candidates(s: GameState, spec: TargetSpec, controller: str,
               source: int | None = None) -> list[Ref]:
    """Every legal single target for `spec` now (for legal_actions and bots): players
    in seating order, then permanents, spells, and cards in the controller's graveyard
    (and in opponents' for a kind that names it), each checked as `is_legal` checks it."""
    opps = frozenset(opponents(s, controller))
    found: list[Ref] = [player_ref(p) for p in s.in_game()
                        if _player_legal(s, spec, controller, p, opps)]
    ids = [*s.battlefield, *(i.obj for i in s.stack_items.values() if i.obj is not None),
           *s.zone(controller, "graveyard")]
    if spec.kind == "creature_card_in_an_opponents_graveyard":
        ids += [i for p in s.seats if p in opps for i in s.zone(p, "graveyard")]
    within = near(s, controller)
    if within is not None:  # 801.4: most permanents and spells are out of range (801.2d:
        objects = s.objects  # an object is within it when its controller is); skip them
        ids = [i for i in ids if (o := objects.get(i)) is None
               or o.zone not in ("battlefield", "stack") or o.controller in within]
    found += [object_ref(i) for i in ids if _object_legal(s, spec, controller, i, source, opps)]
    return found


def _out_of_range(s: GameState, controller: str, target: Ref) -> bool:
    if isinstance(target, PlayerRef):
        return target.player in s.players and not player_in_range(s, controller, target.player)
    o = s.objects.get(target.obj)
    return o is not None and not object_in_range(s, controller, o)


def describe(s: GameState, target: Ref) -> str:
    if isinstance(target, ObjectRef):
        o = s.objects.get(target.obj)
        return o.name if o is not None else str(target.obj)
    return target.player
