"""State-based actions (CR 704), checked whenever a player would receive priority
(CR 704.3, 117.5): all applicable ones are performed at once, and the check repeats until
none apply. Then waiting triggers go on the stack, then the player gets priority.

Implemented: 704.5a, b, c, d, f, g, h, i, j (a real decision), k (with 801.12), m, n, p,
q. 704.5s comes with Sagas.

The legend rule's choice is a decision: the other SBAs of the same check are performed
first, then the controller chooses, then the check repeats.
"""

from __future__ import annotations

import functools
from collections import defaultdict

from arbiter_core.cards import card_names, get_card
from arbiter_core.cards.model import (
    CantLose,
    CardDefinition,
    NoLossForZeroLife,
    TriggeredAbility,
)
from arbiter_core.game import loops, outcome
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.memo import StateMemo
from arbiter_core.kernel.state import GameState, Marker, Obj
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import (
    Statics,
    definition,
    is_creature,
    power_toughness,
)
from arbiter_core.multiplayer import grand_melee
from arbiter_core.multiplayer.influence import object_in_range
from arbiter_core.stack.priority import give_priority


def _player_actions(s: GameState) -> list[tuple[str, str]]:
    """(player, rule) for players who lose: 704.5a life, 704.5b empty draw, 704.5c poison."""
    out = []
    team_rule = s.shared_life  # 704.6a/b, 810.8c/d: a Two-Headed Giant team's life, poison
    angels = outcome.holders(s, CantLose)
    transcended = outcome.holders(s, NoLossForZeroLife)
    for p in s.in_game():
        pl = s.players[p]
        side = s.team_of(p) if s.shared_life else [p]  # 810.8a: as a team
        if not angels.isdisjoint(side):  # Platinum Angel (104.3)
            continue
        if pl.life <= 0 and transcended.isdisjoint(side):
            out.append((p, "704.6a" if team_rule else "704.5a"))
        elif pl.drew_from_empty:
            out.append((p, "704.5b"))
        elif pl.poison >= s.poison_limit:
            out.append((p, "704.6b" if team_rule else "704.5c"))
    return out


Board = list[tuple[Obj, CardDefinition]]  # each permanent with its characteristics


def _board(s: GameState) -> Board:
    return [(o, definition(o)) for o in map(s.objects.__getitem__, s.battlefield)]


def _object_actions(s: GameState, board: Board) -> list[tuple[str, int, str]]:
    """(action, object, rule) for the object SBAs. Each creature is measured against
    one index of the static effects (`Statics`)."""
    out: list[tuple[str, int, str]] = []
    objects = s.objects
    # 704.5d: a token in any zone but the battlefield - a player's zone: none is on a
    # stack, as a token that has left the battlefield can't move again (111.8)
    libraries = _LIBRARY_TOKENS
    tokens: tuple[int, ...] | list[int]
    for (_, zone), ids in s.zones.items():
        if zone == "library":
            hit = libraries.get(id(ids))
            tokens = hit[1] if hit is not None and hit[0] is ids else _library_tokens(ids, objects)
        else:
            tokens = [oid for oid in ids if objects[oid].token is not None]
        if tokens:
            out += [("cease", oid, "704.5d") for oid in tokens]
    effects: Statics | None = None
    for o, d in board:
        oid = o.id
        creature = "Creature" in d.types
        if creature:
            if effects is None:
                effects = Statics(s)
            toughness = power_toughness(s, o, effects, d)[1]
            if toughness <= 0:
                out.append(("graveyard", oid, "704.5f"))
            elif o.damage >= toughness:
                out.append(("graveyard", oid, "704.5g"))
            elif o.deathtouch_hit and o.damage > 0:
                out.append(("graveyard", oid, "704.5h"))
        if "Planeswalker" in d.types and o.counter("loyalty") <= 0:
            out.append(("graveyard", oid, "704.5i"))  # loyalty 0 (306.5c)
        if "Aura" in d.subtypes:
            host = objects.get(o.attached_to) if o.attached_to is not None else None
            if host is None or host.zone != "battlefield" or not is_creature(host):
                out.append(("graveyard", oid, "704.5m"))
            elif not object_in_range(s, o.controller, host):
                out.append(("graveyard", oid, "801.8"))
        elif "Equipment" in d.subtypes and o.attached_to is not None:
            host = objects.get(o.attached_to)
            if host is None or host.zone != "battlefield" or not is_creature(host):
                out.append(("unattach", oid, "704.5n"))
            elif not object_in_range(s, o.controller, host):
                # 301.5d: the equipped creature may have another controller; only a
                # creature outside the Equipment controller's range is illegal (801.9).
                out.append(("unattach", oid, "801.9"))
        elif creature and o.attached_to is not None:
            out.append(("unattach", oid, "704.5p"))
        if o.counters and o.counter("+1/+1") and o.counter("-1/-1"):
            out.append(("annihilate", oid, "704.5q"))
    out += _world_rule(s, board)
    return out


# Libraries are most of a large game's objects and rarely change: which tokens each
# holds is kept by the library list's identity. A state's zone list is never changed once
# stored (`GameState.zone_for_update` replaces it with a changed copy), and the entry
# holds the list, so its id can't be reused while the entry exists.
_LIBRARY_TOKENS: dict[int, tuple[list[int], tuple[int, ...]]] = {}
_LIBRARY_CACHE_MAX = 20_000


def _library_tokens(ids: list[int], objects: dict[int, Obj]) -> tuple[int, ...]:
    """CR 704.5d in a library: the tokens in it (an effect put them there; a token's
    object stays a token, 111.8), kept for the list (looked up in `_object_actions`)."""
    found = tuple(oid for oid in ids if objects[oid].token is not None)
    if len(_LIBRARY_TOKENS) >= _LIBRARY_CACHE_MAX:
        _LIBRARY_TOKENS.clear()
    _LIBRARY_TOKENS[id(ids)] = (ids, found)
    return found


def _world_rule(s: GameState, board: Board) -> list[tuple[str, int, str]]:
    """CR 704.5k, the world rule: of two or more world permanents all but the one that
    has been a world permanent for the shortest time go to their owners' graveyards (all
    of them on a tie). 801.12: with limited range of influence it applies to a permanent
    only if another world permanent is within its controller's range."""
    worlds = [o for o, d in board if "World" in d.supertypes]
    out: list[tuple[str, int, str]] = []
    for w in worlds:
        rivals = [x for x in worlds if x.id != w.id and object_in_range(s, w.controller, x)]
        if any(x.timestamp >= w.timestamp for x in rivals):
            out.append(("graveyard", w.id, "801.12" if s.influence else "704.5k"))
    return out


def _legend_conflicts(board: Board) -> list[tuple[str, list[int]]]:
    """CR 704.5j: a player controls two or more legendary permanents with one name."""
    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    for o, d in board:
        if "Legendary" in d.supertypes:
            groups[(o.controller, o.name)].append(o.id)
    return [(c, ids) for (c, _), ids in sorted(groups.items()) if len(ids) > 1]


Found = tuple[tuple[tuple[str, str], ...], tuple[tuple[str, int, str], ...],
              tuple[tuple[str, tuple[int, ...]], ...]]


def _find(s: GameState) -> Found:
    """Everything a check would do now: losers, object actions, legend-rule conflicts."""
    board = _board(s)  # each permanent's characteristics, looked up once per check
    return (tuple(_player_actions(s)), tuple(_object_actions(s, board)),
            tuple((c, tuple(ids)) for c, ids in _legend_conflicts(board)))


# A check is asked for before every priority (117.5); between two checks usually only a
# marker's priority or step has moved. No SBA, and no characteristic an SBA looks at
# (layers.py), depends on who has priority, the step or combat: one that comes to must
# take the field out of this list, or the check would miss a change.
_found = StateMemo(_find, ignore_marker_fields=frozenset({"pending", "passed", "step",
                                                          "combat"}))


def needs_check(s: GameState) -> bool:
    return any(_found(s))


def check(t: Txn, m: Marker, then_priority: str | None) -> None:
    """Perform SBAs until none apply (CR 704.3), then triggers, then priority."""
    while not t.s.game_over:
        losers, objs, conflicts = _found(t.s)
        if not losers and not objs:
            if conflicts:
                player, ids = conflicts[0]
                t.emit(ev.DecisionRequested(marker=m.number, kind="legend_rule", player=player,
                                            options=list(ids), count=1, rule="704.5j"))
                return
            break
        for player, rule in losers:
            t.emit(ev.PlayerLost(player=player, rule=rule))
        for action, oid, rule in objs:
            o = t.s.objects.get(oid)
            if o is None:
                continue
            if action == "cease":
                t.emit(ev.ObjectCeasedToExist(obj=oid, rule=rule))
            elif action == "graveyard":
                t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="graveyard",
                                      to_player=o.owner, rule=rule))
            elif action == "unattach":
                t.emit(ev.Unattached(obj=oid, rule=rule))
        for action, oid, rule in objs:
            if action == "annihilate":
                _annihilate(t, oid, rule)
        t.emit(ev.StateBasedActionsChecked(marker=m.number, rule="704.3"))
        if losers:
            handle_losses(t, [p for p, _ in losers])
    if t.s.game_over:
        return
    state_triggers(t, m)
    if any(tr.marker == m.number for tr in t.s.triggers):
        t.emit(ev.WorkQueued(marker=m.number, kind="put_triggers", then_priority=then_priority,
                             rule="117.5"))
        return
    if loops.check(t, m, then_priority):  # a loop of mandatory actions (104.4b, 801.16)
        if not t.s.game_over:
            t.emit(ev.WorkQueued(marker=m.number, kind="check_sba",
                                 then_priority=then_priority, rule="801.16"))
        return
    give_priority(t, m.number, then_priority)


def state_triggers(t: Txn, m: Marker) -> None:
    """CR 603.8: a state trigger triggers when its condition is true and not again
    while it is waiting or on the stack (Transcendence's "20 or more life")."""
    s = t.s
    printed = _cards_with_life_triggers()
    for oid in s.battlefield:
        o = s.objects[oid]
        if o.token is None and o.became is None and o.name not in printed:
            continue
        for i in _life_triggers(o):
            if s.players[o.controller].life < 20:
                continue
            waiting = any(tr.source == oid and tr.ability == i for tr in s.triggers) or any(
                it.source == oid and it.ability == i for it in s.stack_items.values())
            if not waiting:
                t.emit(ev.AbilityTriggered(source=oid, source_name=o.name,
                                           controller=o.controller, ability=i,
                                           marker=m.number, rule="603.8"))


def _life_triggers(o: Obj) -> tuple[int, ...]:
    """Indexes of the object's "20 or more life" state triggers (by card name for a
    printed card, which is most of the battlefield)."""
    if o.token is None and o.became is None:
        return _card_life_triggers(o.name)
    return _life_trigger_indexes(definition(o))


@functools.cache
def _card_life_triggers(name: str) -> tuple[int, ...]:
    return _life_trigger_indexes(get_card(name))


@functools.cache
def _cards_with_life_triggers() -> frozenset[str]:
    return frozenset(name for name in card_names() if _card_life_triggers(name))


def _life_trigger_indexes(d: CardDefinition) -> tuple[int, ...]:
    return tuple(i for i, ab in enumerate(d.abilities)
                 if isinstance(ab, TriggeredAbility) and ab.event == "life_20_or_more")


def _annihilate(t: Txn, oid: int, rule: str) -> None:
    """CR 704.5q: remove N +1/+1 and N -1/-1 counters. Recorded as a move-free counter
    change by re-putting the counters (the object keeps its identity)."""
    o = t.s.objects[oid]
    n = min(o.counter("+1/+1"), o.counter("-1/-1"))
    t.emit(ev.CountersRemoved(obj=oid, counters={"+1/+1": n, "-1/-1": n}, rule=rule))


def team_losses(s: GameState, players: list[str]) -> list[tuple[str, str]]:
    """Teammates who lose with them: in Two-Headed Giant players lose only as a team
    (810.8a); in Emperor a team loses when its emperor does (809.5b)."""
    out: list[tuple[str, str]] = []
    for p in players:
        if s.shared_life:
            rule = "810.8a"
        elif p in s.emperors:
            rule = "809.5b"
        else:
            continue
        out += [(q, rule) for q in s.team_of(p) if q not in players
                and not s.players[q].lost and (q, rule) not in out]
    return out


def handle_losses(t: Txn, players: list[str]) -> None:
    """A player who loses leaves a multiplayer game (more than two players, 800.1), which
    goes on without them (CR 800.4, 800.4a), with their team where the variant says so;
    the game ends when one team is left (104.2a, 104.2c) or none (a draw, 104.4a,
    104.4d)."""
    s = t.s
    for q, rule in team_losses(s, players):
        t.emit(ev.PlayerLost(player=q, rule=rule))
        players = [*players, q]
    if not any(not pl.lost and not pl.left for pl in t.s.players.values()):
        # CR 104.4a, 104.4d: every player (team) remaining lost at once - a draw for
        # all of them (809.5c: for a team whose emperor draws); nobody leaves first.
        check_game_end(t)
        return
    if len(s.seats) > 2:
        for p in players:
            if not t.s.players[p].left:
                t.emit(ev.PlayerLeftGame(player=p, rule="800.4a"))
    check_game_end(t)
    if t.s.grand_melee and not t.s.game_over:
        grand_melee.on_leave(t, players)
    if not t.s.game_over:
        from arbiter_core.multiplayer.leaving import after_all_left

        after_all_left(t, [p for p in players if t.s.players[p].left])


def check_game_end(t: Txn) -> None:
    s = t.s
    standing = [p for p in s.seats if not s.players[p].lost and not s.players[p].left]
    teams = {s.players[p].team for p in standing}
    if len(teams) == 1:
        team = teams.pop()
        # CR 104.2c: each player on the winning team wins, even one who left earlier.
        winners = [p for p in s.seats if s.players[p].team == team]
        multi_team = len({pl.team for pl in s.players.values()}) < len(s.seats)
        # 809.5a (104.2d): in Emperor the team wins with its emperor.
        rule = "809.5a" if s.emperors else ("104.2c" if multi_team else "104.2a")
        t.emit(ev.GameEnded(winners=winners, rule=rule))
    elif not teams:
        multi_team = len({pl.team for pl in s.players.values()}) < len(s.seats)
        rule = "809.5c" if s.emperors else ("104.4d" if multi_team else "104.4a")
        t.emit(ev.GameEnded(winners=[], draw=True, rule=rule))


def keep_legend(t: Txn, m: Marker, player: str, keep: int, options: tuple[int, ...]) -> None:
    """CR 704.5j: the chosen one stays; the rest go to their owners' graveyards."""
    for oid in options:
        if oid != keep and oid in t.s.objects:
            t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="graveyard",
                                  to_player=t.s.objects[oid].owner, rule="704.5j"))
    # then_priority None: give_priority picks the first player in turn order from the
    # active player, the same fallback it uses everywhere.
    t.emit(ev.WorkQueued(marker=m.number, kind="check_sba", then_priority=None,
                         rule="704.3"))
