"""Starting a game (CR 103) and setting up a judge's position.

A multiplayer game (more than two players, 800.1) uses one variant and any options
(800.2), fixed before play begins (806.2, 808.3, 811.2). Seats are as given, or random
when asked (800.5, 806.3).

StartGame: seats (random when asked, recorded in the event, 103.1; teams seated together,
808.2/809.2/810.3, or apart in Alternating Teams, 811.3), starting life (103.4, 810.4,
810.11), libraries shuffled with the outcome in the event (103.3), opening hands of seven
(103.5), the first turn with the draw skipped where 103.8 says so.
With `random_start` the starting player is chosen with the game's seed and recorded
(`StartingPlayerChosen`, 103.1); without it the first seat starts (the scenarios' rule).
With `mulligans` the London mulligan follows the opening hands (`game.mulligan`, 103.5);
without it they are kept. Both are off in games stored before they existed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Literal

from arbiter_core.cards import get_card
from arbiter_core.cards.fingerprint import card_data_hash
from arbiter_core.game import mulligan
from arbiter_core.game.first_turn import begin_first_turn
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import SetUpPosition, StartGame
from arbiter_core.kernel.decide import handles
from arbiter_core.kernel.errors import InvalidCommand
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.registry import Hooks
from arbiter_core.kernel.rng import Rng
from arbiter_core.kernel.rules_index import CR_EDITION
from arbiter_core.kernel.state import GameState, Obj, Player, Step
from arbiter_core.kernel.txn import Txn
from arbiter_core.kernel.version import ENGINE_VERSION
from arbiter_core.multiplayer import influence
from arbiter_core.multiplayer.seating import team_seats
from arbiter_core.stack import trigger_order
from arbiter_core.turns.draw import draw
from arbiter_core.variants.base import Variant, VariantComposed, get_variant


def _check_names(names: list[str]) -> None:
    if len(set(names)) != len(names):
        raise InvalidCommand("players", "player names must be unique")


def _check_cards(names: list[str], field: str) -> None:
    for name in names:
        try:
            get_card(name)
        except KeyError:
            raise InvalidCommand(field, f"unknown card {name!r}") from None


def _teams(v: Variant, seats: list[str], given: dict[str, str | None]) -> dict[str, str]:
    """Teams, checked against the variant's seating rules."""
    if not v.team_play:
        return {p: given.get(p) or p for p in seats}
    missing = [p for p in seats if not given.get(p)]
    if missing:
        raise InvalidCommand("players.team", f"{v.name} needs a team for {missing}")
    teams = {p: str(given[p]) for p in seats}
    sizes = Counter(teams.values())
    if len(sizes) < 2:
        raise InvalidCommand("players.team", f"{v.name} needs at least two teams")
    if v.equal_teams and len(set(sizes.values())) != 1:
        raise InvalidCommand("players.team", f"{v.name} needs teams of equal size")
    v.check_team_sizes(sizes)
    v.check_teams(seats, teams)
    return teams


def _started(t: Txn, v: Variant, game_id: str, seed: int, seats: list[str],
             teams: dict[str, str], life: dict[str, int], poison: dict[str, int],
             cmd: StartGame | SetUpPosition) -> None:
    heads = max(Counter(teams.values()).values())
    shared_turns = v.shared_team_turns if cmd.shared_team_turns is None \
        else cmd.shared_team_turns
    n = len(seats)
    if shared_turns and sum(1 for i in range(n) if teams[seats[i]] != teams[seats[(i + 1) % n]]) \
            > len(set(teams.values())):
        raise InvalidCommand("options.shared_team_turns", "shared team turns need each "
                                                          "team in adjacent seats (805.1)")
    v.check_options(cmd.deploy_creatures)
    t.emit(ev.GameStarted(
        game_id=game_id, variant=v.name, seed=seed, seats=seats, teams=teams,
        life=life, poison=poison,
        attack_option=cmd.attack or v.default_attack,
        range_of_influence=cmd.range_of_influence,
        ranges=v.ranges(seats, teams, cmd.range_of_influence),
        shared_team_turns=shared_turns, shared_life=v.shared_life,
        deploy_creatures=v.deploy_creatures if cmd.deploy_creatures is None
        else cmd.deploy_creatures,
        attack_adjacent_only=v.attack_adjacent_only, poison_limit=v.poison_limit(heads),
        emperors=v.emperors(seats, teams), grand_melee=v.grand_melee,
        engine_version=ENGINE_VERSION, rules_edition=CR_EDITION,
        card_data_hash=card_data_hash(), rule="103.1"))
    if cmd.order_triggers:
        t.emit(trigger_order.PlayersOrderTriggers(rule="603.3b"))
    if v.base_name is not None:  # a supplementary variant over its base (900.1)
        t.emit(VariantComposed(variant=v.name, base=v.base_name, rule="900.1"))


#: what else is set up once the cards are in their zones (400.11a: the cards outside the
#: game, `game/outside.py`): (txn, command)
AT_SETUP: Hooks[str, Callable[[Txn, StartGame | SetUpPosition], None]] = Hooks("setup")


@handles(StartGame, starts_game=True)
def start_game(t: Txn, cmd: StartGame) -> None:
    """CR 103: seats, life, libraries shuffled, opening hands, the first turn."""
    t.rng = Rng(cmd.seed, 0)  # the game's own seed: seating and shuffles (103.1, 103.3)
    v = get_variant(cmd.variant, cmd.base_variant, len(cmd.players))
    names = [p.name for p in cmd.players]
    _check_names(names)
    if not v.min_players <= len(names) <= v.max_players:
        raise InvalidCommand("players", f"{v.name} needs {v.min_players}-{v.max_players} "
                                        f"players, got {len(names)}")
    for p in cmd.players:
        _check_cards(p.deck, f"players.{p.name}.deck")
        _check_cards([p.commander] if p.commander else [], f"players.{p.name}.commander")
    given = {p.name: p.team for p in cmd.players}
    seats = v.random_seating(t.rng, names, given) if cmd.random_seating else names
    teams = _teams(v, seats, given)
    heads = max(Counter(teams.values()).values())
    life = cmd.starting_life or v.team_life(heads)
    lives = v.starting_lives(dict.fromkeys(seats, life), cmd)
    _started(t, v, cmd.game_id, cmd.seed, seats, teams, lives, {}, cmd)
    v.setting_up(t, cmd)
    decks = {p.name: p.deck for p in cmd.players}
    for name in seats:
        first = t.s.next_id
        t.emit(ev.CardsPut(player=name, zone="library", first_id=first, rule="103.2",
                           cards=[ev.CardSetup(name=n) for n in decks[name]]))
        t.emit(ev.LibraryShuffled(player=name, rule="103.3",
                                  order=t.rng.shuffled(t.s.zone(name, "library"))))
    for hook in AT_SETUP["all"]:
        hook(t, cmd)
    for name in seats:
        for _ in range(v.starting_hand_size(t.s, name)):
            draw(t, name, "103.5")
    order = seats
    if cmd.random_start:  # 103.1: the starting player (or team) chosen at random
        chosen = t.rng.choice(seats)
        t.emit(StartingPlayerChosen(player=chosen, rule="103.1"))
        i = seats.index(chosen)
        order = seats[i:] + seats[:i]
    first_player = v.supplements(t, cmd, v.first_player(order, teams))
    if t.s.shared_team_turns:
        # CR 805.3, 103.1a: a starting team; its turns go through its primary player (805.2).
        first_player = team_seats(seats, teams, first_player)[0]
    if cmd.mulligans:
        mulligan.begin(t, first_player)
    else:  # the hands are kept: the opening-hand actions, then the first turn
        begin_first_turn(t, first_player)


class StartingPlayerChosen(ev.EventBase):
    """The starting player, chosen at random with the game's seed (103.1): the variant's
    rule picks within that player's team (808.4, 809.4) and a shared-turns team plays
    through its primary player (805.2)."""

    type: Literal["StartingPlayerChosen"] = "StartingPlayerChosen"
    player: str


@handles(SetUpPosition, starts_game=True)
def set_up_position(t: Txn, cmd: SetUpPosition) -> None:
    """A judge's position: zones exactly as given, nothing shuffled or drawn; at turn 1
    the starting player (team) skips its first draw as 103.8a-b say."""
    v = get_variant(cmd.variant, cmd.base_variant, len(cmd.players))
    names = [p.name for p in cmd.players]
    _check_names(names)
    if cmd.active not in names:
        raise InvalidCommand("start.active", f"no player named {cmd.active!r}")
    try:
        step = Step(cmd.step)
    except ValueError:
        raise InvalidCommand("start.step", f"unknown step {cmd.step!r}") from None
    teams = _teams(v, names, {p.name: p.team for p in cmd.players})
    life, poison = _position_life(v, cmd, names, teams)
    _started(t, v, cmd.game_id, cmd.seed, names, teams, life, poison, cmd)
    _put_cards(t, cmd)
    for hook in AT_SETUP["all"]:
        hook(t, cmd)
    v.setting_up(t, cmd)
    active = cmd.active
    if t.s.shared_team_turns:  # 805.4a: the active team, through its primary player (805.2)
        active = team_seats(names, teams, active)[0]
    # Turn 1 of a position is the game's first turn: 103.8 applies to it.
    skip_draw = cmd.turn == 1 and v.first_player_skips_draw(len(names))
    v.position_supplements(t, cmd, active)
    v.place_markers(t, names, active, cmd.turn, step.value, dict(cmd.markers), skip_draw,
                    "500.1")


def _position_life(v: Variant, cmd: SetUpPosition, names: list[str], teams: dict[str, str]
                   ) -> tuple[dict[str, int], dict[str, int]]:
    """Each player's life and poison: as given, per team as given, else the variant's."""
    heads = max(Counter(teams.values()).values())
    base_life = cmd.starting_life or v.team_life(heads)
    modified = v.starting_lives(dict.fromkeys(names, base_life), cmd)
    life = {p.name: modified[p.name] if p.life is None else p.life for p in cmd.players}
    poison = {p.name: p.poison for p in cmd.players if p.poison}
    for team, total in cmd.team_life.items():
        life.update({name: total for name in names if teams[name] == team})
    for team, total in cmd.team_poison.items():
        poison.update({name: total for name in names if teams[name] == team})
    return life, poison


def _put_cards(t: Txn, cmd: SetUpPosition) -> None:
    """The position's cards in their zones, then its attachments and the permanents
    that are face down (708.2a: 2/2 creatures with no name)."""
    battlefield_ids: dict[str, list[int]] = {}
    for p in cmd.players:
        for zone, cards in p.zones.items():
            _check_cards([c.name for c in cards], f"players.{p.name}.{zone}")
            first = t.s.next_id
            if zone == "battlefield":
                battlefield_ids[p.name] = list(range(first, first + len(cards)))
            if cards:
                t.emit(ev.CardsPut(player=p.name, zone=zone, cards=cards, first_id=first,
                                   rule="103.2"))
    for a in cmd.attachments:
        try:
            obj = battlefield_ids[a.player][a.index]
            to = battlefield_ids[a.to_player][a.to_index]
        except (KeyError, IndexError):
            raise InvalidCommand("attached_to", "attachment names no permanent") from None
        t.emit(ev.Attached(obj=obj, to=to, rule="701.3a"))
    for player, index in cmd.face_down:
        ids = battlefield_ids.get(player, [])
        if not 0 <= index < len(ids):
            raise InvalidCommand("face_down", "face_down names no permanent")
        t.emit(ev.TurnedFaceDown(obj=ids[index], rule="708.2a"))


@applies(ev.GameStarted)
def _game_started(s: GameState, e: ev.GameStarted) -> None:
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


@applies(ev.CardsPut)
def _cards_put(s: GameState, e: ev.CardsPut) -> None:
    """Cards put into a zone at setup (a deck, or a scenario's position)."""
    oid = e.first_id
    for c in e.cards:
        s.timestamp += 1
        s.objects[oid] = Obj(
            id=oid, card=s.next_card, name=c.name, owner=e.player,
            controller=c.controller or e.player, default_controller=c.controller or e.player,
            zone=e.zone, tapped=c.tapped, sick=c.sick, damage=c.damage,
            counters=tuple(sorted(c.counters.items())), timestamp=s.timestamp)
        if e.zone == "battlefield":
            s.battlefield.append(oid)
        else:
            s.zone_for_update(e.player, e.zone).append(oid)
        oid += 1
        s.next_card += 1
    s.next_id = max(s.next_id, oid)


@explains(ev.GameStarted)
def _explain_game_started(before: GameState, e: ev.GameStarted, name: Namer) -> str:
    return (f"{e.variant} game starts: seats {', '.join(e.seats)}, life "
            f"{', '.join(f'{p} {n}' for p, n in e.life.items())}")


@applies(StartingPlayerChosen)
def _starting_player_chosen(s: GameState, e: StartingPlayerChosen) -> None:
    """A record: the markers placed next carry the choice."""


@explains(StartingPlayerChosen)
def _explain_starting_player(before: GameState, e: StartingPlayerChosen, name: Namer) -> str:
    return f"{e.player} is chosen at random to start (or their team)"


@explains(ev.CardsPut)
def _explain_cards_put(before: GameState, e: ev.CardsPut, name: Namer) -> str:
    return f"{len(e.cards)} cards put into {e.player}'s {e.zone}"
