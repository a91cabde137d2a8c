"""Triggered abilities (CR 603): noticing trigger events, and putting waiting triggers on
the stack in APNAP order the next time a player would receive priority (CR 603.3b).

Intervening "if" clauses (CR 603.4) are checked here when the ability triggers and again
on resolution (effects.py).
"""

from __future__ import annotations

from collections.abc import Callable

from arbiter_core.cards.model import KeywordAbility, TriggeredAbility
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.state import GameState, Obj, Step
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import definition
from arbiter_core.multiplayer.influence import object_in_range, player_in_range
from arbiter_core.variants.base import active_players, apnap_order, opponents


def detect(s: GameState, e: ev.Event, current: int | None = None, before: Obj | None = None
           ) -> list[ev.AbilityTriggered]:
    """The abilities that `e` triggers (CR 603.2), in the state just after it. `before`
    is the object an `ObjectMoved` moved, as it last existed (leaves-the-battlefield
    abilities look back in time, 603.10a)."""
    out: list[ev.AbilityTriggered] = []
    if isinstance(e, ev.ObjectMoved) and before is not None:
        out += _persist(s, e, before, current)
    if isinstance(e, ev.ObjectMoved | ev.TokenCreated):
        out += _creature_enters(s, e, current)
    # A position set up at the draw step begins there (MarkerPlaced) as well.
    if isinstance(e, ev.StepBegan | ev.MarkerPlaced) and e.step == Step.DRAW.value:
        # CR 805.4d: "each player's draw step" triggers once for each active player.
        for holder in active_players(s, s.markers[e.marker].holder):
            for oid in s.battlefield:
                o = s.objects[oid]
                for i, ab in enumerate(definition(o).abilities):
                    if (isinstance(ab, TriggeredAbility) and ab.event == "each_draw_step"
                            and not (ab.if_untapped and o.tapped)
                            and object_in_range(s, o.controller, o)
                            and player_in_range(s, o.controller, holder)):  # 801.7
                        out.append(ev.AbilityTriggered(
                            source=oid, source_name=o.name, controller=o.controller,
                            ability=i, marker=e.marker, that_player=holder, rule="603.2"))
    if isinstance(e, ev.StepBegan | ev.MarkerPlaced) and e.step == Step.UPKEEP.value:
        actives = active_players(s, s.markers[e.marker].holder)
        out += _each(s, e.marker, "your_upkeep", current,
                     lambda o, ab: o.controller in actives and (
                         ab.if_life_at_least is None
                         or s.players[o.controller].life >= ab.if_life_at_least))  # 603.4
    if (isinstance(e, ev.DamageDealt | ev.LifeLost) and e.player is not None and e.amount > 0
            and (not isinstance(e, ev.DamageDealt) or e.life_loss)):  # 119.8: no loss
        loser = e.player
        out += _each(s, None, "you_lose_life", current, lambda o, ab: o.controller == loser,
                     amount=e.amount)
    if isinstance(e, ev.ObjectMoved) and e.to_zone == "battlefield":
        entered = s.objects[e.new_id]
        # 801.7, 801.7a: range of influence is judged after the event, with the creature
        # on the battlefield under its new controller.
        if "Creature" in definition(entered).types:
            out += _each(s, None, "nontoken_creature_enters", current, lambda o, ab: not (
                ab.if_untapped and o.tapped) and object_in_range(s, o.controller, entered),
                that_player=entered.controller)
    if isinstance(e, ev.DamageDealt) and e.player is not None and e.source in s.objects:
        o = s.objects[e.source]
        if (e.amount > 0 and e.player in opponents(s, o.controller)
                and player_in_range(s, o.controller, e.player)):  # 801.7
            for i, ab in enumerate(definition(o).abilities):
                if isinstance(ab, TriggeredAbility) and ab.event == "deals_damage_to_opponent":
                    marker = _marker_of_source(s, o.controller, current)
                    out.append(ev.AbilityTriggered(
                        source=o.id, source_name=o.name, controller=o.controller, ability=i,
                        marker=marker, that_player=e.player, rule="603.2"))
    if (isinstance(e, ev.DamageDealt) and e.player is not None and e.amount > 0
            and e.source in s.objects):
        # "Whenever ~ deals damage to a player" (Marsh Viper), within range (801.7).
        o = s.objects[e.source]
        if player_in_range(s, o.controller, e.player):
            for i, ab in enumerate(definition(o).abilities):
                if isinstance(ab, TriggeredAbility) and ab.event == "deals_damage_to_player":
                    out.append(ev.AbilityTriggered(
                        source=o.id, source_name=o.name, controller=o.controller, ability=i,
                        marker=_marker_of_source(s, o.controller, current),
                        that_player=e.player, rule="603.2"))
    if isinstance(e, ev.CardCycled):
        cycler = e.player  # "Whenever a player cycles a card" (702.29c-d), within range
        out += _each(s, None, "player_cycles", current,
                     lambda o, ab: player_in_range(s, o.controller, cycler),
                     that_player=cycler)
    if isinstance(e, ev.SpellCast):
        caster = e.player  # "Whenever an opponent casts a spell", within range (801.7)
        out += _each(s, None, "opponent_casts_spell", current,
                     lambda o, ab: caster in opponents(s, o.controller)
                     and player_in_range(s, o.controller, caster), that_player=caster)
    if (isinstance(e, ev.DamageDealt) and e.combat and e.obj is not None and e.amount > 0
            and e.obj in s.objects):
        out += _dealt_combat_damage(s, e, current)
    return out


def _dealt_combat_damage(s: GameState, e: ev.DamageDealt, current: int | None
                         ) -> list[ev.AbilityTriggered]:
    """"Whenever ~ is dealt combat damage" (Souls of the Faultless). Its "attacking
    player" is fixed here: for a blocking creature, the player who controls the attacking
    creature it blocks (805.10c) - with shared team turns one specific player of the
    attacking team; otherwise the controller of the source of the damage."""
    o = s.objects[e.obj] if e.obj is not None else None
    if o is None:
        return []
    attacking_player = s.objects[e.source].controller if e.source in s.objects else None
    for m in s.markers.values():
        blocked = [a for b, a in (m.combat.blocks if m.combat else ()) if b == o.id]
        if blocked and blocked[0] in s.objects:
            attacking_player = s.objects[blocked[0]].controller
    out = []
    for i, ab in enumerate(definition(o).abilities):
        if isinstance(ab, TriggeredAbility) and ab.event == "dealt_combat_damage":
            out.append(ev.AbilityTriggered(
                source=o.id, source_name=o.name, controller=o.controller, ability=i,
                marker=_marker_of_source(s, o.controller, current),
                that_player=attacking_player, amount=e.amount,
                rule="805.10c" if s.shared_team_turns else "603.2"))
    return out


def _persist(s: GameState, e: ev.ObjectMoved, before: Obj, current: int | None
             ) -> list[ev.AbilityTriggered]:
    """Persist (CR 702.79a): "When this permanent is put into a graveyard from the
    battlefield, if it had no -1/-1 counters on it, return it ..." - judged on the
    permanent as it last existed (603.10a, intervening "if" 603.4). The ability refers
    to the card in the graveyard (`obj`)."""
    if before.zone != "battlefield" or e.to_zone != "graveyard" or before.counter("-1/-1"):
        return []
    return [ev.AbilityTriggered(source=e.new_id, source_name=before.name,
                                controller=before.controller, ability=i,
                                marker=_marker_of_source(s, before.controller, current),
                                obj=e.new_id, rule="702.79a")
            for i, ab in enumerate(definition(before).abilities)
            if isinstance(ab, KeywordAbility) and ab.keyword == "persist"]


def _creature_enters(s: GameState, e: ev.ObjectMoved | ev.TokenCreated, current: int | None
                     ) -> list[ev.AbilityTriggered]:
    """"Whenever a creature enters the battlefield" (Aether Flash), tokens included; the
    ability refers to that creature ("it"), within range (801.7)."""
    oid = e.new_id if isinstance(e, ev.ObjectMoved) else e.obj
    if isinstance(e, ev.ObjectMoved) and e.to_zone != "battlefield":
        return []
    entered = s.objects.get(oid)
    if entered is None or "Creature" not in definition(entered).types:
        return []
    return _each(s, None, "creature_enters", current,
                 lambda o, ab: object_in_range(s, o.controller, entered),
                 that_player=entered.controller, obj=entered.id)


def _each(s: GameState, marker: int | None, event: str, current: int | None,
          when: Callable[[Obj, TriggeredAbility], bool], that_player: str | None = None,
          amount: int = 0, obj: int | None = None) -> list[ev.AbilityTriggered]:
    """Every permanent's triggered ability for `event` whose condition holds."""
    out = []
    for oid in s.battlefield:
        o = s.objects[oid]
        for i, ab in enumerate(definition(o).abilities):
            if isinstance(ab, TriggeredAbility) and ab.event == event and when(o, ab):
                out.append(ev.AbilityTriggered(
                    source=oid, source_name=o.name, controller=o.controller, ability=i,
                    marker=marker if marker is not None
                    else _marker_of_source(s, o.controller, current),
                    that_player=that_player, amount=amount, obj=obj, rule="603.2"))
    return out


def _marker_of_source(s: GameState, controller: str, current: int | None = None) -> int:
    """CR 807.5b: a trigger caused by an object on a stack goes on that stack; otherwise
    the stack of the marker whose work caused it, else the controller's own marker."""
    if current is not None and current in s.markers:
        return current
    m = s.marker_of(controller)
    return m.number if m is not None else next(iter(s.markers))


def put_triggers(t: Txn, marker: int, then_priority: str | None = None) -> bool:
    """CR 603.3b: each player in APNAP order puts their waiting triggers on the stack;
    with shared team turns, the active team's players first, then each other team's
    (805.7). Each one's targets are chosen as it is put there (603.3d,
    `trigger_targets`); True while a player is choosing them (the rest wait)."""
    from arbiter_core.stack import trigger_targets

    s = t.s
    holder = s.markers[marker].holder
    for player in apnap_order(s, holder):
        while True:
            idx = next((i for i, tr in enumerate(t.s.triggers)
                        if tr.controller == player and tr.marker == marker), None)
            if idx is None:
                break
            item = t.new_id()
            t.emit(ev.TriggerPutOnStack(index=idx, item=item, marker=marker,
                                        rule="805.7" if s.shared_team_turns else "603.3b"))
            if trigger_targets.choose(t, marker, item, then_priority):
                return True
    return False
