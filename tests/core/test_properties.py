"""Seeded random playouts that check the engine's invariants on every event and state.

Each game is driven like `arbiter_runtime.play.play_bot_game` (a `GameSession` over an
event store, seeded `RandomBot`s), but command by command, so that:

* every event cites a rule of the committed CR index (`is_rule`);
* every event `decide` made is applied with `evolve` to a separate replica state, which
  must not raise, and after every event the replica is checked: each object is in
  exactly one zone and its `Obj.zone` (and owner) agree; no negative damage, counters or
  poison; life totals are ints;
* at sampled decision points, every command `legal_actions` offers is accepted by
  `decide` (and its events apply cleanly), and commands it does not offer - a pass by a
  player without priority, a card from someone else's hand, a land or sorcery out of
  turn, a declaration nobody asked for - are rejected with `RuleViolation` or
  `InvalidCommand`, leaving the state unchanged;
* at the end the replica equals the live state, the stored log decodes to the events
  `decide` made, and an in-process replay of it has the live `state_hash`; for one game
  in ten the log is copied to a SQLite file and a fresh Python process (with another
  PYTHONHASHSEED) rebuilds it with `GameSession.load` and prints the hash.

Games whose board explodes (Krenko's tokens) are stopped at `MAX_PERMANENTS`, and long
games at `MAX_TURNS`: the invariants are checked up to that point, which keeps the file
within its time budget while staying reproducible.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from itertools import chain
from operator import attrgetter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbiter_core.game.mulligan import CardsPutOnBottom, MulliganTaken
from arbiter_core.kernel.commands import (
    AssignCombatDamage,
    CastSpell,
    ChooseObjects,
    Command,
    Concede,
    DeclareAttackers,
    DeclareBlockers,
    PassPriority,
    PlayerCommand,
    PlayerSetup,
    PlayLand,
    RunEngineWork,
    StartGame,
)
from arbiter_core.kernel.decide import decide
from arbiter_core.kernel.errors import ArbiterError, GameOver, InvalidCommand, RuleViolation
from arbiter_core.kernel.events import Event
from arbiter_core.kernel.evolve import apply, empty_state, evolve, replay
from arbiter_core.kernel.hashing import state_hash
from arbiter_core.kernel.rules_index import is_rule
from arbiter_core.kernel.shell_loop import owed_marker, owed_work
from arbiter_core.kernel.state import Decision, GameState, Priority
from arbiter_core.layers.characteristics import definition
from arbiter_core.views.legal import legal_actions
from arbiter_runtime.bots import RandomBot
from arbiter_runtime.codec import from_stored
from arbiter_runtime.play import (
    communal_planar_deck,
    seat_setup,
    supplements,
    team_names,
    waiting_players,
)
from arbiter_runtime.session import GameSession
from arbiter_store import EventStore, NewEvent, open_store

ROOT = Path(__file__).resolve().parents[2]

MAX_TURNS = 60  # turns taken (all players); stop checking a game after this
MAX_PERMANENTS = 90  # stop a game whose battlefield grows past this (token explosions)
MAX_ENGINE_STEPS = 10_000  # engine work in a row without waiting for a player
PROBE_PRIORITY = 0.01  # chance to probe a point where a player holds priority
PROBE_DECISION = 0.1  # chance to probe a point where a player must decide

# ------------------------------------------------------------------ the games

Game = tuple[str, int, int]  # variant, players, seed

TWO_PLAYER: list[Game] = [("two_player", 2, seed) for seed in range(1000, 1080)]
THREE_PLAYER: list[Game] = [("free_for_all", 3, seed) for seed in range(2000, 2060)]
FOUR_PLAYER: list[Game] = [("free_for_all", 4, seed) for seed in range(3000, 3060)]
# The multiplayer issue's mix: 2HG with 2 and 3 heads, a 5-player FFA with range 1 and
# attack left, Team vs. Team and Emperor ("variant:option=value,...").
MULTIPLAYER: list[Game] = [
    (variant, n, seed) for k, (variant, n) in enumerate([
        ("two_headed_giant", 4), ("two_headed_giant", 6),
        ("free_for_all:range=1,attack=left", 5), ("team_vs_team", 4), ("emperor", 6)])
    for seed in range(4000 + 100 * k, 4005 + 100 * k)]
# Issue 15: four-player Commander and two-player Brawl (100- and 60-card singletons)
COMMANDER: list[Game] = [("commander", 4, seed) for seed in range(5000, 5005)] + [
    ("brawl", 2, seed) for seed in range(5100, 5105)]
# The casual variants (issue 17): Planechase over Free-for-All, Two-Headed Giant and
# Grand Melee (two turn markers), Vanguard, Archenemy one against three.
CASUAL: list[Game] = [
    (variant, n, seed) for k, (variant, n) in enumerate([
        ("planechase:base=free_for_all", 4), ("planechase:base=two_headed_giant", 4),
        ("planechase:base=grand_melee", 8), ("vanguard", 3), ("archenemy", 4)])
    for seed in range(6000 + 100 * k, 6003 + 100 * k)] + [
    # every avatar of the pool at the table (seven seats), and Archenemy Commander (904.13)
    ("vanguard", 7, 6500), ("archenemy_commander", 4, 6600)] + [
    # two-player Planechase with the single planar deck option (901.15: twenty planar
    # cards, one communal deck)
    ("planechase:single=1", 2, seed) for seed in range(6700, 6703)]
GAMES: list[Game] = [
    g for trio in zip(TWO_PLAYER, THREE_PLAYER, FOUR_PLAYER, strict=False) for g in trio
] + TWO_PLAYER[len(THREE_PLAYER):] + MULTIPLAYER + COMMANDER + CASUAL
FRESH_PROCESS_EVERY = 10  # every 10th game is replayed from a SQLite file in a new process
CHUNK = 5
CHUNKS: list[list[tuple[int, Game]]] = [
    list(enumerate(GAMES))[i:i + CHUNK] for i in range(0, len(GAMES), CHUNK)
]


def test_game_mix() -> None:
    assert len(GAMES) >= 200
    assert len(set(GAMES)) == len(GAMES)
    assert {(v, n) for v, n, _ in GAMES} == {
        ("two_player", 2), ("free_for_all", 3), ("free_for_all", 4),
        ("two_headed_giant", 4), ("two_headed_giant", 6),
        ("free_for_all:range=1,attack=left", 5), ("team_vs_team", 4), ("emperor", 6),
        ("commander", 4), ("brawl", 2),
        ("planechase:base=free_for_all", 4), ("planechase:base=two_headed_giant", 4),
        ("planechase:base=grand_melee", 8), ("vanguard", 3), ("archenemy", 4),
        ("vanguard", 7), ("archenemy_commander", 4), ("planechase:single=1", 2)}
    fresh = [i for i, _ in enumerate(GAMES) if i % FRESH_PROCESS_EVERY == 0]
    assert len(fresh) >= 20


def opening_events(index: int, game: Game) -> Iterator[tuple[GameState, Event]]:
    """The events of a property game (the same start, bots and seeds as
    `play_checked`) up to its first turn's beginning: the mulligan procedure."""
    variant, players, seed = game
    s = empty_state()
    bots = bots_for(players, seed)
    command: Command = start_command(f"prop-{index:03d}-{players}p-{seed}", variant,
                                     players, seed)
    while not s.game_over:
        for e in decide(s, command):
            apply(s, e)
            yield s, e
            if e.type == "TurnBegan":
                return
        marker = owed_marker(s)
        if marker is not None:
            command = RunEngineWork(marker=marker)
            continue
        player = waiting_players(s)[0]
        choice = bots[player].choose(s, player)
        assert choice is not None, f"game {index}: {player} has nothing to do"
        command = choice


def test_the_property_games_mulligan() -> None:
    """The issue's "players mulligan (some twice), with the free first mulligan in
    multiplayer", over the games the playouts check (they run with mulligans on): at
    least two players take two mulligans or more; in a multiplayer game each player's
    first mulligan is free (103.5c: nothing to the bottom) and some are taken; in a
    two-player game the n-th mulligan puts n cards on the bottom (103.5); the cards put
    on the bottom are the number the mulligan said; every hand is kept before the first
    turn begins."""
    taken: Counter[tuple[int, str]] = Counter()
    free_first = 0
    for index, game in enumerate(GAMES):
        free = game[1] > 2 or game[0] == "brawl"  # 103.5c: multiplayer, and Brawl
        owed: dict[str, int] = {}
        for s, e in opening_events(index, game):
            if isinstance(e, MulliganTaken):
                taken[(index, e.player)] += 1
                n = taken[(index, e.player)]
                assert e.bottom == (n - 1 if free else n), (game, e)
                free_first += free and n == 1 and e.rule == "103.5c"
                owed[e.player] = e.bottom
            elif isinstance(e, CardsPutOnBottom):
                assert len(e.cards) == owed.pop(e.player), (game, e)
            elif e.type == "TurnBegan":
                assert all(p.kept or p.left for p in s.players.values()), game
                assert not {p for p, n in owed.items() if n}, game
    twice = sorted(k for k, n in taken.items() if n >= 2)
    assert len(twice) >= 2, f"players who took two mulligans or more: {twice}"
    assert free_first >= 2, "no free first mulligan in the multiplayer games"
    assert any(GAMES[i][1] == 2 and GAMES[i][0] == "two_player" for i, _ in taken)


# ------------------------------------------------------------------ invariants


_ZONE = attrgetter("zone")
_OWNER = attrgetter("owner")
_DAMAGE = attrgetter("damage")
_COUNTERS = attrgetter("counters")


def state_problems(s: GameState, *, between_commands: bool) -> list[str]:
    """What is wrong with `s`: a fast pass (it runs after every event), then `_describe`
    to spell out a failure.

    Each object is listed exactly once: in its owner's zone list, on the battlefield, or
    as the card of a stack item on a marker's stack; its `Obj.zone` agrees. Inside one
    command's events a spell's card may sit in the stack zone for an event after its
    item left the stack (the item leaves, then the card moves, CR 608.2n); between
    commands that is a problem too. Damage, counters and poison are never negative;
    life totals are ints."""
    objects = s.objects
    ok = True
    seen = 0
    try:
        for (player, zone), ids in s.zones.items():
            if not ids:
                continue
            objs = list(map(objects.__getitem__, ids))
            seen += len(ids)
            if (zone in ("battlefield", "stack") or set(map(_ZONE, objs)) != {zone}
                    or set(map(_OWNER, objs)) != {player}):
                ok = False
        seen += len(s.battlefield)
        if set(map(_ZONE, map(objects.__getitem__, s.battlefield))) - {"battlefield"}:
            ok = False
        items = [i for m in s.markers.values() for i in m.stack]
        stacked = [s.stack_items[i] for i in items]
        cards = [x.obj for x in stacked if x.obj is not None]
        seen += len(cards)
        if set(map(_ZONE, map(objects.__getitem__, cards))) - {"stack"}:
            ok = False
    except KeyError:
        return _describe(s, between_commands) or ["an id is missing (KeyError)"]
    if len(set(items)) != len(items) or len(items) != len(s.stack_items) or any(
            x.marker != number for number, m in s.markers.items()
            for x in map(s.stack_items.__getitem__, m.stack)):
        ok = False
    orphans = 0 if between_commands else list(map(_ZONE, objects.values())).count("stack") \
        - len(cards)
    listed = set(chain(*s.zones.values(), s.battlefield, cards))
    if not (len(listed) == seen == len(objects) - orphans
            and max(objects, default=-1) < s.next_id):
        ok = False
    damage = list(map(_DAMAGE, objects.values()))
    if set(map(type, damage)) - {int} or min(damage, default=0) < 0:
        ok = False
    for counters in map(_COUNTERS, filter(_COUNTERS, objects.values())):
        if any(type(n) is not int or n < 0 for _, n in counters):
            ok = False
    for p in s.players.values():
        if type(p.life) is not int or type(p.poison) is not int or p.poison < 0:
            ok = False
    if ok:
        return []
    return _describe(s, between_commands) or ["the fast check and _describe disagree"]


def _describe(s: GameState, between_commands: bool) -> list[str]:
    """Every invariant problem of `s`, spelled out."""
    problems: list[str] = []
    where: dict[int, str] = {}

    def place(oid: int, label: str, zone: str, owner: str | None) -> None:
        if oid in where:
            problems.append(f"object {oid} is in {where[oid]} and in {label}")
            return
        where[oid] = label
        o = s.objects.get(oid)
        if o is None:
            problems.append(f"{label} holds {oid}, which is no object")
            return
        if o.zone != zone:
            problems.append(f"object {oid} ({o.name}) is in {label} but says zone {o.zone}")
        if owner is not None and o.owner != owner:
            problems.append(f"object {oid} ({o.name}) owned by {o.owner} is in {label}")

    for (player, zone), ids in s.zones.items():
        if zone in ("battlefield", "stack") and ids:
            problems.append(f"{player}'s {zone} list is not empty: {ids}")
            continue
        for oid in ids:
            place(oid, f"{player}'s {zone}", zone, player)
    for oid in s.battlefield:
        place(oid, "the battlefield", "battlefield", None)
    stacked: list[int] = []
    for number, m in s.markers.items():
        for item_id in m.stack:
            stacked.append(item_id)
            item = s.stack_items.get(item_id)
            if item is None:
                problems.append(f"marker {number}'s stack holds unknown item {item_id}")
                continue
            if item.marker != number:
                problems.append(f"item {item_id} says marker {item.marker}, is on {number}")
            if item.obj is not None:
                place(item.obj, f"stack item {item_id}", "stack", None)
    if len(stacked) != len(set(stacked)) or set(stacked) != set(s.stack_items):
        problems.append(f"stack items {sorted(s.stack_items)} vs marker stacks {stacked}")
    for oid in s.objects.keys() - where.keys():
        o = s.objects[oid]
        if o.zone == "stack" and not between_commands:
            continue
        problems.append(f"object {oid} ({o.name}, zone {o.zone}) is in no zone")
    for o in s.objects.values():
        if type(o.damage) is not int or o.damage < 0:
            problems.append(f"object {o.id} ({o.name}) has damage {o.damage!r}")
        for kind, n in o.counters:
            if type(n) is not int or n < 0:
                problems.append(f"object {o.id} ({o.name}) has {n!r} {kind} counters")
        if o.id >= s.next_id:
            problems.append(f"object {o.id} is not below next_id {s.next_id}")
    for p in s.players.values():
        if type(p.life) is not int:
            problems.append(f"{p.name}'s life total is {p.life!r}")
        if type(p.poison) is not int or p.poison < 0:
            problems.append(f"{p.name} has {p.poison!r} poison counters")
    return problems


# ------------------------------------------------------------------ the driver


class InvariantBroken(AssertionError):
    pass


@dataclass
class Playout:
    """One game being driven; `replica` is built from the events with `evolve` alone."""

    game_id: str
    session: GameSession
    seed: int
    replica: GameState = field(default_factory=empty_state)
    commands: int = 0
    engine_commands: int = 0
    probes: int = 0
    accepted: int = 0  # offered commands decide accepted at probes
    rejected: int = 0  # commands not offered that decide rejected at probes
    log: list[Event] = field(default_factory=list)

    @property
    def state(self) -> GameState:
        return self.session.state

    def fail(self, what: str, command: Command | None = None,
             event: Event | None = None) -> InvariantBroken:
        where = f"game {self.game_id} (seed {self.seed}, players {self.state.seats}) " \
                f"at version {self.state.version}"
        parts = [where, what]
        if command is not None:
            parts.append(f"command: {command!r}")
        if event is not None:
            parts.append(f"event: {event!r}")
        return InvariantBroken("\n".join(parts))

    def execute(self, command: Command) -> None:
        try:
            events = self.session.execute(command)
        except ArbiterError as exc:  # the driver only sends offered commands and due work
            raise self.fail(f"decide rejected it: {exc!r}", command) from exc
        self.commands += 1
        for n, e in enumerate(events, 1):
            if not is_rule(e.rule):
                raise self.fail(f"event cites {e.rule!r}, not a rule of the index",
                                command, e)
            try:
                self.replica = evolve(self.replica, e)
            except Exception as exc:
                raise self.fail(f"evolve raised {exc!r}", command, e) from exc
            last = n == len(events)  # the state between commands: the strict check
            problems = state_problems(self.replica, between_commands=last)
            if problems:
                raise self.fail("; ".join(problems), command, e)
        self.log.extend(events)
        if self.replica.version != self.state.version:
            raise self.fail(f"replica at {self.replica.version}", command)


def start_command(game_id: str, variant: str, players: int, seed: int) -> StartGame:
    """The game as `arbiter play` starts it (seeded seats, starting player, mulligans)."""
    names = [f"P{i + 1}" for i in range(players)]
    name, _, raw = variant.partition(":")
    options = dict(kv.split("=") for kv in raw.split(",")) if raw else {}
    base = options.get("base")
    single = options.get("single") == "1"  # 901.15, as `arbiter play --single-planar-deck`
    teams = team_names(name, players, base)
    return StartGame(
        game_id=game_id, variant=name, seed=seed, random_seating=True,
        random_start=True, mulligans=True, order_triggers=True,  # as `arbiter play`
        range_of_influence=int(options["range"]) if "range" in options else None,
        attack=options.get("attack"), base_variant=base, single_planar_deck=single,
        planar_deck=communal_planar_deck(name, players, base) if single else [],
        players=[seat_setup(name, i, n, teams[i], None).model_copy(
                     update=supplements(name, players, i, base, single))
                 for i, n in enumerate(names)])


def bots_for(players: int, seed: int) -> dict[str, RandomBot]:
    return {f"P{i + 1}": RandomBot(seed * 1000 + i) for i in range(players)}  # as play.py


def _start(session: GameSession, variant: str, players: int, seed: int) -> Playout:
    play = Playout(session.game_id, session, seed)
    play.execute(start_command(session.game_id, variant, players, seed))
    return play


def play_checked(store: EventStore, game_id: str, variant: str, players: int,
                 seed: int) -> Playout:
    """Play one bot game to its end (or a cap), checking invariants all the way."""
    play = _start(GameSession(store, game_id), variant, players, seed)
    bots = bots_for(players, seed)
    sampler = random.Random(f"probe:{game_id}:{seed}")
    in_a_row = 0
    first = True
    while not play.state.game_over:
        marker = play.session.engine_marker()
        if marker is not None:
            play.execute(RunEngineWork(marker=marker))
            play.engine_commands += 1
            in_a_row += 1
            if in_a_row > MAX_ENGINE_STEPS:
                raise play.fail("the engine never waits for a player")
            continue
        in_a_row = 0
        s = play.state
        if s.turns_taken > MAX_TURNS or len(s.battlefield) > MAX_PERMANENTS:
            break
        deciding = any(isinstance(m.pending, Decision) for m in s.markers.values())
        if first or sampler.random() < (PROBE_DECISION if deciding else PROBE_PRIORITY):
            probe(play)
            first = False
        for player in waiting_players(s):
            action = bots[player].choose(s, player)
            if action is not None:
                play.execute(action)
                break
        else:
            raise play.fail(f"nobody can act: waiting on {waiting_players(s)}, pending "
                            f"{[m.pending for m in s.markers.values()]}")
    if play.state.game_over:
        check_game_over(play)
    check_replay(play, store)
    return play


# ------------------------------------------------------------------ probes


@contextmanager
def unchanged(play: Playout, command: Command) -> Iterator[None]:
    snapshot = play.state.clone()
    yield
    if play.state != snapshot:
        raise play.fail("decide changed the state it was given", command)


def expect_accepted(play: Playout, command: PlayerCommand) -> None:
    with unchanged(play, command):
        try:
            events = decide(play.state, command)
        except (RuleViolation, InvalidCommand) as exc:
            raise play.fail(f"legal_actions offered it but decide rejected it: {exc}",
                            command) from exc
    if not events:
        raise play.fail("an offered command made no events", command)
    play.accepted += 1
    for e in events:
        if not is_rule(e.rule):
            raise play.fail(f"event cites {e.rule!r}, not a rule of the index", command, e)
    try:
        after = replay(events, play.state)
    except Exception as exc:
        raise play.fail(f"evolve raised {exc!r} on an offered command's events",
                        command) from exc
    problems = state_problems(after, between_commands=True)
    if problems:
        raise play.fail("after an offered command: " + "; ".join(problems), command)


def expect_rejected(play: Playout, command: Command, why: str) -> None:
    with unchanged(play, command):
        try:
            events = decide(play.state, command)
        except (RuleViolation, InvalidCommand):
            play.rejected += 1
            return
    raise play.fail(f"decide accepted a command that should be rejected ({why}); "
                    f"events: {[e.type for e in events]}", command)


def probe(play: Playout) -> None:
    """Check legal_actions against decide at this decision point."""
    s = play.state
    play.probes += 1
    before = state_hash(s)  # queries and decide leave it alone
    in_game = s.in_game()
    offered = {p: legal_actions(s, p) for p in s.seats}
    prio = {m.pending.player for m in s.markers.values() if isinstance(m.pending, Priority)}
    asked = {m.pending.player: m.pending for m in s.markers.values()
             if isinstance(m.pending, Decision)}
    holders = {m.holder for m in s.markers.values()}
    active_teams = {s.players[h].team for h in holders}
    if s.shared_team_turns:
        # 805.5a, 805.10b/d: any player of the team that has priority, or must make the
        # team's attack, block or damage assignment, may act for it.
        prio |= {q for q in s.seats if any(s.players[q].team == s.players[p].team
                                           for p in list(prio))}
        for p, team_decision in list(asked.items()):
            for q in s.seats:
                if s.players[q].team == s.players[p].team:
                    asked.setdefault(q, team_decision)

    for p in s.seats:
        if p not in in_game:
            if offered[p]:
                raise play.fail(f"{p} left the game but is offered {offered[p]}")
            expect_rejected(play, PassPriority(player=p), "player left the game")
            continue
        if p not in prio and p not in asked and offered[p] != [Concede(player=p)]:
            raise play.fail(f"{p} is not waited on but is offered {offered[p]}")
        for command in offered[p]:
            expect_accepted(play, command)

    for p in in_game:
        mine = offered[p]
        if p not in prio:
            expect_rejected(play, PassPriority(player=p), "no priority")
            for number in s.markers:
                expect_rejected(play, PassPriority(player=p, marker=number), "no priority")
        others = [o for q in in_game if q != p for o in s.zones.get((q, "hand"), [])]
        if others:
            expect_rejected(play, CastSpell(player=p, card=others[0]), "another's card")
            expect_rejected(play, PlayLand(player=p, card=others[-1]), "another's card")
        for oid in s.zones.get((p, "hand"), []):
            d = definition(s.objects[oid])
            if "Land" in d.types:
                land = PlayLand(player=p, card=oid)
                if all(not (isinstance(c, PlayLand) and c.card == oid) for c in mine):
                    expect_rejected(play, land, "PlayLand not offered")
                    for number in s.markers:
                        expect_rejected(play, land.model_copy(update={"marker": number}),
                                        "PlayLand not offered")
                expect_rejected(play, CastSpell(player=p, card=oid), "a land is not cast")
            elif ("Instant" not in d.types and s.players[p].team not in active_teams
                  and not any(getattr(a, "keyword", "").lower() == "flash"
                              for a in d.abilities)):
                # sorceries and permanent spells: only in your own main phase (307.1)
                expect_rejected(play, CastSpell(player=p, card=oid), "sorcery out of turn")
        decision = asked.get(p)
        kind = decision.kind if decision is not None else None
        if kind != "declare_attackers":
            expect_rejected(play, DeclareAttackers(player=p), "attackers not asked")
        if kind != "declare_blockers":
            expect_rejected(play, DeclareBlockers(player=p), "blockers not asked")
        if kind != "assign_combat_damage":
            expect_rejected(play, AssignCombatDamage(player=p, assignments={}),
                            "damage not asked")
        if kind not in ("legend_rule", "discard"):
            expect_rejected(play, ChooseObjects(player=p, choices=[]), "choice not asked")

    owing = {number for number, _ in owed_work(s)}
    for number in s.markers:
        if number not in owing:
            expect_rejected(play, RunEngineWork(marker=number), "engine owes no work")
    expect_rejected(play, RunEngineWork(marker=max(s.markers, default=0) + 7), "no marker")
    expect_rejected(play, PassPriority(player="Nobody"), "no such player")
    expect_rejected(play, StartGame(game_id=s.game_id, variant=s.variant, seed=s.seed,
                                    players=[PlayerSetup(name="A"), PlayerSetup(name="B")]),
                    "already started")
    if state_hash(s) != before:
        raise play.fail("legal_actions or decide changed the state hash")


def check_game_over(play: Playout) -> None:
    s = play.state
    survivors = [p for p in s.seats if not s.players[p].lost and not s.players[p].left]
    if any(legal_actions(s, p) for p in s.seats):
        raise play.fail("legal actions offered after the game ended")
    for p in s.seats:
        with pytest.raises(GameOver):
            decide(s, PassPriority(player=p))
    winners = [p for p in s.seats if s.players[p].won]
    if not winners and not any(s.players[p].drew for p in s.seats):
        raise play.fail(f"the game ended with no winner and no draw; survivors {survivors}")


def check_replay(play: Playout, store: EventStore) -> None:
    """Live state = replica = in-process replay of the stored log (and of the events)."""
    if play.replica != play.state:
        diff = [f.name for f in dataclasses.fields(play.state)
                if getattr(play.replica, f.name) != getattr(play.state, f.name)]
        raise play.fail(f"the evolve-only replica differs from the live state in {diff}")
    stored = [from_stored(e) for e in store.read_stream(play.game_id)]
    if stored != play.log:
        raise play.fail("the stored log differs from the events decide made")
    if state_hash(replay(stored)) != state_hash(play.state):
        raise play.fail("replaying the stored log gives another state")


def copy_log(store: EventStore, game_id: str, path: Path) -> None:
    """Write a game's stored log, exactly as stored, to a SQLite file (one append)."""
    log = [NewEvent(e.type, e.schema_version, e.payload, e.rule, e.metadata)
           for e in store.read_stream(game_id)]
    with open_store(path) as target:
        target.append(game_id, 0, log)


FRESH_SCRIPT = """
import json, sys
from arbiter_core.kernel.hashing import state_hash
from arbiter_runtime.session import GameSession
from arbiter_store import open_store
out = {}
for path, game_id in json.loads(sys.argv[1]):
    with open_store(path) as store:
        s = GameSession.load(store, game_id).state
        out[game_id] = [s.version, state_hash(s)]
print(json.dumps(out))
"""


def replay_in_fresh_process(games: list[tuple[Path, str]]) -> dict[str, list[object]]:
    env = dict(os.environ, PYTHONHASHSEED="4242")
    proc = subprocess.run(
        [sys.executable, "-c", FRESH_SCRIPT, json.dumps([[str(p), g] for p, g in games])],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    result: dict[str, list[object]] = json.loads(proc.stdout)
    return result


# ------------------------------------------------------------------ tests


@pytest.mark.parametrize("chunk", CHUNKS, ids=[f"games{c[0][0]:03d}-{c[-1][0]:03d}"
                                              for c in CHUNKS])
def test_random_playouts_keep_invariants(chunk: list[tuple[int, Game]],
                                         tmp_path: Path) -> None:
    fresh: list[tuple[Path, str]] = []
    live: dict[str, list[object]] = {}
    for index, (variant, players, seed) in chunk:
        game_id = f"prop-{index:03d}-{players}p-{seed}"
        with open_store(":memory:") as store:
            play = play_checked(store, game_id, variant, players, seed)
            if index % FRESH_PROCESS_EVERY == 0:
                path = tmp_path / f"{game_id}.sqlite"
                copy_log(store, game_id, path)
                fresh.append((path, game_id))
                live[game_id] = [play.state.version, state_hash(play.state)]
        assert play.probes >= 1 and play.accepted >= 1 and play.rejected >= 1
    if fresh:
        assert replay_in_fresh_process(fresh) == live


@settings(max_examples=6, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31 - 1),
       players=st.sampled_from([2, 3, 4]))
def test_hypothesis_playout_keeps_invariants(seed: int, players: int) -> None:
    variant = "two_player" if players == 2 else "free_for_all"
    with open_store(":memory:") as store:
        play = play_checked(store, f"hyp-{players}p-{seed}", variant, players, seed)
    assert play.commands > 0 and play.accepted >= 1 and play.rejected >= 1


def test_reading_a_zone_keeps_the_state_hash() -> None:
    """GameState.zone() adds an empty list for a zone it reads; state_hash must not see
    it, or read-only queries (legal_actions, target candidates) would make a live state
    hash differently from its replay (a regression seen while this file was written)."""
    with open_store(":memory:") as store:
        play = _start(GameSession(store, "zone-read"), "two_player", 2, 7)
        log = [from_stored(e) for e in store.read_stream("zone-read")]
    s = play.state
    player = s.seats[0]
    assert (player, "exile") not in s.zones
    before = state_hash(s)
    assert s.zone(player, "exile") == []  # a read
    assert state_hash(s) == before
    assert state_hash(s) == state_hash(replay(log))


def test_the_invariant_check_catches_broken_states() -> None:
    """The checker itself: each kind of breakage is reported (and a sound state isn't)."""
    with open_store(":memory:") as store:
        play = _start(GameSession(store, "broken"), "two_player", 2, 11)
    s = play.state
    assert state_problems(s, between_commands=True) == []
    p = s.seats[0]
    hand = s.zones[(p, "hand")]
    card = s.objects[hand[0]]

    def broken(change: Callable[[GameState], None], *, between: bool = True) -> list[str]:
        t = s.clone()
        change(t)
        return state_problems(t, between_commands=between)

    assert broken(lambda t: t.zones[(p, "hand")].append(card.id))  # listed twice
    assert broken(lambda t: t.battlefield.append(card.id))  # in two zones
    assert broken(lambda t: t.zones[(p, "hand")].remove(card.id))  # in no zone
    assert broken(lambda t: t.zones[(p, "hand")].append(10**6))  # no such object
    assert broken(lambda t: t.objects.update({card.id: replace(card, zone="graveyard")}))
    assert broken(lambda t: t.objects.update({card.id: replace(card, owner="Nobody")}))
    assert broken(lambda t: t.objects.update({card.id: replace(card, damage=-1)}))
    assert broken(lambda t: t.objects.update({card.id: replace(card, counters=(("+1/+1", -2),))}))
    assert broken(lambda t: t.players.update({p: replace(t.players[p], life=19.5)}))  # type: ignore[arg-type]
    assert broken(lambda t: t.players.update({p: replace(t.players[p], poison=-1)}))
    assert broken(lambda t: setattr(t, "next_id", card.id))

    def orphan_on_stack(t: GameState) -> None:  # a card in the stack zone, no stack item
        t.zones[(p, "hand")].remove(card.id)
        t.objects[card.id] = replace(card, zone="stack")

    assert broken(orphan_on_stack)
    assert not broken(orphan_on_stack, between=False)  # allowed inside one command
