"""Scenario actions turned into commands, and `pass_until` (docs/scenarios.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arbiter_core.kernel.commands import (
    ActivateAbility,
    AssignCombatDamage,
    CastFaceDown,
    CastSpell,
    ChooseObjects,
    ChooseOption,
    Command,
    Concede,
    DeclareAttackers,
    DeclareBlockers,
    PassPriority,
    PlayLand,
    TurnFaceUp,
)
from arbiter_core.kernel.errors import ArbiterError
from arbiter_core.kernel.refs import ObjectRef, PlayerRef, Ref, object_ref, player_ref
from arbiter_core.kernel.state import Decision, Marker
from arbiter_core.layers.characteristics import definition
from arbiter_core.stack.items import spell_targets
from arbiter_core.stack.targets import is_legal
from arbiter_scenarios import casual
from arbiter_scenarios.names import NameError_
from arbiter_scenarios.passing import ActionFailed as ActionFailed
from arbiter_scenarios.passing import pass_until

if TYPE_CHECKING:
    from arbiter_scenarios.runner import Run

UNSUPPORTED: set[str] = set()
KNOWN = {"player", "play_land", "cast", "cast_face_down", "turn_face_up", "targets", "pay",
         "x", "stack", "activate", "ability", "sacrifice", "pass", "pass_until", "marker", "attack",
         "bands", "block", "assign_combat_damage", "choose", "concede", "expect_rejected",
         "mulligan", "keep", "roll_planar_die", *UNSUPPORTED}

def perform(run: Run, action: dict[str, Any], where: str) -> None:
    unknown = set(action) - KNOWN
    if unknown:
        raise ActionFailed(f"{where}: unknown action key(s) {sorted(unknown)}")
    if "pass_until" in action:
        marker = action.get("marker")
        pass_until(run, str(action["pass_until"]), where,
                    int(marker) if marker is not None else None)
        return
    if UNSUPPORTED & set(action):
        raise ActionFailed(f"{where}: {sorted(UNSUPPORTED & set(action))} not supported yet")
    player = action.get("player")
    if not isinstance(player, str) or player not in run.state.players:
        raise ActionFailed(f"{where}.player: no player named {player!r}")
    expect_rejected = bool(action.get("expect_rejected", False))
    run.settle()
    run.action_turn = run.state.turns_taken
    try:
        command = _command(run, player, action)
        if command is not None:
            run.execute(command)
    except (ArbiterError, NameError_) as e:
        run.last_rejected, run.last_reason = True, str(e)
        if not expect_rejected:
            raise ActionFailed(f"{where}: rejected: {e}") from None
        return
    run.last_rejected, run.last_reason = False, ""
    if expect_rejected:
        raise ActionFailed(f"{where}: expected a rejection, but the action was accepted")
    run.settle()


def _card_in(run: Run, player: str, ref: str, zone: str) -> int:
    found = run.names.in_zone(run.state, ref, zone, owner=player)
    if not found:
        raise NameError_(f"{player} has no {ref} in {zone}")
    return found[0].id


def _cast_card(run: Run, player: str, ref: str) -> int:
    """A card in the player's hand, else their commander in the command zone (903.8)."""
    try:
        return _card_in(run, player, ref, "hand")
    except NameError_:
        found = run.names.in_zone(run.state, ref, "command", owner=player)
        if not found:
            raise
        return found[0].id


def _permanent(run: Run, player: str, ref: str, team: bool = False) -> int:
    """A permanent the player controls; with `team` (shared team turns, 805.10b/d) one
    a teammate controls will do too."""
    s = run.state
    found = run.names.in_zone(s, ref, "battlefield", controller=player)
    if not found and team and s.shared_team_turns:
        found = [o for o in run.names.in_zone(s, ref, "battlefield")
                 if s.players[o.controller].team == s.players[player].team]
    if not found:
        raise NameError_(f"{player} controls no {ref}")
    return found[0].id


def _activated_source(run: Run, player: str, ref: str) -> int:
    """The permanent whose ability `player` activates: one they control, else any
    permanent of that name ("any player may activate this ability"; the engine judges
    whether they may, 602.2, 801.6), else a card in their hand (cycling, 702.29a)."""
    try:
        return _permanent(run, player, ref)
    except NameError_:
        found = run.names.in_zone(run.state, ref, "battlefield")
        for zone in ("hand", "command"):  # cycling 702.29a; a vanguard's, 902.7
            found = found or run.names.in_zone(run.state, ref, zone, owner=player)
        if not found:
            raise
        return found[0].id


def _targets(run: Run, player: str, refs: list[Any], card: int) -> list[list[Ref]]:
    s = run.state
    specs = spell_targets(definition(s.objects[card])) if card in s.objects else ()
    spec = specs[0] if specs else None
    chosen: list[Ref] = []
    for ref in refs:
        options = [t for t in run.names.target(s, ref) if t not in chosen]
        legal = [t for t in options if spec is not None and is_legal(s, spec, player, t, card)]
        chosen.append((legal or options)[0])
    if len(specs) > 1 and len(chosen) == len(specs):
        return [[c] for c in chosen]  # one target for each "target" (Captain's Maneuver)
    return [chosen] if specs or chosen else []


def _sources(run: Run, player: str, refs: list[Any]) -> list[int]:
    out: list[int] = []
    for ref in refs:
        found = [o for o in run.names.in_zone(run.state, str(ref), "battlefield",
                                              controller=player)
                 if o.id not in out and not o.tapped]
        if not found:
            raise NameError_(f"{player} has no untapped {ref} to pay with")
        out.append(found[0].id)
    return out


def _command(run: Run, player: str, a: dict[str, Any]) -> Command | None:
    s = run.state
    pay = _sources(run, player, list(a["pay"])) if "pay" in a else None
    marker = int(a["stack"]) if "stack" in a else None
    if "cast_face_down" in a or "turn_face_up" in a:
        return _morph(run, player, a, pay, marker)
    if "play_land" in a:
        return PlayLand(player=player, card=_card_in(run, player, str(a["play_land"]), "hand"),
                        marker=marker)
    if "cast" in a:
        card = _cast_card(run, player, str(a["cast"]))
        return CastSpell(player=player, card=card, x=int(a.get("x", 0)), pay=pay,
                         targets=_targets(run, player, list(a.get("targets", [])), card),
                         marker=marker)
    if "activate" in a:
        source = _activated_source(run, player, str(a["activate"]))
        refs = list(a.get("targets", []))
        targets = [[t for ref in refs for t in run.names.target(s, ref)[:1]]] if refs else []
        sacrifice = [_permanent(run, player, str(r)) for r in a["sacrifice"]] \
            if "sacrifice" in a else None
        return ActivateAbility(player=player, source=source, ability=int(a.get("ability", 0)),
                               targets=targets, pay=pay, marker=marker, sacrifice=sacrifice)
    if a.get("pass"):
        return PassPriority(player=player, marker=marker)
    if a.get("concede"):
        return Concede(player=player)
    if (casual_command := casual.command(run, player, a)) is not None:
        return casual_command
    if "attack" in a:
        return _attack(run, player, a["attack"] or {}, a.get("bands") or [])
    if "block" in a:
        return _block(run, player, a["block"] or {})
    if "assign_combat_damage" in a:
        return _assign(run, player, a["assign_combat_damage"])
    if "choose" in a:
        return _choose(run, player, a["choose"])
    if a.get("mulligan") or a.get("keep"):  # 103.5, with the option `mulligans: ask`
        if "mulligan" in a and "keep" in a:
            raise NameError_("give one of mulligan and keep")
        return ChooseOption(player=player, option="mulligan" if a.get("mulligan") else "keep")
    raise NameError_("the action does nothing: give one of play_land, cast, cast_face_down, "
                     "turn_face_up, activate, pass, attack, block, assign_combat_damage, "
                     "choose, mulligan, keep, concede")


def _morph(run: Run, player: str, a: dict[str, Any], pay: list[int] | None,
           marker: int | None) -> Command:
    """`cast_face_down: NAME` (702.37c), `turn_face_up: NAME` (702.37e): the card in the
    player's hand; the permanent of that name (anyone's: the engine judges who may)."""
    if "cast_face_down" in a:
        card = _card_in(run, player, str(a["cast_face_down"]), "hand")
        return CastFaceDown(player=player, card=card, pay=pay, marker=marker)
    ref = str(a["turn_face_up"])
    found = run.names.in_zone(run.state, ref, "battlefield")
    if not found:
        raise NameError_(f"no {ref} on the battlefield")
    return TurnFaceUp(player=player, card=found[0].id, pay=pay, marker=marker)


def _decision(run: Run, player: str, kind: str) -> tuple[Marker, Decision] | None:
    s = run.state
    for m in s.markers.values():
        p = m.pending
        if isinstance(p, Decision) and p.kind == kind and (
                p.player == player or (s.shared_team_turns
                                       and s.players[p.player].team == s.players[player].team)):
            return m, p
    return None


def _attack(run: Run, player: str, attacks: dict[str, str],
            bands: list[Any]) -> Command | None:
    """`bands: [[A, B], ...]` beside `attack` declares attacking bands (702.22c), each a
    list of creatures named in `attack` (docs/scenarios.md)."""
    if _decision(run, player, "declare_attackers") is None:
        if not attacks:
            return None  # `{}`: no attackers, accepted even when none could attack
        raise NameError_(f"{player} is not declaring attackers now")
    if not isinstance(bands, list) or not all(isinstance(b, list) for b in bands):
        raise NameError_("bands must be a list of lists of attacking creatures")
    chosen = {str(c): _permanent(run, player, str(c), team=True) for c in attacks}
    for band in bands:
        for ref in band:
            if str(ref) not in chosen:
                raise NameError_(f"{ref} is in a band but not in the attack")
    return DeclareAttackers(player=player,
                            attacks=[(chosen[str(c)], _attacked(run, str(d)))
                                     for c, d in attacks.items()],
                            bands=[[chosen[str(ref)] for ref in band] for band in bands])


def _attacked(run: Run, ref: str) -> str:
    """What a creature attacks: a player's name, or a planeswalker's name on the
    battlefield, declared as "o:<id>" (506.3, 508.1b); the engine judges the rest."""
    if ref in run.state.players:
        return ref
    found = run.names.in_zone(run.state, ref, "battlefield")
    if not found:
        raise NameError_(f"{ref} is neither a player nor a permanent on the battlefield")
    return object_ref(found[0].id)


def _attacker(run: Run, ref: str, blockers_too: bool = False) -> int:
    s = run.state
    ids = [a for m in s.markers.values() if m.combat for a in m.combat.attacker_ids()]
    if blockers_too:  # a blocking creature's damage (510.1d, 702.22k)
        ids += [b for m in s.markers.values() if m.combat for b, _ in m.combat.blocks]
    found = [o.id for o in run.names.objects(s, ref) if o.id in ids]
    if not found:
        raise NameError_(f"{ref} is not {'in combat' if blockers_too else 'attacking'}")
    return found[0]


def _block(run: Run, player: str, blocks: dict[str, str]) -> Command | None:
    if _decision(run, player, "declare_blockers") is None:
        if not blocks:
            return None
        raise NameError_(f"{player} is not declaring blockers now")
    return DeclareBlockers(player=player, blocks=[
        (_permanent(run, player, str(b), team=True), _attacker(run, str(a)))
        for b, a in blocks.items()])


def _assign(run: Run, player: str, spec: dict[str, dict[str, int]]) -> Command:
    s = run.state
    out: dict[int, dict[Ref, int]] = {}
    for attacker, split in spec.items():
        aid = _attacker(run, str(attacker), blockers_too=True)
        out[aid] = {}
        for recipient, n in split.items():
            if str(recipient) in s.players:
                out[aid][player_ref(recipient)] = int(n)
            else:
                objs = [o for o in run.names.in_zone(s, str(recipient), "battlefield")]
                if not objs:
                    raise NameError_(f"no {recipient} to assign damage to")
                out[aid][object_ref(objs[0].id)] = int(n)
    return AssignCombatDamage(player=player, assignments=out)


def _choose(run: Run, player: str, value: Any) -> Command:
    s = run.state
    pending = [p for m in s.markers.values() for p in [m.pending]
               if isinstance(p, Decision) and (p.player == player or (
                   s.shared_team_turns and s.players[p.player].team == s.players[player].team))]
    if not pending:
        raise NameError_(f"{player} has no decision to make")
    d = pending[0]
    if isinstance(value, bool):  # YAML reads an unquoted yes / no as a boolean
        value = "yes" if value else "no"
    if value is None or (value == "none" and "none" not in d.choices):
        # declines an optional choice with no yes/no form (707.5: copy nothing)
        return ChooseObjects(player=player, choices=[])
    refs = value if isinstance(value, list) else [value]
    if d.kind == "order_triggers":  # 603.3b: each waiting trigger by its source's name
        return ChooseObjects(player=player, choices=_trigger_order(run, d, refs))
    if d.kind == "order_copies":  # 707.10d: each copy by its target, the first first
        return ChooseObjects(player=player, choices=_copy_order(run, d, refs))
    if d.kind == "replacement_order":  # 616.1: "double", "half", "redirect to X"
        return ChooseOption(player=player, option=_replacement(run, d, str(value)))
    if d.kind == "proliferate":  # players by name, permanents by reference (701.34a)
        players = [str(r) for r in refs if str(r) in s.players]
        objs = [o.id for r in refs if str(r) not in s.players
                for o in run.names.objects(s, str(r))[:1]]
        return ChooseObjects(player=player, choices=objs, players=players)
    if d.kind == "choose_targets":  # 603.3d: players by name, objects by reference
        players = [str(r) for r in refs if str(r) in d.choices]
        objs = []
        for ref in refs:
            if str(ref) not in d.choices:
                ids = [o.id for o in run.names.objects(s, str(ref))
                       if o.id in d.options and o.id not in objs]
                if not ids:
                    raise NameError_(f"{ref} is not a legal target")
                objs.append(ids[0])
        return ChooseObjects(player=player, choices=objs, players=players)
    if d.choices:
        return ChooseOption(player=player, option=str(value))
    chosen: list[int] = []
    for ref in refs:
        opts = [o.id for o in run.names.objects(s, str(ref))
                if o.id in d.options and o.id not in chosen]
        if not opts:
            raise NameError_(f"{ref} is not one of the choices")
        chosen.append(opts[0])
    return ChooseObjects(player=player, choices=chosen)


def _replacement(run: Run, d: Decision, value: str) -> str:
    """A replacement effect to apply first (616.1), as the decision names it, or a
    redirection shield (614.9) as "redirect to <player or card>": the shield whose damage
    goes to that player or permanent."""
    if value in d.choices or not value.startswith("redirect to "):
        return value
    target = value.removeprefix("redirect to ").strip()
    dest = {f"redirect-{f.id}": f.redirect[1] for f in run.state.effects if f.redirect}
    ids = {o.id for o in run.names.objects(run.state, target)}
    found = [c for c in d.choices if c in dest and _names(dest[c], target, ids)]
    if len(found) != 1:
        raise NameError_(f"{value!r}: {len(found)} redirection shields send damage to "
                         f"{target} (choices: {', '.join(d.choices)})")
    return found[0]


def _names(ref: Ref, player: str, ids: set[int]) -> bool:
    """`ref` is the player named, or one of the objects `ids`."""
    if isinstance(ref, PlayerRef):
        return ref.player == player
    return isinstance(ref, ObjectRef) and ref.obj in ids


def _copy_order(run: Run, d: Decision, refs: list[Any]) -> list[int]:
    """The places (in the decision's `choices`) of the copies' targets named: a player by
    name, an object by reference."""
    order: list[int] = []
    for ref in refs:
        named = ([player_ref(str(ref))] if str(ref) in run.state.players
                 else [object_ref(o.id) for o in run.names.objects(run.state, str(ref))])
        found = [i for i, c in enumerate(d.choices) if c in named and i not in order]
        if not found:
            raise NameError_(f"no copy aimed at {ref} to order")
        order.append(found[0])
    return order


def _trigger_order(run: Run, d: Decision, refs: list[Any]) -> list[int]:
    s = run.state
    order: list[int] = []
    for ref in refs:
        ids = {o.id for o in run.names.objects(s, str(ref))}
        found = [i for i in d.options if i not in order and (
            s.triggers[i].source_name == str(ref) or s.triggers[i].source in ids)]
        if not found:
            raise NameError_(f"{ref} has no waiting triggered ability to order")
        order.append(found[0])
    return order
