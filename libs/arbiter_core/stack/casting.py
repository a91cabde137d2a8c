"""Playing lands (CR 305), casting spells (CR 601) and activating abilities (CR 602, 605).

A player uses only cards in their own hand, permanents they control and their own mana
pool: teammates don't share resources (808.5, 809.7, 810.5, 811.5).

Every check happens before or while events are made in a private transaction, so an
illegal command raises a typed `RuleViolation` and nothing is recorded (CR 601.2e: the
game returns to the moment before the proposal).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from arbiter_core.card_types import planeswalkers
from arbiter_core.cards.model import (
    ActivatedAbility,
    AddMana,
    CardDefinition,
    EquipAbility,
    GainControl,
    SpellAbility,
    TargetSpec,
)
from arbiter_core.effects import life
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ActivateAbility, CastSpell, PlayLand
from arbiter_core.kernel.decide import handles
from arbiter_core.kernel.edits import move, push, set_marker, set_player
from arbiter_core.kernel.errors import InvalidCommand, RuleViolation
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains, targets_text
from arbiter_core.kernel.refs import Ref, objects_of, player_ref, ref_groups
from arbiter_core.kernel.registry import Hooks, Registry, Slot
from arbiter_core.kernel.state import MAIN_STEPS, GameState, Marker, Obj, StackItem, Step
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import definition, is_creature
from arbiter_core.multiplayer.influence import object_in_range, player_in_range
from arbiter_core.multiplayer.seating import active_players, opponents, teammates
from arbiter_core.stack import choices
from arbiter_core.stack.items import RULES_ABILITY, Meaning, ability_effects, spell_targets
from arbiter_core.stack.mana import (
    MANA_OF_A_COLOR,
    ManaCost,
    activate_mana_ability,
    can_tap_for_cost,
    parse_cost,
    pay,
)
from arbiter_core.stack.priority import queue_priority, require_priority
from arbiter_core.stack.targets import check_choice

#: what activating an ability of a card in its owner's hand does, by the ability's class
#: (113.6: most abilities function only on the battlefield; cycling does, 702.29a)
HAND_ABILITIES: Registry[type, Callable[[Txn, ActivateAbility], None]] = Registry(
    "ability activated from a hand")
#: a sacrifice as part of an activation cost (118.3, 602.2b): asks the activating player
#: which permanent (a decision: `effects/sacrifice_cost.py`), (txn, marker, player,
#: stack item, kind) -> True while the decision waits
SACRIFICE_COST: Slot[Callable[[Txn, Marker, str, int, str], bool]] = Slot("sacrifice cost")


def sacrifice_candidates(s: GameState, player: str, kind: str | None) -> list[int]:
    """The permanents `player` could sacrifice for a "Sacrifice an artifact" cost
    (701.21a: only their own permanents)."""
    if kind is None:
        return []
    return [o.id for o in s.permanents(player) if kind.capitalize() in definition(o).types]


#: the same for a card in the command zone (902.7: a vanguard's activated ability)
COMMAND_ABILITIES: Registry[type, Callable[[Txn, ActivateAbility], None]] = Registry(
    "ability activated from the command zone")
BEFORE_COMBAT = frozenset({Step.UNTAP, Step.UPKEEP, Step.DRAW, Step.PRECOMBAT_MAIN})
#: zones other than the hand a rule lets a player cast a card from, by zone: the rule
#: checks the card may be cast from there (raising if not), records what it must, and
#: returns the additional generic mana casting it from there costs (601.2f; 903.8: a
#: commander from the command zone, with its tax)
CAST_FROM: Registry[str, Callable[[Txn, Obj, str], int]] = Registry("zone cast from")


def sorcery_timing_ok(s: GameState, m: Marker, player: str) -> bool:
    """CR 117.1a / 307.1: own main phase (805.4a: the team's), with an empty stack.
    With shared team turns each player of the active team may play a land (805.4c)."""
    return player in active_players(s, m.holder) and m.step in MAIN_STEPS and not m.stack


def activation_timing_ok(s: GameState, m: Marker, player: str,
                         ab: ActivatedAbility | EquipAbility) -> bool:
    """CR 602.5: "Activate only during an opponent's turn and only before combat" - an
    opponent is the active player (805.4a: on the active team) and the turn is still in
    its beginning phase or precombat main phase."""
    if not (isinstance(ab, ActivatedAbility) and ab.opponents_turn_before_combat):
        return True
    theirs = bool(set(active_players(s, m.holder)) & set(opponents(s, player)))
    return theirs and m.step in BEFORE_COMBAT


def spell_cost(d: CardDefinition, x: int, n_targets: int) -> ManaCost:
    """CR 601.2f: mana cost with X (107.3) plus additional costs (Fireball)."""
    cost = parse_cost(d.mana_cost)
    extra = next((ab.extra_cost_per_target_beyond_first for ab in d.abilities
                  if isinstance(ab, SpellAbility)), 0)
    return cost.plus_generic(cost.x * x + extra * max(0, n_targets - 1))


def _own_card(s: GameState, player: str, card: int, zone: str) -> Obj:
    o = s.objects.get(card)
    if o is None:
        raise InvalidCommand("card", f"no object {card}")
    if o.zone != zone or o.owner != player:
        raise RuleViolation("601.3" if zone == "hand" else "305.1",
                            f"{o.name} is not in {player}'s {zone}")
    return o


#: players who may play any number of lands on their turns (305.2: an effect allows
#: additional land plays; Naya, a plane)
ANY_NUMBER_OF_LANDS: Hooks[str, Callable[[GameState, str], bool]] = Hooks(
    "any number of land plays")


def may_play_land(s: GameState, player: str) -> bool:
    """CR 305.2: one land a turn, unless an effect allows more."""
    return s.players[player].lands_played < 1 or any(
        allows(s, player) for allows in ANY_NUMBER_OF_LANDS["all"])


@handles(PlayLand)
def play_land(t: Txn, cmd: PlayLand) -> None:
    """CR 305.1-305.2: a special action in your main phase with an empty stack, once a
    turn (505.6b)."""
    m = require_priority(t.s, cmd.player, cmd.marker)
    o = _own_card(t.s, cmd.player, cmd.card, "hand")
    if "Land" not in definition(o).types:
        raise RuleViolation("305.1", f"{o.name} is not a land")
    if not sorcery_timing_ok(t.s, m, cmd.player):
        raise RuleViolation("505.6b", "a land can be played only in your main phase "
                                      "with an empty stack")
    if not may_play_land(t.s, cmd.player):
        raise RuleViolation("305.2", "you have already played a land this turn")
    t.emit(ev.LandPlayed(player=cmd.player, obj=o.id, new_id=t.new_id(), rule="305.1"))
    queue_priority(t, m.number, cmd.player)


@handles(CastSpell)
def cast_spell(t: Txn, cmd: CastSpell) -> None:
    """CR 601.2: move to the stack, choose targets and X, pay the total cost."""
    s = t.s
    m = require_priority(s, cmd.player, cmd.marker)
    o = s.objects.get(cmd.card)
    from_zone = CAST_FROM.get(o.zone) if o is not None else None
    if o is None or from_zone is None:
        o = _own_card(s, cmd.player, cmd.card, "hand")
    d = definition(o)
    if "Land" in d.types:
        raise RuleViolation("305.9", f"{o.name} is a land and can't be cast")
    if "Instant" not in d.types and not sorcery_timing_ok(s, m, cmd.player):
        raise RuleViolation("117.1a", f"{o.name} can be cast only in your main phase "
                                      "when the stack is empty")
    cost = parse_cost(d.mana_cost)
    if cmd.x and not cost.x:
        raise InvalidCommand("x", f"{o.name} has no X in its cost")
    specs = spell_targets(d)
    chosen = check_choice(s, specs, cmd.targets, cmd.player, o.id)
    same_stack(s, m, chosen)
    n_targets = sum(len(g) for g in chosen)
    extra = from_zone(t, o, cmd.player) if from_zone is not None else 0
    new_id = t.new_id()
    item = t.new_id()
    t.emit(ev.SpellCast(player=cmd.player, obj=o.id, new_id=new_id, item=item,
                        marker=m.number, targets=[list(g) for g in chosen], x=cmd.x,
                        rule="601.2"))
    pay(t, cmd.player, spell_cost(d, cmd.x, n_targets).plus_generic(extra), cmd.pay)
    if choices.modal(d) is not None:  # CR 601.2b, 700.2: the mode is chosen
        choices.ask_mode(t, t.s.markers[m.number], t.s.stack_items[item])
        return
    queue_priority(t, m.number, cmd.player)


def same_stack(s: GameState, m: Marker, chosen: Sequence[Sequence[Ref]]) -> None:
    """CR 807.5b: a spell that targets an object on a stack goes on that stack, and can't
    target objects on several stacks."""
    for group in chosen:
        for oid in objects_of(group):
            item = next((i for i in s.stack_items.values() if i.obj == oid), None)
            if item is not None and item.marker != m.number:
                raise RuleViolation("807.5b", "a spell must go on the stack of the spell "
                                              f"it targets (stack {item.marker})")


def _ability(o: Obj, index: int) -> ActivatedAbility | EquipAbility:
    abilities = definition(o).abilities
    if not 0 <= index < len(abilities):
        raise InvalidCommand("ability", f"{o.name} has no ability {index}")
    ab = abilities[index]
    if not isinstance(ab, ActivatedAbility | EquipAbility):
        raise RuleViolation("602.1", f"ability {index} of {o.name} is not an activated ability")
    return ab


def is_mana_ability(ab: ActivatedAbility | EquipAbility) -> bool:
    """CR 605.1a: no target, could add mana, not a loyalty ability."""
    return (isinstance(ab, ActivatedAbility) and not ab.targets
            and not planeswalkers.is_loyalty_ability(ab)
            and any(isinstance(e, AddMana) or MANA_OF_A_COLOR[type(e)] for e in ab.effects))


@handles(ActivateAbility)
def activate_ability(t: Txn, cmd: ActivateAbility) -> None:
    """CR 602.2: announce, choose targets, pay costs; mana abilities resolve at once
    (CR 605.3)."""
    s = t.s
    m = require_priority(s, cmd.player, cmd.marker)
    o = s.objects.get(cmd.source)
    if o is not None and o.zone in ("hand", "command"):
        _from_hand(t, cmd, o)
        return
    o = _activatable(s, cmd, o)
    if cmd.ability == len(definition(o).abilities):
        deploy(t, cmd, m, o)
        return
    ab = _ability(o, cmd.ability)
    if is_mana_ability(ab):
        if not can_tap_for_cost(s, o):
            raise RuleViolation("302.6", f"{o.name} can't be tapped now")
        made = None  # a mana cost of a mana ability is paid as it is activated (602.2b)
        if isinstance(ab, ActivatedAbility) and ab.cost.mana:  # Skycloud Expanse
            pay(t, cmd.player, parse_cost(ab.cost.mana), cmd.pay)
            made = next(e.mana for e in ab.effects if isinstance(e, AddMana))
        activate_mana_ability(t, cmd.player, o, made, marker=m.number)
        return
    chosen = _equip_targets(s, m, cmd, o) if isinstance(ab, EquipAbility) else \
        _ability_targets(s, m, cmd, o, ab)
    if ab.cost.tap and not can_tap_for_cost(s, o):
        rule = "302.6" if is_creature(o) and not o.tapped else "602.2b"
        raise RuleViolation(rule, f"{o.name} can't be tapped to pay this cost")
    half = life.half_rounded_up(t, cmd.player) if isinstance(
        ab, ActivatedAbility) and ab.cost.pay_half_life else 0
    if isinstance(ab, ActivatedAbility) and ab.cost.sacrifice and not sacrifice_candidates(
            s, cmd.player, ab.cost.sacrifice):
        raise RuleViolation("118.3", f"{cmd.player} has no {ab.cost.sacrifice} to sacrifice")
    forbidden = life.can_pay(s, cmd.player, half)
    if forbidden is not None:  # 119.8, 810.9h: only 0 life can be paid
        raise RuleViolation(forbidden, f"{cmd.player} can't pay {half} life")
    _activated(t, m, cmd, o, ab, chosen, half)


def _activatable(s: GameState, cmd: ActivateAbility, o: Obj | None) -> Obj:
    """The permanent, if `cmd.player` may activate its abilities: 602.2, only the
    controller, unless "any player may activate this ability" (Flailing Soldier) - and
    then only a player within range (801.6); 701.35a, not while detained."""
    if o is None or o.zone != "battlefield":
        raise InvalidCommand("source", f"no permanent {cmd.source}")
    abilities = definition(o).abilities
    asked = abilities[cmd.ability] if 0 <= cmd.ability < len(abilities) else None
    anyone = isinstance(asked, ActivatedAbility) and asked.any_player
    if o.controller != cmd.player and not anyone:
        raise RuleViolation("602.2", f"{cmd.player} doesn't control {o.name}")
    if not object_in_range(s, cmd.player, o):
        raise RuleViolation("801.6", f"{o.name} is outside {cmd.player}'s range of influence")
    if any(f.kind == "detain" and o.id in f.affected for f in s.effects):
        raise RuleViolation("701.35a", f"{o.name} is detained: its activated abilities "
                                       "can't be activated")
    return o


def _equip_targets(s: GameState, m: Marker, cmd: ActivateAbility, o: Obj
                   ) -> tuple[tuple[Ref, ...], ...]:
    """CR 702.6a: equip only as a sorcery, targeting a creature you control."""
    if not sorcery_timing_ok(s, m, cmd.player):
        raise RuleViolation("702.6a", "equip only as a sorcery")
    chosen = check_choice(s, (TargetSpec(kind="creature"),), cmd.targets, cmd.player, o.id)
    target = s.objects[objects_of(chosen[0])[0]]
    if target.controller != cmd.player:
        raise RuleViolation("702.6a", "equip targets a creature you control")
    return chosen


def _ability_targets(s: GameState, m: Marker, cmd: ActivateAbility, o: Obj,
                     ab: ActivatedAbility) -> tuple[tuple[Ref, ...], ...]:
    """The timing rules of the ability (606.3 and 606.6 for loyalty abilities, 602.5d,
    602.5), then its targets (602.2b, 115)."""
    if planeswalkers.is_loyalty_ability(ab):  # 606.3, 606.6
        planeswalkers.check_loyalty(s, m, cmd.player, o, ab)
    if ab.sorcery_speed and not sorcery_timing_ok(s, m, cmd.player):
        raise RuleViolation("602.5d", "this ability is activated only as a sorcery")
    if not activation_timing_ok(s, m, cmd.player, ab):
        raise RuleViolation("602.5", "activate only during an opponent's turn and only "
                                     "before combat")
    return check_choice(s, ab.targets, cmd.targets, cmd.player, o.id)


def _activated(t: Txn, m: Marker, cmd: ActivateAbility, o: Obj,
               ab: ActivatedAbility | EquipAbility, chosen: tuple[tuple[Ref, ...], ...],
               half: int) -> None:
    """The ability goes on the stack and its costs are paid (602.2, 602.2b): tapping,
    loyalty (606.4), life (119.4; 810.9a: half the team's total in 2HG), mana; then a
    permanent to sacrifice, if the cost says so (a decision, 118.3)."""
    item = t.new_id()
    t.emit(ev.AbilityActivated(player=cmd.player, source=o.id, ability=cmd.ability,
                               item=item, marker=m.number,
                               targets=[list(g) for g in chosen], rule="602.2"))
    if ab.cost.tap:
        t.emit(ev.PermanentTapped(obj=o.id, rule="602.2b"))
    if isinstance(ab, ActivatedAbility):
        planeswalkers.pay_loyalty(t, o, ab)  # 606.4
    if half:
        life.lose(t, cmd.player, half, "119.4")
    pay(t, cmd.player, parse_cost(ab.cost.mana), cmd.pay)
    sacrifice = ab.cost.sacrifice if isinstance(ab, ActivatedAbility) else None
    if sacrifice and SACRIFICE_COST.value(t, m, cmd.player, item, sacrifice):
        return
    queue_priority(t, m.number, cmd.player)


def _from_hand(t: Txn, cmd: ActivateAbility, o: Obj) -> None:
    """An ability that functions in its owner's hand (113.6, e.g. cycling 702.29a), or
    in the command zone (113.6, 902.7: a vanguard's)."""
    abilities = definition(o).abilities
    ab = abilities[cmd.ability] if 0 <= cmd.ability < len(abilities) else None
    activate = (HAND_ABILITIES if o.zone == "hand" else COMMAND_ABILITIES).get(type(ab))
    if activate is None:
        raise RuleViolation("113.6", f"{o.name} can't be activated from the hand: its "
                                     "abilities function on the battlefield")
    activate(t, cmd)


def deploy(t: Txn, cmd: ActivateAbility, m: Marker, o: Obj) -> None:
    """CR 804.2: each creature has "{T}: Target teammate gains control of this
    creature. Activate only as a sorcery." (the deploy creatures option)."""
    s = t.s
    if not (s.deploy_creatures and is_creature(o)):
        raise InvalidCommand("ability", f"{o.name} has no ability {cmd.ability}")
    if not sorcery_timing_ok(s, m, cmd.player):
        raise RuleViolation("804.2", "deploy only as a sorcery")
    group = cmd.targets[0] if len(cmd.targets) == 1 else []
    mates = [player_ref(p) for p in teammates(s, cmd.player)
             if player_in_range(s, cmd.player, p)]
    if len(group) != 1 or group[0] not in mates:
        raise RuleViolation("804.2", "deploy targets one teammate")
    if not can_tap_for_cost(s, o):
        raise RuleViolation("302.6", f"{o.name} can't be tapped to pay this cost")
    t.emit(ev.AbilityActivated(player=cmd.player, source=o.id, ability=cmd.ability,
                               item=t.new_id(), marker=m.number, targets=[group],
                               rule="804.2"))
    t.emit(ev.PermanentTapped(obj=o.id, rule="602.2b"))
    queue_priority(t, m.number, cmd.player)


@applies(ev.LandPlayed)
def _land_played(s: GameState, e: ev.LandPlayed) -> None:
    p = s.players[e.player]
    set_player(s, e.player, lands_played=p.lands_played + 1)
    move(s, e.obj, e.new_id, "battlefield", e.player)


@applies(ev.SpellCast)
def _spell_cast(s: GameState, e: ev.SpellCast) -> None:
    move(s, e.obj, e.new_id, "stack", e.player)
    push(s, StackItem(id=e.item, kind="spell", controller=e.player, marker=e.marker,
                      obj=e.new_id, source_name=s.objects[e.new_id].name,
                      targets=ref_groups(e.targets), x=e.x))


@applies(ev.AbilityActivated)
def _ability_activated(s: GameState, e: ev.AbilityActivated) -> None:
    src = s.objects[e.source]
    push(s, StackItem(id=e.item, kind="activated", controller=e.player, marker=e.marker,
                      source=e.source, source_name=src.name, ability=e.ability,
                      targets=ref_groups(e.targets)))
    if planeswalkers.activated_loyalty(src, e.ability):  # 606.3: once each turn
        ml = s.markers[e.marker]
        set_marker(s, e.marker, loyalty_used=(*ml.loyalty_used, e.source))


@ability_effects(RULES_ABILITY)
def _deploy_meaning(item: StackItem) -> Meaning:
    """The ability the deploy creatures option gives each creature (804.2)."""
    return (TargetSpec(kind="player"),), (GainControl(subject="target"),)


@explains(ev.LandPlayed)
def _explain_land_played(before: GameState, e: ev.LandPlayed, name: Namer) -> str:
    return f"{e.player} plays {name(e.new_id)}"


@explains(ev.SpellCast)
def _explain_spell_cast(before: GameState, e: ev.SpellCast, name: Namer) -> str:
    x = f" with X={e.x}" if e.x else ""
    return f"{e.player} casts {name(e.new_id)}{x}{targets_text(name, e.targets)}"


@explains(ev.AbilityActivated)
def _explain_ability_activated(before: GameState, e: ev.AbilityActivated, name: Namer) -> str:
    return (f"{e.player} activates {name(e.source)} ability {e.ability}"
            f"{targets_text(name, e.targets)}")
