"""`evolve(state, event) -> state`: apply one fact. Total on events that `decide` made.

No rule decisions are made here; every choice was made by `decide` and written into
the event. `apply` mutates a state the caller owns; `evolve` clones first.
"""

from __future__ import annotations

from dataclasses import replace
from typing import assert_never

from arbiter_core import events as ev
from arbiter_core import influence
from arbiter_core.records import replacer
from arbiter_core.state import (
    Combat,
    Decision,
    Delayed,
    Effect,
    GameState,
    Marker,
    Obj,
    Player,
    Priority,
    StackItem,
    Step,
    Trigger,
    Waiting,
    Work,
    Zone,
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


def _remove_from_zone(s: GameState, o: Obj) -> None:
    if o.zone == "battlefield":
        s.battlefield.remove(o.id)
    elif o.zone == "stack":
        pass  # the stack item is removed by its own event
    else:
        s.zone_for_update(o.owner, o.zone).remove(o.id)


def _put(s: GameState, o: Obj) -> None:
    s.objects[o.id] = o
    if o.zone == "battlefield":
        s.battlefield.append(o.id)
    elif o.zone == "library":
        s.zone_for_update(o.owner, "library").insert(0, o.id)
    elif o.zone != "stack":
        s.zone_for_update(o.owner, o.zone).append(o.id)


def _move(s: GameState, oid: int, new_id: int, zone: Zone, controller: str | None) -> None:
    o = s.objects.pop(oid)
    _remove_from_zone(s, o)
    s.timestamp += 1
    _put(
        s,
        Obj(
            id=new_id,
            card=o.card,
            name=o.name,
            owner=o.owner,
            controller=controller or o.owner,
            zone=zone,
            token=o.token,
            sick=zone == "battlefield",
            timestamp=s.timestamp,
            default_controller=controller or o.owner,
        ),
    )
    s.next_id = max(s.next_id, new_id + 1)


# `dataclasses.replace` for the most frequently replaced records (records.py)
_replace_marker = replacer(Marker)
_replace_player = replacer(Player)
_replace_obj = replacer(Obj)


def _set_marker(s: GameState, number: int, **changes: object) -> None:
    s.markers[number] = _replace_marker(s.markers[number], **changes)


def _set_player(s: GameState, name: str, **changes: object) -> None:
    s.players[name] = _replace_player(s.players[name], **changes)


def _set_obj(s: GameState, oid: int, **changes: object) -> None:
    s.objects[oid] = _replace_obj(s.objects[oid], **changes)


def _change_life(s: GameState, player: str, delta: int) -> None:
    """CR 119.3; with a shared life total the result applies to the team (810.9)."""
    who = s.team_of(player) if s.shared_life else [player]
    for p in who:
        _set_player(s, p, life=s.players[p].life + delta)


def _push(s: GameState, item: StackItem) -> None:
    s.stack_items[item.id] = item
    m = s.markers[item.marker]
    s.markers[item.marker] = _replace_marker(m, stack=(*m.stack, item.id), passed=())
    s.next_id = max(s.next_id, item.id + 1)


def _pop(s: GameState, item_id: int, marker: int) -> None:
    s.stack_items.pop(item_id, None)
    m = s.markers[marker]
    s.markers[marker] = _replace_marker(m, stack=tuple(i for i in m.stack if i != item_id),
                                        passed=())


def _targets(raw: list[list[str]]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(t) for t in raw)


def apply(s: GameState, e: ev.Event) -> None:
    s.version += 1
    match e:
        case ev.PriorityGiven():
            _set_marker(s, e.marker, pending=Priority(e.player))
        case ev.PriorityPassed():
            m = s.markers[e.marker]
            _set_marker(s, e.marker, passed=(*m.passed, e.player))
        case ev.WorkQueued():
            _set_marker(s, e.marker, pending=Work(e.kind, e.then_priority))
        case ev.StepBegan():
            _set_marker(s, e.marker, step=Step(e.step), passed=(),
                        pending=Work("turn_based_actions"))
        case ev.PermanentTapped():
            _set_obj(s, e.obj, tapped=True)
        case ev.ManaAdded():
            _set_player(s, e.player, mana=s.players[e.player].mana + e.mana)
        case ev.GameStarted():
            s.game_id, s.variant, s.seed = e.game_id, e.variant, e.seed
            s.seats = list(e.seats)
            s.players = {
                p: Player(name=p, team=e.teams.get(p, p), life=e.life[p], poison=e.poison.get(p, 0))
                for p in e.seats
            }
            s.attack_option = e.attack_option
            s.range_of_influence = e.range_of_influence
            s.ranges = dict(e.ranges)
            s.shared_team_turns = e.shared_team_turns
            s.shared_life = e.shared_life
            s.deploy_creatures = e.deploy_creatures
            s.attack_adjacent_only = e.attack_adjacent_only
            s.poison_limit = e.poison_limit
            s.emperors = tuple(e.emperors)
            s.grand_melee = e.grand_melee
            s.influence = influence.compute(s)
            s.started = True
        case ev.CardsPut():
            oid = e.first_id
            for c in e.cards:
                s.timestamp += 1
                obj = Obj(
                    id=oid,
                    card=s.next_card,
                    name=c.name,
                    owner=e.player,
                    controller=c.controller or e.player,
                    default_controller=c.controller or e.player,
                    zone=e.zone,
                    tapped=c.tapped,
                    sick=c.sick,
                    damage=c.damage,
                    counters=tuple(sorted(c.counters.items())),
                    timestamp=s.timestamp,
                )
                s.objects[oid] = obj
                if e.zone == "battlefield":
                    s.battlefield.append(oid)
                else:
                    s.zone_for_update(e.player, e.zone).append(oid)
                oid += 1
                s.next_card += 1
            s.next_id = max(s.next_id, oid)
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
            _set_marker(s, e.marker, holder=e.to, passed=(), combat=None, stack=(),
                        pending=Waiting(e.to) if e.waiting else s.markers[e.marker].pending)
        case ev.MarkerDesignatedForRemoval():
            mk = s.markers[e.marker]
            _set_marker(s, e.marker, removal=mk.removal + e.times)
        case ev.MarkerRemoved():
            s.markers.pop(e.marker)
        case ev.NormalTurnOwed():
            mk = s.markers[e.marker]
            _set_marker(s, e.marker, normal_next=(*mk.normal_next, e.player))
        case ev.ExtraTurnDeferred():
            mk = s.markers[e.marker]
            rest = list(mk.extra_turns)
            if e.player in rest:
                rest.remove(e.player)
            _set_marker(s, e.marker, extra_turns=tuple(rest))
            s.extra_due = (*s.extra_due, e.player)
        case ev.LibraryShuffled():
            s.zones[(e.player, "library")] = list(e.order)
            s.rng_counter += 1
        case ev.CardDrawn():
            _move(s, e.obj, e.new_id, "hand", None)
        case ev.DrawFromEmptyLibraryAttempted():
            _set_player(s, e.player, drew_from_empty=True)
        case ev.TurnBegan():
            m = s.markers[e.marker]
            extra = list(m.extra_turns)
            if e.extra and e.player in extra:
                extra.remove(e.player)
            elif e.extra and e.player in s.extra_due:
                due = list(s.extra_due)
                due.remove(e.player)
                s.extra_due = tuple(due)
            owed = list(m.normal_next)
            if not e.extra and e.player in owed:
                owed.remove(e.player)
            _set_marker(
                s, e.marker, holder=e.player, turn=e.turn, step=Step.UNTAP, passed=(),
                combat=None, pending=Work("turn_based_actions"), skip_draw=False,
                extra_turns=tuple(extra), normal_next=tuple(owed), attacked=(),
            )
            # CR 805.4: with shared team turns the whole team takes the turn.
            active = s.team_of(e.player) if s.shared_team_turns else [e.player]
            for who in active:
                _set_player(s, who, lands_played=0)
            for oid in s.battlefield:
                if s.objects[oid].controller in active and s.objects[oid].sick:
                    _set_obj(s, oid, sick=False)
            s.turns_taken += 1
            s.influence = influence.compute(s)  # CR 801.2c
        case ev.StateCheckpointed():
            pass  # a check on replay, not a change
        case ev.PermanentsUntapped():
            for oid in e.objs:
                _set_obj(s, oid, tapped=False)
        case ev.DecisionRequested():
            _set_marker(
                s, e.marker,
                pending=Decision(e.kind, e.player, tuple(e.options), e.count, e.rule,
                                 e.stack_item, tuple(e.choices), e.min_count),
            )
        case ev.LandPlayed():
            p = s.players[e.player]
            _set_player(s, e.player, lands_played=p.lands_played + 1)
            _move(s, e.obj, e.new_id, "battlefield", e.player)
        case ev.ManaSpent():
            pool = s.players[e.player].mana
            for sym in e.mana:
                pool = pool.replace(sym, "", 1)
            _set_player(s, e.player, mana=pool)
        case ev.ManaEmptied():
            for who in e.players:
                _set_player(s, who, mana="")
        case ev.SpellCast():
            _move(s, e.obj, e.new_id, "stack", e.player)
            _push(s, StackItem(id=e.item, kind="spell", controller=e.player, marker=e.marker,
                               obj=e.new_id, source_name=s.objects[e.new_id].name,
                               targets=_targets(e.targets), x=e.x))
        case ev.AbilityActivated():
            src = s.objects[e.source]
            _push(s, StackItem(id=e.item, kind="activated", controller=e.player,
                               marker=e.marker, source=e.source, source_name=src.name,
                               ability=e.ability, targets=_targets(e.targets)))
        case ev.AbilityTriggered():
            s.triggers.append(Trigger(e.source, e.source_name, e.controller, e.ability,
                                      e.marker, e.that_player, e.amount, e.obj))
        case ev.TriggerPutOnStack():
            t = s.triggers.pop(e.index)
            _push(s, StackItem(id=e.item, kind="triggered", controller=t.controller,
                               marker=e.marker, source=t.source, source_name=t.source_name,
                               ability=t.ability, that_player=t.that_player,
                               amount=t.amount, that_obj=t.obj))
        case ev.StackItemResolved() | ev.StackItemCountered():
            _pop(s, e.item, e.marker)
        case ev.ResolutionPaused():
            s.stack_items[e.item] = replace(s.stack_items[e.item], resume_at=e.resume_at)
        case ev.TeamMemberChosen() | ev.ChooserChosen():
            it = s.stack_items[e.item]
            s.stack_items[e.item] = replace(it, chosen=(*it.chosen, e.player))
        case ev.ModeChosen():
            s.stack_items[e.item] = replace(s.stack_items[e.item], mode=e.mode,
                                            that_player=e.player)
        case ev.LifePaymentChosen():
            it = s.stack_items[e.item]
            s.stack_items[e.item] = replace(it, chosen=(*it.chosen, e.player),
                                            paying=(*it.paying, *e.objs))
        case ev.ObjectMoved():
            _move(s, e.obj, e.new_id, e.to_zone, e.controller)
        case ev.ObjectCeasedToExist():
            o = s.objects.pop(e.obj)
            _remove_from_zone(s, o)
        case ev.DamageDealt():
            if e.player is not None and e.life_loss:
                _change_life(s, e.player, -e.amount)
            if e.obj is not None and e.obj in s.objects:
                o = s.objects[e.obj]
                _set_obj(s, e.obj, damage=o.damage + e.amount,
                         deathtouch_hit=o.deathtouch_hit or e.deathtouch)
        case ev.LifeGained():
            _change_life(s, e.player, e.amount)
        case ev.PoisonCountersChanged():
            # 810.10: in Two-Headed Giant poison counters are the team's.
            for who in s.team_of(e.player) if s.shared_life else [e.player]:
                _set_player(s, who, poison=max(0, s.players[who].poison + e.amount))
        case ev.CountersPut():
            o = s.objects[e.obj]
            now = dict(o.counters)
            for k, n in e.counters.items():
                now[k] = now.get(k, 0) + n
            _set_obj(s, e.obj, counters=tuple(sorted(now.items())))
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
            _set_obj(s, e.obj, became=(e.power, e.toughness, tuple(e.subtypes),
                                       tuple(e.keywords)))
        case ev.EffectUsed():
            s.effects = [replace(f, amount=f.amount - e.amount) if f.id == e.effect else f
                         for f in s.effects]
        case ev.EffectEnded():
            s.effects = [f for f in s.effects if f.id != e.effect]
        case ev.LifeLost():
            _change_life(s, e.player, -e.amount)
        case ev.ControlChanged():
            _set_obj(s, e.obj, controller=e.controller, sick=True)
        case ev.ColorChosen():
            _set_obj(s, e.obj, chosen_color=e.color)
        case ev.PlayerChosen():
            _set_obj(s, e.obj, chosen_player=e.player)
        case ev.LoopPositionRecorded():
            entry = (e.turn_key, e.position, tuple(e.players))
            s.loop_positions = (entry,) if e.restart else (*s.loop_positions, entry)
        case ev.LoopWatchReset():
            s.loop_positions = ()
        case ev.DelayedTriggerCreated():
            s.delayed.append(Delayed(e.card, e.owner, e.controller, e.source_name, e.kind,
                                     tuple(e.objs)))
        case ev.DelayedTriggerRemoved():
            s.delayed.pop(e.index)
        case ev.DamageWoreOff():
            for oid in s.battlefield:
                if s.objects[oid].damage or s.objects[oid].deathtouch_hit:
                    _set_obj(s, oid, damage=0, deathtouch_hit=False)
            s.effects = [f for f in s.effects
                         if f.marker != e.marker or f.until != "end_of_turn"]
        case ev.AttackersDeclared():
            ma = s.markers[e.marker]
            _set_marker(s, e.marker, combat=Combat(attacks=tuple(e.attacks),
                                                   bands=tuple(tuple(b) for b in e.bands)),
                        attacked=(*ma.attacked, *(a for a, _ in e.attacks)))
        case ev.BandBlocked():
            cbb = s.markers[e.marker].combat or Combat()
            _set_marker(s, e.marker, combat=replace(cbb, blocks=(*cbb.blocks, *e.blocks)))
        case ev.CombatDamageAssigned():
            cd = s.markers[e.marker].combat or Combat()
            _set_marker(s, e.marker, combat=replace(
                cd, assigned=(*cd.assigned, *((c, tuple(sorted(split.items())))
                                              for c, split in e.assignments)),
                assigned_by=(*cd.assigned_by, e.player)))
        case ev.BlockersDeclared():
            cb = s.markers[e.marker].combat or Combat()
            _set_marker(s, e.marker, combat=replace(
                cb, blocks=(*cb.blocks, *e.blocks),
                blockers_declared_by=(*cb.blockers_declared_by, e.player)))
        case ev.FirstStrikeDamageDealt():
            cf = s.markers[e.marker].combat or Combat()
            _set_marker(s, e.marker, combat=replace(
                cf, first_strikers_dealt=tuple(e.creatures), had_first_strike_step=True,
                assigned=(), assigned_by=()))
        case ev.CombatEnded():
            _set_marker(s, e.marker, combat=None)
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
            _set_obj(s, e.obj, attached_to=e.to, timestamp=s.timestamp)
        case ev.Unattached():
            _set_obj(s, e.obj, attached_to=None)
        case ev.CountersRemoved():
            o = s.objects[e.obj]
            left = {k: n - e.counters.get(k, 0) for k, n in o.counters}
            _set_obj(s, e.obj, counters=tuple(sorted((k, n) for k, n in left.items() if n > 0)))
        case ev.StateBasedActionsChecked():
            for oid in s.battlefield:
                if s.objects[oid].deathtouch_hit:
                    _set_obj(s, oid, deathtouch_hit=False)
            for name, p in s.players.items():
                if p.drew_from_empty:
                    _set_player(s, name, drew_from_empty=False)
        case ev.ExtraTurnAdded():
            m = s.markers[e.marker]
            _set_marker(s, e.marker, extra_turns=(e.player, *m.extra_turns))
        case ev.PlayerLost() | ev.PlayerConceded():
            _set_player(s, e.player, lost=True)
        case ev.PlayerLeftGame():
            _leave(s, e.player)
        case ev.PlayerDrew():
            _set_player(s, e.player, drew=True)
        case ev.GameEnded():
            s.game_over = True
            for name, p in s.players.items():
                if name in e.winners:
                    _set_player(s, name, won=True)
                elif e.draw and not p.left:
                    _set_player(s, name, drew=True)
                elif not p.lost and not p.drew:
                    _set_player(s, name, lost=True)
        case _:
            assert_never(e)


def _leave(s: GameState, player: str) -> None:
    """CR 800.4a: the leaver's objects leave the game; their spells and abilities on the
    stack cease to exist; their waiting triggers are removed."""
    # 800.4i: what is known about the player as they left (their hand size) is kept.
    _set_player(s, player, left=True, mana="", hand_left_with=len(s.zone(player, "hand")))
    for oid, o in list(s.objects.items()):
        if o.owner == player:
            if o.zone == "battlefield":
                s.battlefield.remove(oid)
            del s.objects[oid]
    for key in [k for k in s.zones if k[0] == player]:
        s.zones[key] = []
    for item in list(s.stack_items.values()):
        if item.controller == player or (item.obj is not None and item.obj not in s.objects):
            _pop(s, item.id, item.marker)
    s.triggers = [t for t in s.triggers if t.controller != player]
    # 800.4a: effects that give the leaver control end; 800.4d: their delayed triggers
    # won't be put on the stack.
    s.effects = [f for f in s.effects if not (f.kind == "control" and f.controller == player)]
    s.delayed = [d for d in s.delayed if d.controller != player and d.owner != player]
    for number, m in s.markers.items():
        if player in m.passed:
            _set_marker(s, number, passed=tuple(p for p in m.passed if p != player))
