"""Starting a game (CR 103) and setting up a judge's position.

StartGame: seats (random when asked, recorded in the event, 103.1), starting life
(103.4), libraries shuffled with the outcome in the event (103.3), opening hands of seven
(103.5), the first turn with the draw skipped in a two-player game (103.8a).
Mulligans are not offered yet (they come with the casual-variants issue).
"""

from __future__ import annotations

from arbiter_core import events as ev
from arbiter_core.cards import get_card
from arbiter_core.cards.fingerprint import CARD_DATA_HASH
from arbiter_core.commands import SetUpPosition, StartGame
from arbiter_core.errors import InvalidCommand
from arbiter_core.rules_index import CR_EDITION
from arbiter_core.state import Step
from arbiter_core.turn import draw
from arbiter_core.txn import Txn
from arbiter_core.variants import get_variant
from arbiter_core.version import ENGINE_VERSION


def _check_names(names: list[str]) -> None:
    if len(set(names)) != len(names):
        raise InvalidCommand("players", "player names must be unique")


def _check_cards(names: list[str], field: str) -> None:
    for name in names:
        try:
            get_card(name)
        except KeyError:
            raise InvalidCommand(field, f"unknown card {name!r}") from None


def start_game(t: Txn, cmd: StartGame) -> None:
    v = get_variant(cmd.variant)
    names = [p.name for p in cmd.players]
    _check_names(names)
    if not v.min_players <= len(names) <= v.max_players:
        raise InvalidCommand("players", f"{v.name} needs {v.min_players}-{v.max_players} "
                                        f"players, got {len(names)}")
    for p in cmd.players:
        _check_cards(p.deck, f"players.{p.name}.deck")
    seats = t.rng.shuffled(names) if cmd.random_seating else names
    life = cmd.starting_life or v.starting_life
    t.emit(ev.GameStarted(
        game_id=cmd.game_id, variant=v.name, seed=cmd.seed, seats=seats,
        teams={p: p for p in seats}, life=dict.fromkeys(seats, life),
        attack_option=cmd.attack or "multiple", range_of_influence=cmd.range_of_influence,
        engine_version=ENGINE_VERSION, rules_edition=CR_EDITION,
        card_data_hash=CARD_DATA_HASH, rule="103.1"))
    decks = {p.name: p.deck for p in cmd.players}
    for name in seats:
        first = t.s.next_id
        t.emit(ev.CardsPut(player=name, zone="library", first_id=first, rule="103.2",
                           cards=[ev.CardSetup(name=n) for n in decks[name]]))
        t.emit(ev.LibraryShuffled(player=name, rule="103.3",
                                  order=t.rng.shuffled(t.s.zone(name, "library"))))
    for name in seats:
        for _ in range(7):
            draw(t, name, "103.5")
    t.emit(ev.MarkerPlaced(marker=1, holder=seats[0], turn=1, step=Step.UNTAP.value,
                           skip_draw=v.first_player_skips_draw(len(seats)), rule="103.8"))


def set_up_position(t: Txn, cmd: SetUpPosition) -> None:
    v = get_variant(cmd.variant)
    names = [p.name for p in cmd.players]
    _check_names(names)
    if cmd.active not in names:
        raise InvalidCommand("start.active", f"no player named {cmd.active!r}")
    try:
        step = Step(cmd.step)
    except ValueError:
        raise InvalidCommand("start.step", f"unknown step {cmd.step!r}") from None
    base_life = cmd.starting_life or v.starting_life
    t.emit(ev.GameStarted(
        game_id=cmd.game_id, variant=v.name, seed=cmd.seed, seats=names,
        teams={p.name: p.team or p.name for p in cmd.players},
        life={p.name: base_life if p.life is None else p.life for p in cmd.players},
        poison={p.name: p.poison for p in cmd.players if p.poison},
        attack_option=cmd.attack or "multiple", range_of_influence=cmd.range_of_influence,
        engine_version=ENGINE_VERSION, rules_edition=CR_EDITION,
        card_data_hash=CARD_DATA_HASH, rule="103.1"))
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
    t.emit(ev.MarkerPlaced(marker=1, holder=cmd.active, turn=cmd.turn, step=step.value,
                           rule="500.1"))
