"""What each trigger event of the card model means (CR 603.2): a watcher per event,
called just after an event of its kind is made (`txn.watch`), that returns the abilities
that event triggers. Each looks at the state just after the event, with range of
influence (801.7, 801.7a: judged after the event). Watchers of one kind of event run in
`order`, and the abilities each finds are put in that order (the order a player's
simultaneous triggers wait in, until 603.3b lets them choose).
"""

from __future__ import annotations

from collections.abc import Sequence

from arbiter_core.cards.model import TriggeredAbility
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.state import GameState, Obj, Step
from arbiter_core.kernel.txn import watch
from arbiter_core.layers.characteristics import definition
from arbiter_core.multiplayer.influence import object_in_range, player_in_range
from arbiter_core.multiplayer.seating import active_players, opponents
from arbiter_core.stack.triggers import each_triggered, marker_of_source

Found = Sequence[ev.Event]


@watch(ev.ObjectMoved, ev.TokenCreated, ev.TokenCopyCreated, order=20)
def _creature_enters(s: GameState, e: ev.ObjectMoved | ev.TokenCreated | ev.TokenCopyCreated,
                     current: int | None,
                     before: Obj | None) -> Found:
    """"Whenever a creature enters the battlefield" (Aether Flash), tokens included; the
    ability refers to that creature ("it"), within range (801.7)."""
    oid = e.new_id if isinstance(e, ev.ObjectMoved) else e.obj
    if isinstance(e, ev.ObjectMoved) and e.to_zone != "battlefield":
        return []
    entered = s.objects.get(oid)
    if entered is None or "Creature" not in definition(entered).types:
        return []
    return each_triggered(s, None, "creature_enters", current,
                          lambda o, ab: object_in_range(s, o.controller, entered),
                          that_player=entered.controller, obj=entered.id)


@watch(ev.StepBegan, ev.MarkerPlaced, order=30)
def _each_draw_step(s: GameState, e: ev.StepBegan | ev.MarkerPlaced, current: int | None,
                    before: Obj | None) -> Found:
    """"At the beginning of each player's draw step" - once for each active player
    (805.4d); a position set up at the draw step begins there (`MarkerPlaced`) too."""
    if e.step != Step.DRAW.value:
        return []
    out: list[ev.Event] = []
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
    return out


@watch(ev.StepBegan, ev.MarkerPlaced, order=40)
def _your_upkeep(s: GameState, e: ev.StepBegan | ev.MarkerPlaced, current: int | None,
                 before: Obj | None) -> Found:
    """"At the beginning of your upkeep", with an intervening "if" (603.4)."""
    if e.step != Step.UPKEEP.value:
        return []
    actives = active_players(s, s.markers[e.marker].holder)
    return each_triggered(s, e.marker, "your_upkeep", current,
                          lambda o, ab: o.controller in actives and (
                              ab.if_life_at_least is None
                              or s.players[o.controller].life >= ab.if_life_at_least))


@watch(ev.StepBegan, ev.MarkerPlaced, order=41)
def _your_end_step(s: GameState, e: ev.StepBegan | ev.MarkerPlaced, current: int | None,
                   before: Obj | None) -> Found:
    """"At the beginning of your end step" (513.1a: it triggers as the step begins),
    with an intervening "if ~ didn't attack this turn" (603.4, 508.1)."""
    if e.step != Step.END.value:
        return []
    m = s.markers[e.marker]
    actives = active_players(s, m.holder)
    return each_triggered(s, e.marker, "your_end_step", current,
                          lambda o, ab: o.controller in actives
                          and not (ab.if_didnt_attack and o.id in m.attacked))


@watch(ev.DamageDealt, ev.LifeLost, order=50)
def _you_lose_life(s: GameState, e: ev.DamageDealt | ev.LifeLost, current: int | None,
                   before: Obj | None) -> Found:
    """"Whenever you lose life" - not for damage that causes no loss (119.8)."""
    if (e.player is None or e.amount <= 0
            or (isinstance(e, ev.DamageDealt) and not e.life_loss)):
        return []
    loser = e.player
    return each_triggered(s, None, "you_lose_life", current,
                          lambda o, ab: o.controller == loser, amount=e.amount)


@watch(ev.ObjectMoved, order=60)
def _nontoken_creature_enters(s: GameState, e: ev.ObjectMoved, current: int | None,
                              before: Obj | None) -> Found:
    """"Whenever a nontoken creature enters" (a card moved there), within range as it is
    on the battlefield under its new controller (801.7, 801.7a)."""
    if e.to_zone != "battlefield":
        return []
    entered = s.objects[e.new_id]
    if "Creature" not in definition(entered).types:
        return []
    return each_triggered(s, None, "nontoken_creature_enters", current, lambda o, ab: not (
        ab.if_untapped and o.tapped) and object_in_range(s, o.controller, entered),
        that_player=entered.controller)


@watch(ev.DamageDealt, order=70)
def _deals_damage_to_opponent(s: GameState, e: ev.DamageDealt, current: int | None,
                              before: Obj | None) -> Found:
    """"Whenever ~ deals damage to an opponent", within range (801.7)."""
    if e.player is None or e.source not in s.objects or e.amount <= 0:
        return []
    o = s.objects[e.source]
    if e.player not in opponents(s, o.controller) or not player_in_range(s, o.controller,
                                                                          e.player):
        return []
    return _source_abilities(s, o, "deals_damage_to_opponent", current, e.player)


@watch(ev.DamageDealt, order=80)
def _deals_damage_to_player(s: GameState, e: ev.DamageDealt, current: int | None,
                            before: Obj | None) -> Found:
    """"Whenever ~ deals damage to a player" (Marsh Viper), within range (801.7)."""
    if e.player is None or e.amount <= 0 or e.source not in s.objects:
        return []
    o = s.objects[e.source]
    if not player_in_range(s, o.controller, e.player):
        return []
    return _source_abilities(s, o, "deals_damage_to_player", current, e.player)


def _source_abilities(s: GameState, o: Obj, event: str, current: int | None,
                      that_player: str) -> Found:
    return [ev.AbilityTriggered(source=o.id, source_name=o.name, controller=o.controller,
                                ability=i, marker=marker_of_source(s, o.controller, current),
                                that_player=that_player, rule="603.2")
            for i, ab in enumerate(definition(o).abilities)
            if isinstance(ab, TriggeredAbility) and ab.event == event]


@watch(ev.SpellCast, order=100)
def _opponent_casts_spell(s: GameState, e: ev.SpellCast, current: int | None,
                          before: Obj | None) -> Found:
    """"Whenever an opponent casts a spell" (or "a creature spell", Aether Sting), within
    range (801.7)."""
    caster = e.player
    spell = s.objects.get(e.new_id)
    creature = spell is not None and "Creature" in definition(spell).types
    found: list[ev.Event] = []
    for event in ("opponent_casts_spell", "opponent_casts_creature_spell")[:1 + creature]:
        found += each_triggered(s, None, event, current,
                                lambda o, ab: caster in opponents(s, o.controller)
                                and player_in_range(s, o.controller, caster),
                                that_player=caster)
    return found


@watch(ev.DamageDealt, order=110)
def _dealt_combat_damage(s: GameState, e: ev.DamageDealt, current: int | None,
                         before: Obj | None) -> Found:
    """"Whenever ~ is dealt combat damage" (Souls of the Faultless). Its "attacking
    player" is fixed here: for a blocking creature, the player who controls the attacking
    creature it blocks (805.10c) - with shared team turns one specific player of the
    attacking team; otherwise the controller of the source of the damage."""
    if not e.combat or e.obj is None or e.amount <= 0 or e.obj not in s.objects:
        return []
    o = s.objects[e.obj]
    attacking_player = s.objects[e.source].controller if e.source in s.objects else None
    for m in s.markers.values():
        blocked = [a for b, a in (m.combat.blocks if m.combat else ()) if b == o.id]
        if blocked and blocked[0] in s.objects:
            attacking_player = s.objects[blocked[0]].controller
    return [ev.AbilityTriggered(source=o.id, source_name=o.name, controller=o.controller,
                                ability=i, marker=marker_of_source(s, o.controller, current),
                                that_player=attacking_player, amount=e.amount,
                                rule="805.10c" if s.shared_team_turns else "603.2")
            for i, ab in enumerate(definition(o).abilities)
            if isinstance(ab, TriggeredAbility) and ab.event == "dealt_combat_damage"]
