"""`evolve` for the game-level events with the longest bodies: the game starting, cards
put at setup, a turn beginning, and a player leaving the game (CR 800.4a)."""

from __future__ import annotations

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.edits import pop, set_marker, set_obj, set_player
from arbiter_core.kernel.state import GameState, Obj, Player, Step, Work
from arbiter_core.multiplayer import influence


def game_started(s: GameState, e: ev.GameStarted) -> None:
    """CR 103: seats, teams, life totals and the variant's options as the game starts."""
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


def cards_put(s: GameState, e: ev.CardsPut) -> None:
    """Cards put into a zone at setup (a deck, or a scenario's position)."""
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


def turn_began(s: GameState, e: ev.TurnBegan) -> None:
    """CR 500.1, 805.4, 801.2c: a marker's turn begins; extra and owed turns are used up."""
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
    set_marker(
        s, e.marker, holder=e.player, turn=e.turn, step=Step.UNTAP, passed=(),
        combat=None, pending=Work("turn_based_actions"), skip_draw=False,
        extra_turns=tuple(extra), normal_next=tuple(owed), attacked=(),
        loyalty_used=(),
    )
    # CR 805.4: with shared team turns the whole team takes the turn.
    active = s.team_of(e.player) if s.shared_team_turns else [e.player]
    for who in active:
        set_player(s, who, lands_played=0)
    for oid in s.battlefield:
        if s.objects[oid].controller in active and s.objects[oid].sick:
            set_obj(s, oid, sick=False)
    s.turns_taken += 1
    s.influence = influence.compute(s)  # CR 801.2c


def leave(s: GameState, player: str) -> None:
    """CR 800.4a: the leaver's objects leave the game; their spells and abilities on the
    stack cease to exist; their waiting triggers are removed."""
    # 800.4i: what is known about the player as they left (their hand size) is kept.
    set_player(s, player, left=True, mana="", hand_left_with=len(s.zone(player, "hand")))
    for oid, o in list(s.objects.items()):
        if o.owner == player:
            if o.zone == "battlefield":
                s.battlefield.remove(oid)
            del s.objects[oid]
    for key in [k for k in s.zones if k[0] == player]:
        s.zones[key] = []
    for item in list(s.stack_items.values()):
        if item.controller == player or (item.obj is not None and item.obj not in s.objects):
            pop(s, item.id, item.marker)
    s.triggers = [t for t in s.triggers if t.controller != player]
    # 800.4a: effects that give the leaver control end; 800.4d: their delayed triggers
    # won't be put on the stack.
    s.effects = [f for f in s.effects if not (f.kind == "control" and f.controller == player)]
    s.delayed = [d for d in s.delayed if d.controller != player and d.owner != player]
    for number, m in s.markers.items():
        if player in m.passed:
            set_marker(s, number, passed=tuple(p for p in m.passed if p != player))
