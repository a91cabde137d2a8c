"""A complete bot game in one process (the embedded default): every event goes to the
store; the returned summary has the winner, the turn count and the event count."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from arbiter_core.kernel.commands import PlayerSetup, StartGame
from arbiter_core.kernel.errors import InvalidCommand
from arbiter_core.kernel.hashing import state_hash
from arbiter_core.kernel.state import Decision, GameState, Priority
from arbiter_core.variants.base import get_variant
from arbiter_runtime.bots import RandomBot
from arbiter_runtime.decks import (
    BOT_PLANAR_DECK,
    BOT_SCHEME_DECK,
    BOT_SINGLE_PLANAR_DECK,
    BOT_VANGUARDS,
    commander_deck_for_seat,
    deck_for_seat,
)
from arbiter_runtime.session import GameSession
from arbiter_runtime.snapshots import snapshot_every
from arbiter_store import EventStore

MAX_TURNS = 400  # turns taken by all players, for games of a few players
MAX_TURNS_PER_PLAYER = 40  # a safety net: 40-card decks run out long before


@dataclass(frozen=True)
class GameSummary:
    game_id: str
    winners: list[str]
    draw: bool
    turns: int
    events: int
    actions: int
    state_hash: str


def waiting_players(state: GameState) -> list[str]:
    """Players the game waits on now, one per marker."""
    out = []
    for m in state.markers.values():
        p = m.pending
        if isinstance(p, Priority | Decision):
            out.append(p.player)
    return out


def team_names(variant: str, players: int, base: str | None = None) -> list[str | None]:
    """Teams for a bot game, as the variant seats them by default (`bot_team_size`):
    two teams (2HG: two heads each with 4 players, three with 6, 810.1/810.11), Emperor
    teams of three; none in FFA."""
    v = get_variant(variant, base, players)
    fixed = getattr(v, "bot_teams", None)  # Archenemy: one against the rest (904.2a)
    if fixed is not None:
        return list(fixed(players))
    size = v.bot_team_size(players)
    if size is None:
        return [None] * players
    return [chr(ord("A") + i // size) for i in range(players)]


def seat_setup(variant: str, i: int, name: str, team: str | None,
          own: list[str] | None) -> PlayerSetup:
    """A seat's deck: its own, else a bot deck; in a game whose decks have a commander
    (903.3) an own deck names it first."""
    size = get_variant(variant).commander_deck
    if not size:
        return PlayerSetup(name=name, team=team, deck=own or deck_for_seat(i))
    commander, deck = (own[0], own[1:]) if own else commander_deck_for_seat(i, size)
    return PlayerSetup(name=name, team=team, deck=deck, commander=commander)


def supplements(variant: str, players: int, seat: int, base: str | None = None,
                single_planar_deck: bool = False) -> dict[str, Any]:
    """Each bot's planar deck in Planechase (901.3; none with the single planar deck
    option, 901.15c); the archenemy's scheme deck (904.3: the first seat, `bot_teams`);
    each bot's vanguard (902.3)."""
    v = get_variant(variant, base, players)
    out: dict[str, Any] = {}
    if getattr(v, "planechase", False) and not single_planar_deck:
        out["planar_deck"] = list(BOT_PLANAR_DECK)
    if getattr(v, "archenemy", False) and seat == 0:  # 904.13d: one of a name
        distinct = getattr(v, "distinct_schemes", False)
        out["scheme_deck"] = list(dict.fromkeys(BOT_SCHEME_DECK) if distinct
                                  else BOT_SCHEME_DECK)
        out["archenemy"] = True
    if getattr(v, "vanguard", False):  # 902.3: one vanguard card each
        out["vanguard"] = BOT_VANGUARDS[seat % len(BOT_VANGUARDS)]
    return out


def communal_planar_deck(variant: str, players: int, base: str | None = None
                         ) -> list[str]:
    """The bots' communal planar deck for the single planar deck option (901.15), if it
    is legal for this many players (901.15a: at least the smaller of forty and ten times
    the number of players)."""
    if not getattr(get_variant(variant, base, players), "planechase", False):
        raise InvalidCommand("options.single_planar_deck", "the single planar deck option "
                             "is a Planechase option (901.15)")
    need = min(40, 10 * players)
    if len(BOT_SINGLE_PLANAR_DECK) < need:
        raise InvalidCommand("options.single_planar_deck", f"the bots' communal planar "
                             f"deck has {len(BOT_SINGLE_PLANAR_DECK)} cards; {players} "
                             f"players need {need} (901.15a)")
    return list(BOT_SINGLE_PLANAR_DECK)


def own_supplements(seat: str, bots: dict[str, Any], listed: Mapping[str, Any]
                    ) -> dict[str, Any]:
    """The bots' supplementary decks, replaced by those of the seat's own list: its
    planar deck (901.3), its vanguard (902.3), its sideboard (cards outside the game,
    400.11a), and its scheme deck if the seat is an archenemy (904.3: the archenemy's;
    the archenemy's list needs one)."""
    out = dict(bots)
    for key in ("planar_deck", "vanguard", "sideboard"):
        if key in listed:
            out[key] = listed[key]
    if listed and bots.get("archenemy"):
        if "scheme_deck" not in listed:
            raise InvalidCommand(f"players.{seat}.scheme_deck", f"{seat} is the archenemy "
                                 "(904.2a): its deck list needs a Scheme deck (904.3)")
        out["scheme_deck"] = listed["scheme_deck"]
    elif "scheme_deck" in listed:
        raise InvalidCommand(f"players.{seat}.scheme_deck", f"{seat} is a hero: only the "
                             "archenemy has a scheme deck (904.3)")
    return out


def play_bot_game(store: EventStore, game_id: str, players: int, seed: int,
                  variant: str = "free_for_all",
                  progress: Callable[[GameState], None] | None = None,
                  attack: Literal["left", "right", "multiple", "any"] | None = None,
                  range_of_influence: int | None = None,
                  decks: dict[str, list[str]] | None = None,
                  base: str | None = None,
                  lists: dict[str, dict[str, Any]] | None = None,
                  single_planar_deck: bool = False) -> GameSummary:
    """`decks`: a seat's own deck (checked deck lists); other seats get the bot decks.
    `lists`: a seat's own supplementary decks from its list (`planar_deck`, `vanguard`,
    and `scheme_deck` for the archenemy seat, 904.2a), replacing the bots'.
    `base`: a casual variant's base variant (Planechase over Two-Headed Giant, 901.12).
    `single_planar_deck`: Planechase's single planar deck option (901.15), with the
    bots' communal deck (`communal_planar_deck`)."""
    names = [f"P{i + 1}" for i in range(players)]
    communal = communal_planar_deck(variant, players, base) if single_planar_deck else []
    own = decks or {}
    teams = team_names(variant, players, base)
    session = GameSession(store, game_id, snapshot_every=snapshot_every(players))
    session.execute(StartGame(
        game_id=game_id, variant=variant, seed=seed, random_seating=True, attack=attack,
        base_variant=base, single_planar_deck=single_planar_deck, planar_deck=communal,
        range_of_influence=range_of_influence, random_start=True, mulligans=True,
        order_triggers=True,
        players=[seat_setup(variant, i, n, teams[i], own.get(n)).model_copy(
                     update=own_supplements(n, supplements(variant, players, i, base,
                                                               single_planar_deck),
                                            (lists or {}).get(n, {})))
                 for i, n in enumerate(names)]))
    bots = {n: RandomBot(seed * 1000 + i) for i, n in enumerate(names)}
    actions = 0
    while not session.state.game_over:
        session.run_engine()
        if session.state.game_over:
            break
        limit = max(MAX_TURNS, MAX_TURNS_PER_PLAYER * players)
        if session.state.turns_taken > limit:
            raise RuntimeError(f"game {game_id} did not end in {limit} turns")
        for player in waiting_players(session.state):
            action = bots[player].choose(session.state, player)
            if action is None:
                continue
            session.execute(action)
            actions += 1
            break
        if progress is not None:
            progress(session.state)
    s = session.state
    winners = [p for p in s.seats if s.players[p].won]
    return GameSummary(game_id=game_id, winners=winners,
                       draw=any(p.drew for p in s.players.values()),
                       turns=s.turns_taken, events=s.version, actions=actions,
                       state_hash=state_hash(s))
