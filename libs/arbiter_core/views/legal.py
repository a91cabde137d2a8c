"""`legal_actions(state, player)`: what a player may do now.

Every command listed here is accepted by `decide` (a property test checks it). For
choices whose space is combinatorial (which creatures attack or block, how a Fireball
is split), a representative set is listed: none, each single choice, and all at once;
`decide` validates any other combination by the same rules.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import product

from arbiter_core.card_types.planeswalkers import can_activate as can_activate_loyalty
from arbiter_core.card_types.planeswalkers import is_loyalty_ability
from arbiter_core.cards.model import ActivatedAbility, EquipAbility, TargetSpec
from arbiter_core.combat import requirements
from arbiter_core.combat.banding import has_banding
from arbiter_core.combat.damage import default_assignment
from arbiter_core.combat.declare import can_block, check_attack, could_attack, targets_for
from arbiter_core.effects import payments
from arbiter_core.kernel.commands import (
    ActivateAbility,
    AssignCombatDamage,
    CastSpell,
    ChooseObjects,
    ChooseOption,
    Concede,
    DeclareAttackers,
    DeclareBlockers,
    PassPriority,
    PlayerCommand,
    PlayLand,
)
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.memo import Pinned
from arbiter_core.kernel.state import Decision, GameState, Marker, Priority
from arbiter_core.keywords import cycling
from arbiter_core.layers.characteristics import definition, is_creature
from arbiter_core.multiplayer.influence import player_in_range
from arbiter_core.stack.casting import (
    _same_stack,
    activation_timing_ok,
    is_mana_ability,
    sorcery_timing_ok,
    spell_cost,
    spell_targets,
)
from arbiter_core.stack.mana import can_pay, can_tap_for_cost, parse_cost, untapped_sources
from arbiter_core.stack.priority import holds_priority
from arbiter_core.stack.targets import candidates
from arbiter_core.variants.base import teammates

MAX_X = 10
TEAM_DECISIONS = ("declare_attackers", "declare_blockers", "assign_combat_damage")


def legal_actions(s: GameState, player: str) -> list[PlayerCommand]:
    with Pinned(s):  # a query: facts about the state are kept while it runs (memo.py)
        return _legal_actions(s, player)


def _legal_actions(s: GameState, player: str) -> list[PlayerCommand]:
    if s.game_over or player not in s.players or s.players[player].left:
        return []
    out: list[PlayerCommand] = []
    for m in s.markers.values():
        p = m.pending
        # 805.5a: with shared team turns any player of the team may act for it.
        if isinstance(p, Priority) and holds_priority(s, m, player):
            out.extend(_priority_actions(s, m, player))
        elif isinstance(p, Decision) and (p.player == player or (
                s.shared_team_turns and p.kind in TEAM_DECISIONS
                and s.players[p.player].team == s.players[player].team)):
            out.extend(_decision_actions(s, m, replace(p, player=player)))
    out.append(Concede(player=player))
    return out


def _target_choices(s: GameState, specs: tuple[TargetSpec, ...], player: str,
                    source: int) -> list[list[list[str]]]:
    per_spec = [[[c] for c in candidates(s, spec, player, source)] for spec in specs]
    return [list(combo) for combo in product(*per_spec)]


def _goes_on_this_stack(s: GameState, m: Marker, targets: list[list[str]]) -> bool:
    """CR 807.5b: a spell that targets a spell on a stack can be cast only onto that
    stack (in Grand Melee a target may be on another marker's stack)."""
    try:
        _same_stack(s, m, tuple(tuple(group) for group in targets))
    except RuleViolation:
        return False
    return True


def _priority_actions(s: GameState, m: Marker, player: str) -> list[PlayerCommand]:
    out: list[PlayerCommand] = [PassPriority(player=player, marker=m.number)]
    main = sorcery_timing_ok(s, m, player)
    mana_now = len(s.players[player].mana) + sum(len(x) for _, x in untapped_sources(s, player))
    for oid in s.zone(player, "hand"):
        d = definition(s.objects[oid])
        if "Land" in d.types:
            if main and s.players[player].lands_played < 1:
                out.append(PlayLand(player=player, card=oid, marker=m.number))
            continue
        if "Instant" not in d.types and not main:
            continue
        cost = parse_cost(d.mana_cost)
        xs = range(1, max(1, min(MAX_X, mana_now - cost.total)) + 1) if cost.x else [0]
        for targets in _target_choices(s, spell_targets(d), player, oid):
            if not _goes_on_this_stack(s, m, targets):
                continue
            n_targets = sum(len(g) for g in targets)
            for x in xs:
                if can_pay(s, player, spell_cost(d, x, n_targets)):
                    out.append(CastSpell(player=player, card=oid, targets=targets, x=x,
                                         marker=m.number))
    out += cycling.actions(s, player, m.number)  # 702.29a: from the hand
    for o in s.permanents(player):
        for i, ab in enumerate(definition(o).abilities):
            if not isinstance(ab, ActivatedAbility | EquipAbility):
                continue
            if ab.cost.tap and not can_tap_for_cost(s, o):
                continue
            if is_mana_ability(ab):
                out.append(ActivateAbility(player=player, source=o.id, ability=i,
                                           marker=m.number))
                continue
            if isinstance(ab, EquipAbility):
                if not main:
                    continue
                specs: tuple[TargetSpec, ...] = (TargetSpec(kind="creature"),)
                choices = [c for c in _target_choices(s, specs, player, o.id)
                           if s.objects[int(c[0][0][2:])].controller == player
                           and s.objects[int(c[0][0][2:])].id != o.attached_to]
            else:
                if (ab.sorcery_speed and not main) or not activation_timing_ok(s, m, player, ab):
                    continue
                if is_loyalty_ability(ab) and not can_activate_loyalty(s, m, player, o, ab):
                    continue  # 606.3, 606.6
                choices = _target_choices(s, ab.targets, player, o.id)
            if not can_pay(s, player, parse_cost(ab.cost.mana)):
                continue
            for targets in choices:
                out.append(ActivateAbility(player=player, source=o.id, ability=i,
                                           targets=targets, marker=m.number))
        if s.deploy_creatures and main and is_creature(o) and can_tap_for_cost(s, o):
            for mate in teammates(s, player):  # CR 804.2
                if player_in_range(s, player, mate):
                    out.append(ActivateAbility(
                        player=player, source=o.id, ability=len(definition(o).abilities),
                        targets=[[f"p:{mate}"]], marker=m.number))
    return out


def _decision_actions(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    player = d.player
    match d.kind:
        case "declare_attackers":
            return _attack_declarations(s, m, player, list(d.options))
        case "declare_blockers":
            out: list[PlayerCommand] = [DeclareBlockers(player=player, marker=m.number)]
            combat = m.combat
            attackers = combat.attacker_ids() if combat else []
            for b in d.options:
                for a in attackers:
                    if a in s.objects and can_block(s, s.objects[b], s.objects[a], player, m):
                        out.append(DeclareBlockers(player=player, blocks=[(b, a)],
                                                   marker=m.number))
            return out
        case "assign_combat_damage":
            plan = {a: default_assignment(s, m, s.objects[a]) for a in d.options}
            return [AssignCombatDamage(player=player, assignments=plan, marker=m.number)]
        case "legend_rule":
            return [ChooseObjects(player=player, choices=[o], marker=m.number)
                    for o in d.options]
        case "search":
            picks = [[o] for o in d.options[:3]] + [[]]
            return [ChooseObjects(player=player, choices=c, marker=m.number) for c in picks]
        case "choose_mode":
            return [ChooseOption(player=player, option=c, marker=m.number) for c in d.choices]
        case "pay_life_for":  # none, or each creature alone if the life can be paid
            picks = [[]] + [[o] for o in d.options if payments.refusal(s, d, [o]) is None]
            return [ChooseObjects(player=player, choices=c, marker=m.number) for c in picks]
        case "choose_color":
            return [ChooseOption(player=player, option=c, marker=m.number) for c in d.choices]
        case "choose_team_member" | "choose_opponent" | "choose_active_player":
            return [ChooseOption(player=player, option=c, marker=m.number) for c in d.choices]
        case "choose_card":
            return [ChooseObjects(player=player, choices=[o], marker=m.number)
                    for o in d.options]
        case "proliferate":
            # none, or every permanent offered and one player of each team (701.34b)
            one_each = list({s.players[p].team: p for p in reversed(d.choices)}.values())
            return [ChooseObjects(player=player, choices=[], marker=m.number),
                    ChooseObjects(player=player, choices=list(d.options),
                                  players=sorted(one_each), marker=m.number)]
        case "redistribute":
            return [ChooseOption(player=player, option="", marker=m.number)]  # nobody
        case "choose_copy":  # 707.5: each creature, or none
            return [ChooseObjects(player=player, choices=c, marker=m.number)
                    for c in [*([o] for o in d.options), []]]
        case "choose_targets":  # 603.3d: each legal target alone (or none when allowed)
            tpicks: list[tuple[list[int], list[str]]] = [([o], []) for o in d.options]
            tpicks += [([], [p]) for p in d.choices]
            if not d.min_count:
                tpicks.append(([], []))
            return [ChooseObjects(player=player, choices=c, players=ps, marker=m.number)
                    for c, ps in tpicks]
        case "you_may":  # 603.5: yes or no
            return [ChooseOption(player=player, option=c, marker=m.number) for c in d.choices]
        case "pay_or_not":
            return [ChooseOption(player=player, option="decline", marker=m.number)]
        case "discard":
            opts = list(d.options)
            windows = {tuple(opts[i:i + d.count]) for i in range(len(opts) - d.count + 1)}
            return [ChooseObjects(player=player, choices=list(w), marker=m.number)
                    for w in sorted(windows)]
    return []


def _attack_declarations(s: GameState, m: Marker, player: str,
                         options: list[int]) -> list[PlayerCommand]:
    """Representative declarations (none, each creature alone, everyone at one player,
    a band of every creature with banding and one without, the creatures that obey the
    most requirements), keeping only the legal ones (508.1c-d, 702.22c-d)."""
    can_hit = {oid: targets_for(s, s.objects[oid]) for oid in options}
    can_hit = {oid: ps for oid, ps in can_hit.items() if ps}
    candidates: list[tuple[list[tuple[int, str]], list[list[int]]]] = [([], [])]
    for oid, targets in can_hit.items():
        candidates += [([(oid, target)], []) for target in targets]
    defenders = sorted({p for ps in can_hit.values() for p in ps})
    if len(can_hit) > 1:
        for target in defenders:
            # everyone at `target`, or at their own first choice if they can't
            candidates.append(([(oid, target if target in ps else ps[0])
                                for oid, ps in can_hit.items()], []))
    banders = [oid for oid in can_hit if has_banding(s, s.objects[oid])]
    others = [oid for oid in can_hit if oid not in banders]
    for target in defenders:
        band = [oid for oid in banders + others[:1] if target in can_hit[oid]]
        if len(band) > 1 and any(oid in banders for oid in band):
            candidates.append(([(oid, target) for oid in band], [band]))
    required = requirements.required_attackers(s, m.holder, could_attack(s, m))
    if required:
        candidates.append(([(o.id, can_hit[o.id][0]) for o in required if o.id in can_hit],
                           []))
    out: list[PlayerCommand] = []
    for attacks, bands in candidates:
        try:
            check_attack(s, m, attacks, bands)
        except RuleViolation:
            continue
        out.append(DeclareAttackers(player=player, attacks=attacks, bands=bands,
                                    marker=m.number))
    return out
