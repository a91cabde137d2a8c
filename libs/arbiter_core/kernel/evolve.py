"""`evolve(state, event) -> state`: apply one fact. Total on events that `decide` made.

No rule decisions are made here; every choice was made by `decide` and written into
the event. `apply` mutates a state the caller owns; `evolve` clones first.
"""

from __future__ import annotations

from dataclasses import replace
from typing import assert_never

from arbiter_core.card_types.planeswalkers import activated_loyalty, split_attacks
from arbiter_core.game.appliers import cards_put, game_started, leave, turn_began
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.edits import (
    change_life,
    move,
    pop,
    push,
    remove_from_zone,
    set_marker,
    set_obj,
    set_player,
)
from arbiter_core.kernel.state import (
    Combat,
    Decision,
    Delayed,
    Effect,
    GameState,
    Marker,
    Obj,
    Priority,
    StackItem,
    Step,
    Trigger,
    Waiting,
    Work,
)


def evolve(state: GameState, event: ev.Event) -> GameState:
    """Return the state after `event`; `state` is left unchanged."""
    new = state.clone()
    apply(new, event)
    return new


def replay(events: list[ev.Event], state: GameState | None = None) -> GameState:
    """Fold events into a state (CR-level replay of a stored log)."""
    s = state.clone() if state is not None else empty_state()
    for e in events:
        apply(s, e)
    return s


def empty_state() -> GameState:
    return GameState(game_id="", variant="", seed=0, seats=[], players={})


def _targets(raw: list[list[str]]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(t) for t in raw)


def apply(s: GameState, e: ev.Event) -> None:
    s.version += 1
    match e:
        case ev.PriorityGiven():
            set_marker(s, e.marker, pending=Priority(e.player))
        case ev.PriorityPassed():
            m = s.markers[e.marker]
            set_marker(s, e.marker, passed=(*m.passed, e.player))
        case ev.WorkQueued():
            set_marker(s, e.marker, pending=Work(e.kind, e.then_priority))
        case ev.StepBegan():
            set_marker(s, e.marker, step=Step(e.step), passed=(),
                        pending=Work("turn_based_actions"))
        case ev.PermanentTapped():
            set_obj(s, e.obj, tapped=True)
        case ev.ManaAdded():
            set_player(s, e.player, mana=s.players[e.player].mana + e.mana)
        case ev.GameStarted():
            game_started(s, e)
        case ev.CardsPut():
            cards_put(s, e)
        case ev.MarkerPlaced():
            s.markers[e.marker] = Marker(
                number=e.marker,
                holder=e.holder,
                turn=e.turn,
                step=Step(e.step),
                pending=Waiting(e.holder) if e.waiting else Work("turn_based_actions"),
                skip_draw=e.skip_draw,
            )
        case ev.MarkerPassed():
            set_marker(s, e.marker, holder=e.to, passed=(), combat=None, stack=(),
                        pending=Waiting(e.to) if e.waiting else s.markers[e.marker].pending)
        case ev.MarkerDesignatedForRemoval():
            mk = s.markers[e.marker]
            set_marker(s, e.marker, removal=mk.removal + e.times)
        case ev.MarkerRemoved():
            s.markers.pop(e.marker)
        case ev.NormalTurnOwed():
            mk = s.markers[e.marker]
            set_marker(s, e.marker, normal_next=(*mk.normal_next, e.player))
        case ev.ExtraTurnDeferred():
            mk = s.markers[e.marker]
            rest = list(mk.extra_turns)
            if e.player in rest:
                rest.remove(e.player)
            set_marker(s, e.marker, extra_turns=tuple(rest))
            s.extra_due = (*s.extra_due, e.player)
        case ev.LibraryShuffled():
            s.zones[(e.player, "library")] = list(e.order)
            s.rng_counter += 1
        case ev.CardDrawn():
            move(s, e.obj, e.new_id, "hand", None)
        case ev.DrawFromEmptyLibraryAttempted():
            set_player(s, e.player, drew_from_empty=True)
        case ev.TurnBegan():
            turn_began(s, e)
        case ev.StateCheckpointed():
            pass  # a check on replay, not a change
        case ev.PermanentsUntapped():
            for oid in e.objs:
                set_obj(s, oid, tapped=False)
        case ev.DecisionRequested():
            set_marker(
                s, e.marker,
                pending=Decision(e.kind, e.player, tuple(e.options), e.count, e.rule,
                                 e.stack_item, tuple(e.choices), e.min_count),
            )
        case ev.LandPlayed():
            p = s.players[e.player]
            set_player(s, e.player, lands_played=p.lands_played + 1)
            move(s, e.obj, e.new_id, "battlefield", e.player)
        case ev.ManaSpent():
            pool = s.players[e.player].mana
            for sym in e.mana:
                pool = pool.replace(sym, "", 1)
            set_player(s, e.player, mana=pool)
        case ev.ManaEmptied():
            for who in e.players:
                set_player(s, who, mana="")
        case ev.SpellCast():
            move(s, e.obj, e.new_id, "stack", e.player)
            push(s, StackItem(id=e.item, kind="spell", controller=e.player, marker=e.marker,
                               obj=e.new_id, source_name=s.objects[e.new_id].name,
                               targets=_targets(e.targets), x=e.x))
        case ev.AbilityActivated():
            src = s.objects[e.source]
            push(s, StackItem(id=e.item, kind="activated", controller=e.player,
                               marker=e.marker, source=e.source, source_name=src.name,
                               ability=e.ability, targets=_targets(e.targets)))
            if activated_loyalty(src, e.ability):  # 606.3: once each turn
                ml = s.markers[e.marker]
                set_marker(s, e.marker, loyalty_used=(*ml.loyalty_used, e.source))
        case ev.AbilityTriggered():
            s.triggers.append(Trigger(e.source, e.source_name, e.controller, e.ability,
                                      e.marker, e.that_player, e.amount, e.obj))
        case ev.TriggerPutOnStack():
            t = s.triggers.pop(e.index)
            push(s, StackItem(id=e.item, kind="triggered", controller=t.controller, marker=e.marker,
                               source=t.source if t.delayed is None else t.delayed.source,
                               source_name=t.source_name,
                               ability=t.ability, that_player=t.that_player,
                               amount=t.amount, that_obj=t.obj, delayed=t.delayed))
        case ev.TriggerTargetsAsked():
            set_marker(s, e.marker, after_targets=e.then_priority)
        case ev.TriggerTargetsChosen():
            it = s.stack_items[e.item]
            s.stack_items[e.item] = replace(it, targets=(*it.targets, tuple(e.targets)))
        case ev.TriggerRemoved():
            pop(s, e.item, e.marker)
        case ev.StackItemResolved() | ev.StackItemCountered():
            pop(s, e.item, e.marker)
        case ev.ResolutionPaused():
            s.stack_items[e.item] = replace(s.stack_items[e.item], resume_at=e.resume_at)
        case ev.TeamMemberChosen() | ev.ChooserChosen():
            it = s.stack_items[e.item]
            s.stack_items[e.item] = replace(it, chosen=(*it.chosen, e.player))
        case ev.ModeChosen():
            s.stack_items[e.item] = replace(s.stack_items[e.item], mode=e.mode,
                                            that_player=e.player)
        case ev.CopyChosen():
            it = s.stack_items[e.item]
            s.stack_items[e.item] = replace(
                it, chosen=(*it.chosen, f"copy:{'' if e.of is None else e.of}"))
        case ev.BecameCopy():
            o, of = s.objects[e.obj], s.objects[e.of]
            set_obj(s, e.obj, name=of.name, token=of.token, printed=o.printed or o.name)
        case ev.CardCycled():
            pass  # the discard is its ObjectMoved; this records that it was cycling
        case ev.OptionalActionChosen():
            pass  # the answer is acted on in the same decision (optional.py)
        case ev.LifePaymentChosen():
            it = s.stack_items[e.item]
            s.stack_items[e.item] = replace(it, chosen=(*it.chosen, e.player),
                                            paying=(*it.paying, *e.objs))
        case ev.ObjectMoved():
            move(s, e.obj, e.new_id, e.to_zone, e.controller)
        case ev.ObjectCeasedToExist():
            o = s.objects.pop(e.obj)
            remove_from_zone(s, o)
        case ev.DamageDealt():
            if e.player is not None and e.life_loss:
                change_life(s, e.player, -e.amount)
            if e.obj is not None and e.obj in s.objects:
                o = s.objects[e.obj]
                set_obj(s, e.obj, damage=o.damage + e.amount,
                         deathtouch_hit=o.deathtouch_hit or e.deathtouch)
        case ev.LifeGained():
            change_life(s, e.player, e.amount)
        case ev.PoisonCountersChanged():
            # 810.10: in Two-Headed Giant poison counters are the team's.
            for who in s.team_of(e.player) if s.shared_life else [e.player]:
                set_player(s, who, poison=max(0, s.players[who].poison + e.amount))
        case ev.CountersPut():
            o = s.objects[e.obj]
            now = dict(o.counters)
            for k, n in e.counters.items():
                now[k] = now.get(k, 0) + n
            set_obj(s, e.obj, counters=tuple(sorted(now.items())))
        case ev.EffectCreated():
            s.timestamp += 1
            s.effects.append(Effect(id=s.timestamp, kind=e.kind, affected=tuple(e.affected),
                                    power=e.power, toughness=e.toughness, marker=e.marker,
                                    timestamp=s.timestamp, controller=e.controller,
                                    until=e.until, keyword=e.keyword,
                                    subtypes=tuple(e.subtypes), keywords=tuple(e.keywords),
                                    tap_when_lost=e.tap_when_lost,
                                    redirect=(e.redirect[0], e.redirect[1])
                                    if len(e.redirect) == 2 else None,
                                    amount=e.amount))
        case ev.PermanentBecameCreature():
            set_obj(s, e.obj, became=(e.power, e.toughness, tuple(e.subtypes),
                                       tuple(e.keywords)))
        case ev.EffectUsed():
            s.effects = [replace(f, amount=f.amount - e.amount) if f.id == e.effect else f
                         for f in s.effects]
        case ev.EffectEnded():
            s.effects = [f for f in s.effects if f.id != e.effect]
        case ev.LifeLost():
            change_life(s, e.player, -e.amount)
        case ev.ControlChanged():
            set_obj(s, e.obj, controller=e.controller, sick=True)
        case ev.ColorChosen():
            set_obj(s, e.obj, chosen_color=e.color)
        case ev.PlayerChosen():
            set_obj(s, e.obj, chosen_player=e.player)
        case ev.LoopPositionRecorded():
            entry = (e.turn_key, e.position, tuple(e.players))
            s.loop_positions = (entry,) if e.restart else (*s.loop_positions, entry)
        case ev.LoopWatchReset():
            s.loop_positions = ()
        case ev.DelayedTriggerCreated():
            s.delayed.append(Delayed(e.card, e.owner, e.controller, e.source_name, e.kind,
                                     tuple(e.objs), e.source))
        case ev.DelayedAbilityTriggered():
            d = s.delayed.pop(e.index)
            s.triggers.append(Trigger(d.source or 0, d.source_name, d.controller, 0, e.marker,
                                      delayed=d))
        case ev.DelayedTriggerRemoved():
            s.delayed.pop(e.index)
        case ev.DamageWoreOff():
            for oid in s.battlefield:
                if s.objects[oid].damage or s.objects[oid].deathtouch_hit:
                    set_obj(s, oid, damage=0, deathtouch_hit=False)
            s.effects = [f for f in s.effects
                         if f.marker != e.marker or f.until != "end_of_turn"]
        case ev.AttackersDeclared():
            ma = s.markers[e.marker]
            attacks, walkers = split_attacks(s, list(e.attacks))  # 506.2, 508.1b
            set_marker(s, e.marker, combat=Combat(attacks=attacks, planeswalkers=walkers,
                                                   bands=tuple(tuple(b) for b in e.bands)),
                        attacked=(*ma.attacked, *(a for a, _ in e.attacks)))
        case ev.BandBlocked():
            cbb = s.markers[e.marker].combat or Combat()
            set_marker(s, e.marker, combat=replace(cbb, blocks=(*cbb.blocks, *e.blocks)))
        case ev.CombatDamageAssigned():
            cd = s.markers[e.marker].combat or Combat()
            set_marker(s, e.marker, combat=replace(
                cd, assigned=(*cd.assigned, *((c, tuple(sorted(split.items())))
                                              for c, split in e.assignments)),
                assigned_by=(*cd.assigned_by, e.player)))
        case ev.BlockersDeclared():
            cb = s.markers[e.marker].combat or Combat()
            set_marker(s, e.marker, combat=replace(
                cb, blocks=(*cb.blocks, *e.blocks),
                blockers_declared_by=(*cb.blockers_declared_by, e.player)))
        case ev.FirstStrikeDamageDealt():
            cf = s.markers[e.marker].combat or Combat()
            set_marker(s, e.marker, combat=replace(
                cf, first_strikers_dealt=tuple(e.creatures), had_first_strike_step=True,
                assigned=(), assigned_by=()))
        case ev.CombatEnded():
            set_marker(s, e.marker, combat=None)
        case ev.TokenCreated():
            s.timestamp += 1
            s.objects[e.obj] = Obj(id=e.obj, card=s.next_card, name=e.token.name,
                                   owner=e.owner, controller=e.owner, zone="battlefield",
                                   token=e.token, sick=True, timestamp=s.timestamp,
                                   default_controller=e.owner)
            s.next_card += 1
            s.battlefield.append(e.obj)
            s.next_id = max(s.next_id, e.obj + 1)
        case ev.Attached():
            s.timestamp += 1
            set_obj(s, e.obj, attached_to=e.to, timestamp=s.timestamp)
        case ev.Unattached():
            set_obj(s, e.obj, attached_to=None)
        case ev.CountersRemoved():
            o = s.objects[e.obj]
            left = {k: n - e.counters.get(k, 0) for k, n in o.counters}
            set_obj(s, e.obj, counters=tuple(sorted((k, n) for k, n in left.items() if n > 0)))
        case ev.StateBasedActionsChecked():
            for oid in s.battlefield:
                if s.objects[oid].deathtouch_hit:
                    set_obj(s, oid, deathtouch_hit=False)
            for name, p in s.players.items():
                if p.drew_from_empty:
                    set_player(s, name, drew_from_empty=False)
        case ev.ExtraTurnAdded():
            m = s.markers[e.marker]
            set_marker(s, e.marker, extra_turns=(e.player, *m.extra_turns))
        case ev.PlayerLost() | ev.PlayerConceded():
            set_player(s, e.player, lost=True)
        case ev.PlayerLeftGame():
            leave(s, e.player)
        case ev.PlayerDrew():
            set_player(s, e.player, drew=True)
        case ev.GameEnded():
            s.game_over = True
            for name, p in s.players.items():
                if name in e.winners:
                    set_player(s, name, won=True)
                elif e.draw and not p.left:
                    set_player(s, name, drew=True)
                elif not p.lost and not p.drew:
                    set_player(s, name, lost=True)
        case _:
            assert_never(e)
