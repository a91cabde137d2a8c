"""Loops of mandatory actions (CR 104.4b, 104.4f, 731.4, 801.16).

A loop of mandatory actions repeats the game's position with no player choosing anything
in between. The engine looks for it where it can show: each time a player would receive
priority with a triggered ability on top of a stack (a loop is kept going by abilities
that trigger; spells and activated abilities are a player's choice), it records the
position - a hash of the whole game state in which objects are named by their physical
card (tokens by kind and rank), so the new object a zone change makes (400.7) doesn't
hide a repeat. Any player action other than passing priority is an optional action and
clears the record (`decide` emits `LoopWatchReset`); so does a new turn. Passing priority
doesn't: no player can be forced to break a loop (731.5).

When a recorded position comes back, the game has entered a loop of mandatory actions:
- without limited range of influence it is a draw (104.4b);
- with it (801.16, 104.4f), a draw for each player who controls an object involved in
  the loop - a spell or ability on the stack at a position of the loop, its source, or
  an object or player it refers to - and for each player within the range of influence
  of any of them. They leave the game; the others play on.

Pure and deterministic: the hash is SHA-256 of a canonical text of the state.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

from arbiter_core.game.ending import check_game_end
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import Command, PassPriority, RunEngineWork
from arbiter_core.kernel.decide import BEFORE_COMMAND
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.refs import Ref, objects_of, with_names
from arbiter_core.kernel.state import GameState, Marker, Obj, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.multiplayer.influence import player_in_range
from arbiter_core.multiplayer.leaving import after_all_left
from arbiter_core.variants.base import variant_of


def _names(s: GameState) -> dict[int, str]:
    """A name for every object that survives zone changes: `c<card>` for a card, and
    for a token its kind and rank among tokens of that kind (by timestamp)."""
    out: dict[int, str] = {}
    ranks: dict[str, int] = {}
    for o in sorted(s.objects.values(), key=lambda x: (x.timestamp, x.id)):
        if o.token is None:
            out[o.id] = f"c{o.card}"
        else:
            k = ranks.get(o.token.name, 0)
            ranks[o.token.name] = k + 1
            out[o.id] = f"t:{o.token.name}:{k}"
    return out


def _ref(names: dict[int, str], value: Ref) -> str:
    """A target, with an object named as in the position (`with_names`)."""
    return with_names(value, names)


def _obj(o: Obj, names: dict[int, str]) -> str:
    attached = names.get(o.attached_to, "?") if o.attached_to is not None else None
    return repr(replace(o, id=0, card=0, timestamp=0, attached_to=None)) + repr(attached)


def _item(i: StackItem, names: dict[int, str]) -> str:
    def name(oid: int | None) -> str | None:
        return names.get(oid, "?") if oid is not None else None

    targets = tuple(tuple(_ref(names, x) for x in g) for g in i.targets)
    paying = tuple(names.get(x, "?") for x in i.paying)
    picked = tuple(names.get(x, "?") for x in i.picked)
    plain = replace(i, id=0, obj=None, source=None, that_obj=None, targets=(), paying=(),
                    picked=())
    return repr((plain, name(i.obj), name(i.source), name(i.that_obj), targets, paying)
                + ((picked,) if picked else ()))


def _marker(m: Marker, names: dict[int, str], s: GameState) -> str:
    combat = None
    if m.combat is not None:
        c = m.combat
        combat = (tuple((names.get(a, "?"), d) for a, d in c.attacks),
                  tuple((names.get(b, "?"), names.get(a, "?")) for b, a in c.blocks),
                  repr(replace(c, attacks=(), blocks=())))
    stack = tuple(_item(s.stack_items[i], names) for i in m.stack if i in s.stack_items)
    return repr((replace(m, stack=(), combat=None), combat, stack))


def position(s: GameState, receiver: str | None) -> str:
    """The position's hash: the state without object ids, timestamps, counters of ids
    and the event count; `receiver` is who would receive priority."""
    names = _names(s)
    parts: list[str] = [repr(receiver), repr(sorted(s.players.items()))]
    for (player, zone), ids in sorted(s.zones.items()):
        cards = [names[i] for i in ids if i in names]
        if zone == "hand":
            cards.sort()  # a hidden, unordered zone
        if cards:
            parts.append(f"{player}/{zone}:{cards}")
    field = sorted((s.objects[i] for i in s.battlefield), key=lambda o: (o.timestamp, o.id))
    parts.append(repr([(names[o.id], _obj(o, names)) for o in field]))
    parts += [_marker(s.markers[n], names, s) for n in sorted(s.markers)]
    parts.append(repr([(replace(f, id=0, timestamp=0, affected=()),
                        [names.get(a, "?") for a in f.affected])
                       for f in sorted(s.effects, key=lambda f: f.timestamp)]))
    parts.append(repr([(replace(tr, source=0, obj=None), names.get(tr.source, "?"))
                       for tr in s.triggers]))
    parts.append(repr((s.delayed, s.extra_due, s.turns_taken, s.game_over)))
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _involved(s: GameState, m: Marker) -> list[str]:
    """Players who control an object involved at this position: each spell or ability
    on the stack, its source, and the objects and players it refers to (801.16)."""
    out: list[str] = []
    for iid in m.stack:
        item = s.stack_items[iid]
        refs = [item.source, item.that_obj, item.obj]
        refs += [oid for g in item.targets for oid in objects_of(g)]
        players = [item.controller, *(s.objects[r].controller for r in refs
                                      if r is not None and r in s.objects)]
        if item.that_player is not None:
            players.append(item.that_player)
        out.extend(p for p in dict.fromkeys(players) if p not in out)
    return out


def _turn_key(s: GameState) -> str:
    return repr(sorted((m.number, m.turn, m.holder) for m in s.markers.values()))


def check(t: Txn, m: Marker, receiver: str | None) -> bool:
    """At a point where `receiver` would get priority on marker `m`: record the position
    or, if it repeats one recorded since the last optional action, end the loop (see the
    module doc). Returns True when players drew (the caller queues priority again)."""
    s = t.s
    top = s.stack_items.get(m.stack[-1]) if m.stack else None
    if top is None or top.kind != "triggered":  # none, or gone as its controller left
        return False
    here = position(s, receiver)
    key = _turn_key(s)
    seen = [entry[1] for entry in s.loop_positions]
    restart = bool(s.loop_positions) and s.loop_positions[0][0] != key
    if restart or here not in seen:
        t.emit(ev.LoopPositionRecorded(turn_key=key, position=here,
                                       players=_involved(s, m),
                                       restart=restart or not s.loop_positions,
                                       rule="104.4f" if s.influence else "104.4b"))
        return False
    loop = s.loop_positions[seen.index(here):]
    involved = list(dict.fromkeys(p for entry in loop for p in entry[2]))
    _draw(t, involved)
    return True


def _draw(t: Txn, involved: list[str]) -> None:
    """104.4b: the game is a draw. 801.16 (104.4f): with limited range of influence, a
    draw for the players controlling objects involved and every player within range of
    any of them; they leave the game and it goes on for the others."""
    s = t.s
    if not s.influence:
        t.emit(ev.GameEnded(winners=[], draw=True, rule="104.4b"))
        return
    drawn = [p for p in s.in_game() if any(player_in_range(s, c, p) for c in involved)]
    for p in drawn:
        t.emit(ev.PlayerDrew(player=p, rule="801.16"))
    for p in drawn:
        t.emit(ev.PlayerLeftGame(player=p, rule="801.16"))
    t.emit(ev.LoopWatchReset(rule="801.16"))
    check_game_end(t)
    if not t.s.game_over:
        variant_of(t.s).players_left(t, drawn)
        after_all_left(t, drawn)


@applies(ev.LoopPositionRecorded)
def _position_recorded(s: GameState, e: ev.LoopPositionRecorded) -> None:
    entry = (e.turn_key, e.position, tuple(e.players))
    s.loop_positions = (entry,) if e.restart else (*s.loop_positions, entry)


@applies(ev.LoopWatchReset)
def _watch_reset(s: GameState, e: ev.LoopWatchReset) -> None:
    s.loop_positions = ()


def _optional_action(t: Txn, command: Command) -> None:
    """104.4b: a player's action other than passing priority is an optional action;
    what came before it can't be part of a loop of mandatory actions."""
    if t.s.loop_positions and not isinstance(command, RunEngineWork | PassPriority):
        t.emit(ev.LoopWatchReset(rule="104.4b"))


BEFORE_COMMAND.add("all", _optional_action)


@explains(ev.LoopPositionRecorded)
def _explain_position(before: GameState, e: ev.LoopPositionRecorded, name: Namer) -> str:
    return "the position is recorded to watch for a loop of mandatory actions"


@explains(ev.LoopWatchReset)
def _explain_watch_reset(before: GameState, e: ev.LoopWatchReset, name: Namer) -> str:
    return "an optional action: no loop of mandatory actions so far"
