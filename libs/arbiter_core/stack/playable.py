"""What a player holding priority may play (CR 117.1): lands and spells from the hand
(305, 601; sorcery timing, 307.1, 117.1a), and the activated abilities of permanents they
control (602; mana abilities 605, equip 702.6a, loyalty abilities 606.3, deploy 804.2).

For choices whose space is combinatorial (targets, X), a representative set is listed:
every combination of single legal targets, and each X from 1 up to the mana available
(at most `MAX_X`); `decide` validates any other by the same rules.
"""

from __future__ import annotations

from itertools import product

from arbiter_core.card_types.planeswalkers import can_activate as can_activate_loyalty
from arbiter_core.card_types.planeswalkers import is_loyalty_ability
from arbiter_core.cards.model import ActivatedAbility, CardDefinition, EquipAbility, TargetSpec
from arbiter_core.kernel.actions import priority_actions
from arbiter_core.kernel.commands import (
    ActivateAbility,
    CastSpell,
    PlayerCommand,
    PlayLand,
)
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.refs import Ref, objects_of, player_ref
from arbiter_core.kernel.state import GameState, Marker, Obj
from arbiter_core.layers.characteristics import definition, is_creature
from arbiter_core.multiplayer.influence import player_in_range
from arbiter_core.multiplayer.seating import teammates
from arbiter_core.stack.casting import (
    activation_timing_ok,
    is_mana_ability,
    may_play_land,
    sacrifice_candidates,
    same_stack,
    sorcery_timing_ok,
    spell_cost,
)
from arbiter_core.stack.items import spell_targets
from arbiter_core.stack.mana import (
    can_pay,
    can_tap_for_cost,
    choice_sources,
    parse_cost,
    untapped_sources,
)
from arbiter_core.stack.targets import candidates

MAX_X = 10
Targets = list[list[Ref]]


def target_choices(s: GameState, specs: tuple[TargetSpec, ...], player: str,
                   source: int) -> list[Targets]:
    per_spec = [[[c] for c in candidates(s, spec, player, source)] for spec in specs]
    return [list(combo) for combo in product(*per_spec)]


def _goes_on_this_stack(s: GameState, m: Marker, targets: Targets) -> bool:
    """CR 807.5b: a spell that targets a spell on a stack can be cast only onto that
    stack (in Grand Melee a target may be on another marker's stack)."""
    try:
        same_stack(s, m, tuple(tuple(group) for group in targets))
    except RuleViolation:
        return False
    return True


@priority_actions(order=10)
def hand_actions(s: GameState, m: Marker, player: str) -> list[PlayerCommand]:
    """Lands to play and spells to cast from the player's hand, in the hand's order."""
    out: list[PlayerCommand] = []
    main = sorcery_timing_ok(s, m, player)
    mana_now = (len(s.players[player].mana) + sum(len(x) for _, x in untapped_sources(s, player))
                + len(choice_sources(s, player)))
    for oid in s.zone(player, "hand"):
        d = definition(s.objects[oid])
        if "Land" in d.types:
            if main and may_play_land(s, player):
                out.append(PlayLand(player=player, card=oid, marker=m.number))
            continue
        if "Instant" not in d.types and not main:
            continue
        out += _casts(s, m, player, oid, d, mana_now)
    return out


def _casts(s: GameState, m: Marker, player: str, oid: int, d: CardDefinition,
           mana_now: int) -> list[PlayerCommand]:
    cost = parse_cost(d.mana_cost)
    xs = range(1, max(1, min(MAX_X, mana_now - cost.total)) + 1) if cost.x else [0]
    out: list[PlayerCommand] = []
    for targets in target_choices(s, spell_targets(d), player, oid):
        if not _goes_on_this_stack(s, m, targets):
            continue
        n_targets = sum(len(g) for g in targets)
        for x in xs:
            if can_pay(s, player, spell_cost(d, x, n_targets)):
                out.append(CastSpell(player=player, card=oid, targets=targets, x=x,
                                     marker=m.number))
    return out


@priority_actions(order=30)
def permanent_actions(s: GameState, m: Marker, player: str) -> list[PlayerCommand]:
    """The activated abilities of the player's permanents, in battlefield order; with the
    deploy creatures option, each creature's deploy ability (804.2)."""
    out: list[PlayerCommand] = []
    main = sorcery_timing_ok(s, m, player)
    for o in s.permanents(player):
        for i, ab in enumerate(definition(o).abilities):
            if isinstance(ab, ActivatedAbility | EquipAbility):
                out += _activations(s, m, player, o, i, ab, main)
        if s.deploy_creatures and main and is_creature(o) and can_tap_for_cost(s, o):
            for mate in teammates(s, player):  # CR 804.2
                if player_in_range(s, player, mate):
                    out.append(ActivateAbility(
                        player=player, source=o.id, ability=len(definition(o).abilities),
                        targets=[[player_ref(mate)]], marker=m.number))
    return out


def _activations(s: GameState, m: Marker, player: str, o: Obj, i: int,
                 ab: ActivatedAbility | EquipAbility, main: bool) -> list[PlayerCommand]:
    if ab.cost.tap and not can_tap_for_cost(s, o):
        return []
    if is_mana_ability(ab):
        return [ActivateAbility(player=player, source=o.id, ability=i, marker=m.number)]
    if isinstance(ab, EquipAbility):
        if not main:
            return []
        specs: tuple[TargetSpec, ...] = (TargetSpec(kind="creature"),)
        choices = [c for c in target_choices(s, specs, player, o.id)
                   if s.objects[objects_of(c[0])[0]].controller == player
                   and objects_of(c[0])[0] != o.attached_to]
    else:
        if (ab.sorcery_speed and not main) or not activation_timing_ok(s, m, player, ab):
            return []
        if is_loyalty_ability(ab) and not can_activate_loyalty(s, m, player, o, ab):
            return []  # 606.3, 606.6
        choices = target_choices(s, ab.targets, player, o.id)
    if not can_pay(s, player, parse_cost(ab.cost.mana)):
        return []
    if isinstance(ab, ActivatedAbility) and ab.cost.sacrifice and not sacrifice_candidates(
            s, player, ab.cost.sacrifice):
        return []  # 118.3: nothing to sacrifice
    return [ActivateAbility(player=player, source=o.id, ability=i, targets=targets,
                            marker=m.number) for targets in choices]
