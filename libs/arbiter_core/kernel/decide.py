"""`decide(state, command) -> events`: the one entry point for every change.

It never mutates `state`. An illegal command raises `RuleViolation` (naming the CR rule)
or `InvalidCommand` (naming the field) and no event is made. Engine work is a command
too (`RunEngineWork`): the pending-work marker names what is owed and which service
owns it (`work_owner`).
"""

from __future__ import annotations

from typing import Literal, assert_never

from arbiter_core.cards.model import DrawCards
from arbiter_core.combat import damage as combat_damage
from arbiter_core.combat import declare as combat
from arbiter_core.effects import decisions as effect_decisions
from arbiter_core.effects import life, payments
from arbiter_core.game.start import set_up_position, start_game
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import (
    ActivateAbility,
    AssignCombatDamage,
    CastSpell,
    ChooseObjects,
    ChooseOption,
    Command,
    Concede,
    DeclareAttackers,
    DeclareBlockers,
    PassPriority,
    PlayLand,
    RunEngineWork,
    SetUpPosition,
    StartGame,
)
from arbiter_core.kernel.errors import GameOver, InvalidCommand, RuleViolation
from arbiter_core.kernel.state import Decision, GameState, Marker, Work
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers import control, copies
from arbiter_core.multiplayer import grand_melee, leaving
from arbiter_core.sba import check as sba
from arbiter_core.stack import choices, optional, resolve, trigger_targets
from arbiter_core.stack.casting import activate_ability, cast_spell, play_land
from arbiter_core.stack.mana import parse_cost, pay
from arbiter_core.stack.priority import marker_for, pass_priority, queue_priority
from arbiter_core.stack.triggers import put_triggers
from arbiter_core.turns import steps as turn

Owner = Literal["turn-orchestrator", "stack-resolver", "sba-checker"]

WORK_OWNERS: dict[str, Owner] = {
    "turn_based_actions": "turn-orchestrator",
    "advance_step": "turn-orchestrator",
    "check_sba": "sba-checker",
    "put_triggers": "stack-resolver",
    "resolve_top": "stack-resolver",
}


def work_owner(kind: str) -> Owner:
    return WORK_OWNERS[kind]


def decide(state: GameState, command: Command) -> list[ev.Event]:
    t = Txn(state)
    match command:
        case StartGame() | SetUpPosition():
            if state.started:
                raise InvalidCommand("game_id", "this game has already started")
            if isinstance(command, StartGame):
                start_game(t, command)
            else:
                set_up_position(t, command)
            return t.events
        case _:
            pass
    if not state.started:
        raise InvalidCommand("game_id", "the game has not started")
    if state.game_over:
        raise GameOver()
    t.marker = _marker_of(state, command)
    if state.loop_positions and not isinstance(command, RunEngineWork | PassPriority):
        # 104.4b: a player's action other than passing priority is an optional action;
        # what came before it can't be part of a loop of mandatory actions.
        t.emit(ev.LoopWatchReset(rule="104.4b"))
    match command:
        case RunEngineWork():
            _run_work(t, command.marker)
        case PassPriority():
            pass_priority(t, command.player, command.marker)
        case PlayLand():
            play_land(t, command)
        case CastSpell():
            cast_spell(t, command)
        case ActivateAbility():
            activate_ability(t, command)
        case DeclareAttackers():
            m = marker_for(t.s, command.player, command.marker)
            combat.pending_decision(t.s, m, "declare_attackers", command.player)
            combat.declare_attackers(t, m, command.player, list(command.attacks),
                                     [list(b) for b in command.bands])
            queue_priority(t, m.number, m.holder)
        case DeclareBlockers():
            m = marker_for(t.s, command.player, command.marker)
            combat.pending_decision(t.s, m, "declare_blockers", command.player)
            combat.declare_blockers(t, m, command.player, list(command.blocks))
            m = t.s.markers[m.number]
            if not combat.request_blockers(t, m):
                queue_priority(t, m.number, m.holder)
        case AssignCombatDamage():
            m = marker_for(t.s, command.player, command.marker)
            d = combat.pending_decision(t.s, m, "assign_combat_damage", command.player)
            combat_damage.assign(t, m, d.player, d.options, dict(command.assignments))
        case ChooseObjects():
            _choose(t, command)
        case ChooseOption():
            _choose_option(t, command)
        case Concede():
            _concede(t, command.player)
        case StartGame() | SetUpPosition():
            raise AssertionError("handled above")
        case _:
            assert_never(command)
    if not t.s.game_over:
        control.refresh(t)  # layer 2 after every change (613.1b, 800.4a)
    return t.events


def _marker_of(state: GameState, command: Command) -> int | None:
    """The marker a command works on (its stack gets the triggers it causes, 807.5b)."""
    if isinstance(command, RunEngineWork):
        return command.marker
    marker = getattr(command, "marker", None)
    if marker is not None:
        return int(marker)
    player = getattr(command, "player", None)
    if isinstance(player, str) and player in state.players and state.markers:
        return marker_for(state, player, None).number
    return None


def _run_work(t: Txn, marker: int) -> None:
    if marker not in t.s.markers:
        raise InvalidCommand("marker", f"no turn marker {marker}")
    m = t.s.markers[marker]
    w = m.pending
    if not isinstance(w, Work):
        raise RuleViolation("117.1", "the engine owes no work on this marker: "
                                     "it waits for a player")
    match w.kind:
        case "turn_based_actions":
            turn.turn_based_actions(t, m)
        case "check_sba":
            sba.check(t, m, w.then_priority)
        case "put_triggers":
            if not put_triggers(t, m.number, w.then_priority or m.holder):
                queue_priority(t, m.number, w.then_priority or m.holder)
        case "resolve_top":
            resolve.resolve_top(t, m)
        case "advance_step":
            turn.advance(t, m.number)
        case _:
            assert_never(w.kind)


def _choose(t: Txn, cmd: ChooseObjects) -> None:
    m = marker_for(t.s, cmd.player, cmd.marker)
    d = m.pending
    if isinstance(d, Decision) and d.player == cmd.player and d.kind == "pay_life_for":
        refused = payments.refusal(t.s, d, list(cmd.choices))  # 119.4, 810.9b
        if refused is not None or cmd.players:
            raise RuleViolation(*(refused or ("608.2d", "choose creatures, not players")))
        payments.chosen(t, m, d, list(cmd.choices))
        assert d.stack_item is not None
        resolve.resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])
        return
    if isinstance(d, Decision) and d.player == cmd.player and d.kind == "proliferate":
        _proliferate(t, m, d, cmd)
        return
    if isinstance(d, Decision) and d.player == cmd.player and d.kind == "choose_copy":
        if cmd.players:
            raise RuleViolation("707.5", "choose a creature, not a player")
        copies.answer(t, m, d, list(cmd.choices))  # 707.5
        return
    if isinstance(d, Decision) and d.player == cmd.player and d.kind == "choose_targets":
        trigger_targets.answer(t, m, d, list(cmd.choices), list(cmd.players))  # 603.3d
        return
    if isinstance(d, Decision) and d.player == cmd.player and d.kind == "choose_card":
        if len(cmd.choices) != 1 or cmd.choices[0] not in d.options or cmd.players:
            raise RuleViolation("608.2d", "choose one of the revealed cards")
        assert d.stack_item is not None
        effect_decisions.card_chosen(t, m, t.s.stack_items[d.stack_item], d.options, cmd.choices[0])
        resolve.resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])
        return
    if not (isinstance(d, Decision) and d.player == cmd.player
            and d.kind in ("legend_rule", "discard", "search")):
        raise RuleViolation("117.1", f"{cmd.player} is not being asked to choose")
    if cmd.players:
        raise RuleViolation(d.rule or "608.2d", "choose objects, not players")
    low = d.count if d.min_count is None else d.min_count
    if not low <= len(cmd.choices) <= d.count or len(set(cmd.choices)) != len(cmd.choices):
        raise RuleViolation(d.rule or "608.2d", f"choose exactly {d.count} of the options"
                            if low == d.count else f"choose up to {d.count} of the options")
    if any(c not in d.options for c in cmd.choices):
        raise RuleViolation(d.rule or "608.2d", "that is not one of the options")
    if d.kind == "legend_rule":
        sba.keep_legend(t, m, cmd.player, cmd.choices[0], d.options)
        return
    if d.kind == "search":
        _found(t, m, d, cmd.choices)
        return
    for oid in cmd.choices:
        t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="graveyard",
                              to_player=cmd.player, rule="701.9a"))
    if d.stack_item is not None:
        item = t.s.stack_items[d.stack_item]
        resolve.resume(t, t.s.markers[m.number], item)
    else:  # cleanup discard (514.1), then the rest of cleanup
        t.emit(ev.WorkQueued(marker=m.number, kind="turn_based_actions", rule="514.1"))


def _proliferate(t: Txn, m: Marker, d: Decision, cmd: ChooseObjects) -> None:
    """CR 701.34a: any number of the permanents and players offered (each within the
    proliferating player's range, 801.5a); 701.34b: in Two-Headed Giant only one player
    of a team can be given a poison counter."""
    s = t.s
    if len(set(cmd.choices)) != len(cmd.choices) or len(set(cmd.players)) != len(cmd.players):
        raise RuleViolation("701.34a", "choose each permanent or player at most once")
    outside: list[int | str] = [c for c in cmd.choices if c not in d.options]
    outside += [p for p in cmd.players if p not in d.choices]
    if outside:
        x = outside[0]
        o = s.objects.get(x) if isinstance(x, int) else None
        has_counter = (o is not None and o.zone == "battlefield" and bool(o.counters)) or (
            isinstance(x, str) and x in s.players and not s.players[x].left
            and s.players[x].poison > 0)
        # Not offered though it has a counter: it is outside the range of influence.
        raise RuleViolation("801.5a" if has_counter else "701.34a",
                            f"{x} can't be chosen to proliferate")
    teams = [s.players[p].team for p in cmd.players]
    if s.shared_life and len(set(teams)) != len(teams):
        raise RuleViolation("701.34b", "only one player of a team can be given a poison "
                                       "counter")
    assert d.stack_item is not None
    effect_decisions.proliferate_chosen(t, list(cmd.choices), list(cmd.players))
    resolve.resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])


def _found(t: Txn, m: Marker, d: Decision, choices: list[int]) -> None:
    """CR 701.19: put the found card onto the battlefield under the searcher's control,
    then its owner shuffles (Bribery)."""
    assert d.stack_item is not None
    item = t.s.stack_items[d.stack_item]
    owner = None
    for oid in choices:
        o = t.s.objects[oid]
        owner = o.owner
        t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="battlefield",
                              to_player=o.owner, controller=item.controller, rule="701.19a"))
    if owner is None and d.options:
        owner = t.s.objects[d.options[0]].owner
    searched = owner or next((x[2:] for g in item.targets for x in g if x.startswith("p:")),
                             None)
    if searched is not None and not t.s.players[searched].left:
        t.emit(ev.LibraryShuffled(player=searched, rule="701.19b",
                                  order=t.rng.shuffled(t.s.zone(searched, "library"))))
    resolve.resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])


def _choose_option(t: Txn, cmd: ChooseOption) -> None:
    s = t.s
    m = marker_for(s, cmd.player, cmd.marker)
    d = m.pending
    if isinstance(d, Decision) and d.player == cmd.player and choices.casting_choice(s, d):
        choices.answer(t, m, d, cmd.option)  # 614.12, 700.2e, 801.5a-b
        return
    # 805.2, 810.9d: with shared team turns a team's choice may be made by any member.
    asked = isinstance(d, Decision) and (d.player == cmd.player or (
        s.shared_team_turns and s.players[d.player].team == s.players[cmd.player].team))
    if isinstance(d, Decision) and d.player == cmd.player and d.kind in (
            "choose_opponent", "choose_active_player"):
        if cmd.option not in d.choices:  # an opponent within range (801.5a)
            raise RuleViolation(d.rule, f"{cmd.option!r} is not one of {list(d.choices)}")
        assert d.stack_item is not None
        t.emit(ev.ChooserChosen(item=d.stack_item, player=cmd.option, rule=d.rule))
        resolve.resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])
        return
    if isinstance(d, Decision) and d.player == cmd.player and d.kind == "pay_or_not":
        if cmd.option not in d.choices:
            raise RuleViolation(d.rule, f"{cmd.option!r} is not one of {list(d.choices)}")
        assert d.stack_item is not None
        item = t.s.stack_items[d.stack_item]
        if cmd.option == "pay":
            _, effs = resolve.item_effects(t, item)
            eff = effs[item.resume_at]
            mana = eff.unless_that_player_pays if isinstance(eff, DrawCards) else ""
            pay(t, cmd.player, parse_cost(mana), None)  # 118.12a; RuleViolation if unable
        if not effect_decisions.unless_answered(t, m, t.s.stack_items[d.stack_item],
                                                cmd.option == "pay"):
            resolve.resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])
        return
    if isinstance(d, Decision) and d.player == cmd.player and d.kind == "you_may":
        if cmd.option not in d.choices:
            raise RuleViolation(d.rule, f"{cmd.option!r} is not one of {list(d.choices)}")
        optional.answer(t, m, d, cmd.option)  # 603.5, 608.2d
        return
    if isinstance(d, Decision) and d.player == cmd.player and d.kind == "redistribute":
        mapping = life.parse_redistribution(s, cmd.option, d.choices)
        if isinstance(mapping, tuple):
            raise RuleViolation(*mapping)
        assert d.stack_item is not None
        life.redistribute(t, mapping)
        resolve.resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])
        return
    if not (isinstance(d, Decision) and asked
            and d.kind in ("choose_color", "choose_team_member")):
        raise RuleViolation("117.1", f"{cmd.player} is not being asked to choose an option")
    if cmd.option not in d.choices:
        raise RuleViolation(d.rule, f"{cmd.option!r} is not one of {list(d.choices)}")
    if d.kind == "choose_team_member":
        assert d.stack_item is not None
        t.emit(ev.TeamMemberChosen(item=d.stack_item, player=cmd.option, rule="810.9d"))
        resolve.resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])
        return
    t.emit(ev.ColorChosen(obj=d.options[0], color=cmd.option, rule="614.12"))
    queue_priority(t, m.number, m.holder)


def _concede(t: Txn, player: str) -> None:
    """CR 104.3a: a player may concede at any time, and leaves the game at once."""
    s = t.s
    if player not in s.players:
        raise InvalidCommand("player", f"no player named {player!r}")
    if s.players[player].left or s.players[player].lost:
        raise RuleViolation("104.3a", f"{player} is no longer in the game")
    t.emit(ev.PlayerConceded(player=player, rule="104.3a"))
    leavers = [player]
    if s.shared_life:  # CR 810.8b: the conceding player's team leaves and loses
        for q in s.team_of(player):
            if q != player and not t.s.players[q].left:
                t.emit(ev.PlayerLost(player=q, rule="810.8b"))
                leavers.append(q)
    if len(s.seats) > 2:
        for q in leavers:
            t.emit(ev.PlayerLeftGame(player=q, rule="800.4a"))
    if not s.shared_life:
        for q, rule in sba.team_losses(t.s, leavers):
            t.emit(ev.PlayerLost(player=q, rule=rule))
            t.emit(ev.PlayerLeftGame(player=q, rule="800.4a"))
            leavers.append(q)
    sba.check_game_end(t)
    if not t.s.game_over:
        if t.s.grand_melee:
            grand_melee.on_leave(t, leavers)
        for q in leavers:
            for m in list(t.s.markers.values()):
                if m.number in t.s.markers:
                    leaving.after_leave(t, t.s.markers[m.number], q)
