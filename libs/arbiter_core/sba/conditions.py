"""Which state-based actions apply now (CR 704.5, 704.6): the players who lose, what
happens to objects, and legendary permanents that share a name (704.5j, a decision).
The check itself, which performs them, is `check`.

Implemented: 704.5a, b, c, d, e (a copy of a spell; a copy of a card outside the stack
and battlefield not yet), f, g, h, i, j (a real decision), k (with 801.12), m, n, p, q;
704.6a-b for Two-Headed Giant; the variants' own through `PLAYER_SBAS` (704.6c) and
`CHOICE_SBAS` (704.6d, a decision). 704.5s comes with Sagas.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from arbiter_core.cards.model import CantLose, CardDefinition, NoLossForZeroLife
from arbiter_core.kernel.memo import StateMemo
from arbiter_core.kernel.registry import Hooks
from arbiter_core.kernel.state import GameState, Marker, Obj
from arbiter_core.layers.characteristics import (
    Statics,
    definition,
    is_creature,
    power_toughness,
    static_holders,
)
from arbiter_core.multiplayer.influence import object_in_range

#: a variant's state-based actions that make players lose (704.6c): (player, rule) each
PlayerCheck = Callable[[GameState], "list[tuple[str, str]]"]
PLAYER_SBAS: Hooks[str, PlayerCheck] = Hooks("state-based action of a player")
#: state-based actions whose performing is a player's choice (704.6d): (decision kind,
#: player, object, rule) for each choice owed now; asked one at a time by the check
Choice = tuple[str, str, int, str]
CHOICE_SBAS: Hooks[str, Callable[[GameState], list[Choice]]] = Hooks(
    "state-based action with a choice")


def _player_actions(s: GameState) -> list[tuple[str, str]]:
    """(player, rule) for players who lose: 704.5a life, 704.5b empty draw, 704.5c poison."""
    out = []
    team_rule = s.shared_life  # 704.6a/b, 810.8c/d: a Two-Headed Giant team's life, poison
    angels = static_holders(s, CantLose)
    transcended = static_holders(s, NoLossForZeroLife)
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
            out.append((p, "704.6b" if s.shared_poison else "704.5c"))
    losing = {p for p, _ in out}
    for check in PLAYER_SBAS["all"]:
        for p, rule in check(s):
            side = s.team_of(p) if s.shared_life else [p]
            if p not in losing and angels.isdisjoint(side):
                losing.add(p)
                out.append((p, rule))
    return out


Board = list[tuple[Obj, CardDefinition]]  # each permanent with its characteristics


def _board(s: GameState) -> Board:
    return [(o, definition(o)) for o in map(s.objects.__getitem__, s.battlefield)]


Action = tuple[str, str]  # (what happens to the permanent, the rule)
#: a state-based action for one permanent: (action, rule), or None
ObjectCheck = Callable[[GameState, Obj, CardDefinition], "Action | None"]
OBJECT_SBAS: Hooks[str, ObjectCheck] = Hooks("state-based action of a permanent")


def object_sba(order: float) -> Callable[[ObjectCheck], ObjectCheck]:
    """Register the decorated check of one permanent (704.5i, 704.5m, ...), asked of each
    permanent in `order` after the creature checks (704.5f-h)."""
    def add(check: ObjectCheck) -> ObjectCheck:
        OBJECT_SBAS.add("all", check, order)
        return check
    return add


def _object_actions(s: GameState, board: Board) -> list[tuple[str, int, str]]:
    """(action, object, rule) for the object SBAs. Each creature is measured against
    one index of the static effects (`Statics`)."""
    out = _tokens_out_of_play(s)
    effects: Statics | None = None
    checks = OBJECT_SBAS["all"]
    for o, d in board:
        if "Creature" in d.types:
            if effects is None:
                effects = Statics(s)
            lethal = _lethal(s, o, d, effects)
            if lethal is not None:
                out.append(("graveyard", o.id, lethal))
        for check in checks:
            found = check(s, o, d)
            if found is not None:
                out.append((found[0], o.id, found[1]))
    out += _world_rule(s, board)
    return out


def _tokens_out_of_play(s: GameState) -> list[tuple[str, int, str]]:
    """704.5d: a token in any zone but the battlefield - a player's zone: none is on a
    stack, as a token that has left the battlefield can't move again (111.8). 704.5e: a
    copy of a spell in a zone other than the stack (an effect moved it there: resolving
    or being countered ends it at once, 707.10a)."""
    out: list[tuple[str, int, str]] = []
    objects = s.objects
    tokens: tuple[int, ...] | list[int]
    for (_, zone), ids in s.zones.items():
        if zone == "library":
            hit = _LIBRARY_TOKENS.get(id(ids))
            tokens = hit[1] if hit is not None and hit[0] is ids else _library_tokens(ids, objects)
        else:
            tokens = [oid for oid in ids if _ceases(objects[oid])]
        if tokens:
            out += [("cease", oid, "704.5e" if objects[oid].spell_copy else "704.5d")
                    for oid in tokens]
    return out


def _ceases(o: Obj) -> bool:
    """Outside the battlefield and the stacks: a token (704.5d) or a copy of a spell
    (704.5e) ceases to exist."""
    return o.token is not None or o.spell_copy


def _lethal(s: GameState, o: Obj, d: CardDefinition, effects: Statics) -> str | None:
    """704.5f toughness 0 or less; 704.5g lethal damage; 704.5h deathtouch damage."""
    toughness = power_toughness(s, o, effects, d)[1]
    if toughness <= 0:
        return "704.5f"
    if o.damage >= toughness:
        return "704.5g"
    if o.deathtouch_hit and o.damage > 0:
        return "704.5h"
    return None


@object_sba(order=20)
def _attachment(s: GameState, o: Obj, d: CardDefinition) -> Action | None:
    """704.5m an Aura not attached to a creature (801.8: or outside its controller's
    range), 704.5n an Equipment attached to a non-creature (801.9), 704.5p a creature
    attached to something."""
    if "Aura" in d.subtypes:
        host = s.objects.get(o.attached_to) if o.attached_to is not None else None
        if host is None or host.zone != "battlefield" or not is_creature(host):
            return ("graveyard", "704.5m")
        return None if object_in_range(s, o.controller, host) else ("graveyard", "801.8")
    if "Equipment" in d.subtypes and o.attached_to is not None:
        host = s.objects.get(o.attached_to)
        if host is None or host.zone != "battlefield" or not is_creature(host):
            return ("unattach", "704.5n")
        # 301.5d: the equipped creature may have another controller; only a creature
        # outside the Equipment controller's range is illegal (801.9).
        return None if object_in_range(s, o.controller, host) else ("unattach", "801.9")
    if "Creature" in d.types and o.attached_to is not None:
        return ("unattach", "704.5p")
    return None


@object_sba(order=30)
def _counters_annihilate(s: GameState, o: Obj, d: CardDefinition) -> Action | None:
    """704.5q: +1/+1 and -1/-1 counters on one permanent are removed in pairs."""
    if o.counters and o.counter("+1/+1") and o.counter("-1/-1"):
        return ("annihilate", "704.5q")
    return None


# Libraries are most of a large game's objects and rarely change: which tokens each
# holds is kept by the library list's identity. A state's zone list is never changed once
# stored (`GameState.zone_for_update` replaces it with a changed copy), and the entry
# holds the list, so its id can't be reused while the entry exists.
_LIBRARY_TOKENS: dict[int, tuple[list[int], tuple[int, ...]]] = {}
_LIBRARY_CACHE_MAX = 20_000


def _library_tokens(ids: list[int], objects: dict[int, Obj]) -> tuple[int, ...]:
    """CR 704.5d-e in a library: the tokens and copies of spells in it (an effect put
    them there; a token's object stays a token, 111.8), kept for the list (looked up
    in `_object_actions`)."""
    found = tuple(oid for oid in ids if _ceases(objects[oid]))
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
              tuple[tuple[str, tuple[int, ...]], ...], tuple[Choice, ...]]


def _find(s: GameState) -> Found:
    """Everything a check would do now: losers, object actions, legend-rule conflicts,
    choices owed."""
    board = _board(s)  # each permanent's characteristics, looked up once per check
    return (tuple(_player_actions(s)), tuple(_object_actions(s, board)),
            tuple((c, tuple(ids)) for c, ids in _legend_conflicts(board)),
            tuple(c for check in CHOICE_SBAS["all"] for c in check(s)))


# A check is asked for before every priority (117.5); between two checks usually only a
# marker's priority or step has moved. No SBA, and no characteristic an SBA looks at
# (layers.py), depends on who has priority, the step or combat: one that comes to must
# take the field out of this list, or the check would miss a change.
found = StateMemo(_find, GameState, Marker,
                  ignore_marker_fields=frozenset({"pending", "passed", "step", "combat"}))


def needs_check(s: GameState) -> bool:
    return any(found(s))


