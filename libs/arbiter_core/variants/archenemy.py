"""Archenemy (CR 904): a supplementary variant over Team vs. Team with exactly two teams
(904.2): the archenemy alone (904.2a) against the heroes (904.2b), attack multiple
players and shared team turns. Supervillain Rumble (904.12) plays it over Free-for-All,
each player an archenemy with a scheme deck.

Here: the scheme deck in the command zone (904.3-904.4, zone "scheme_deck", top first),
starting life 40 for an archenemy and 20 for the others (904.5), the archenemy's first
turn (904.6), scheme cards owned and controlled by their owner (904.7), setting a scheme
in motion as the archenemy's precombat main phase begins (904.9, 701.32), non-ongoing
schemes back to the bottom as a state-based action (904.10, 704.6e), ongoing schemes
until abandoned (904.11, 701.33). The schemes themselves are `schemes`. Archenemy
Commander (904.13) needs the Commander variant and is not here yet.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, Literal

from arbiter_core.cards import get_card
from arbiter_core.cards.model import CasualAbility
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.edits import move, shuffled
from arbiter_core.kernel.errors import InvalidCommand
from arbiter_core.kernel.events.base import EventBase
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.registry import Hooks
from arbiter_core.kernel.state import GameState, Marker, Obj, Step
from arbiter_core.kernel.txn import Txn
from arbiter_core.multiplayer.seating import active_players
from arbiter_core.sba.check import GAME_SBAS
from arbiter_core.turns.steps import step_action
from arbiter_core.variants.base import Supplement, Variant, variant, variant_of
from arbiter_core.variants.planechase import check_supplementary

SCHEME_DECK = "scheme_deck"
#: players who can't set schemes in motion this turn (All in Good Time)
NO_SCHEMES: Hooks[str, Callable[[GameState, str], bool]] = Hooks("no scheme this turn")
ARCHENEMY_LIFE = 40  # 904.5


class SchemeDeckShuffled(EventBase):
    """A scheme deck is shuffled as the game begins (904.3, 103.3)."""

    type: Literal["SchemeDeckShuffled"] = "SchemeDeckShuffled"
    player: str
    order: list[int]


class SchemeSetInMotion(EventBase):
    """The top card of a scheme deck is turned face up in the command zone (904.9,
    701.32a): a new object its owner controls (904.7)."""

    type: Literal["SchemeSetInMotion"] = "SchemeSetInMotion"
    obj: int
    new_id: int
    player: str


class SchemeTurnedFaceDown(EventBase):
    """A face-up scheme goes face down to the bottom of its owner's scheme deck: a
    non-ongoing one (704.6e, 904.10) or an abandoned ongoing one (701.33a)."""

    type: Literal["SchemeTurnedFaceDown"] = "SchemeTurnedFaceDown"
    obj: int
    new_id: int
    abandoned: bool = False


@variant
class Archenemy(Supplement):
    name = "archenemy"
    archenemy = True
    deck_sections = ("Scheme deck",)  # 904.3, the archenemy's list
    min_players = 2
    equal_teams = False  # 904.2b: the heroes are any number
    shared_team_turns = True  # 904.2
    default_attack = "multiple"  # 904.2

    @staticmethod
    def default_base(players: int) -> str:
        return "team_vs_team"  # 904.2

    def may_be_over(self, base: Variant) -> bool:
        """904.2: Team vs. Team; 904.12a: Supervillain Rumble is Free-for-All."""
        return base.name in ("team_vs_team", "free_for_all")

    def check_team_sizes(self, sizes: Counter[str]) -> None:
        """CR 904.2, 904.2a: exactly two teams, one of them a single player."""
        if len(sizes) != 2 or min(sizes.values()) != 1:
            raise InvalidCommand("players.team", "Archenemy is one archenemy alone against "
                                                 "one team of heroes (904.2, 904.2a)")

    def bot_teams(self, players: int) -> list[str | None]:
        """Bots: the first seat is the archenemy, the others the heroes (904.2a-b)."""
        return ["villain", *["heroes"] * (players - 1)]

    def starting_lives(self, life: dict[str, int], cmd: Any) -> dict[str, int]:
        """CR 904.5: 40 for the archenemy, 20 for each other player (904.12c: each
        player is an archenemy in a Supervillain Rumble)."""
        life = super().starting_lives(life, cmd)
        return {name: ARCHENEMY_LIFE if name in archenemies(cmd) else n
                for name, n in life.items()}

    def supplements(self, t: Txn, cmd: Any, first: str) -> str:
        """CR 904.3-904.4: each scheme deck into the command zone, shuffled; 904.6: the
        archenemy takes the first turn (904.12c: random in a Supervillain Rumble)."""
        first = super().supplements(t, cmd, first)
        check_rumble(self, cmd)
        for p in cmd.players:
            names = list(p.scheme_deck)
            check_supplementary(names, frozenset({"Scheme"}), f"players.{p.name}.scheme_deck",
                                "904.3")
            if names:
                t.emit(ev.CardsPut(player=p.name, zone=SCHEME_DECK, first_id=t.s.next_id,
                                   cards=[ev.CardSetup(name=n) for n in names],
                                   rule="904.4"))
                t.emit(SchemeDeckShuffled(player=p.name, rule="904.3", order=t.rng.shuffled(
                    t.s.zone(p.name, SCHEME_DECK))))
        chosen = archenemies(cmd)
        if not chosen:  # two teams of one: say which player is the archenemy
            raise InvalidCommand("players.archenemy", "which player is the archenemy "
                                 "(904.2a)? Designate one")
        for name in chosen:  # 904.3: each archenemy plays with a scheme deck
            if not t.s.zone(name, SCHEME_DECK):
                raise InvalidCommand(f"players.{name}.scheme_deck", f"{name} is an archenemy "
                                     "and needs a scheme deck (904.3)")
        if len(chosen) == 1:
            return chosen[0]
        return first

    def first_player(self, seats: list[str], teams: dict[str, str]) -> str:
        """CR 904.6 (with teams): the team of one; its player is the archenemy."""
        sizes = Counter(teams.values())
        alone = [p for p in seats if sizes[teams[p]] == 1]
        return alone[0] if len(sizes) == 2 and len(alone) == 1 else super().first_player(
            seats, teams)


    def position_supplements(self, t: Txn, cmd: Any, active: str) -> None:
        super().position_supplements(t, cmd, active)
        check_rumble(self, cmd)


def check_rumble(v: Variant, cmd: Any) -> None:
    """CR 904.2: Team vs. Team; 904.12a: Free-for-All only as a Supervillain Rumble."""
    if bool(cmd.supervillain_rumble) != (v.base_name == "free_for_all"):
        raise InvalidCommand("options.supervillain_rumble", "Archenemy is Team vs. Team "
                                                            "(904.2); Supervillain Rumble "
                                                            "is Free-for-All (904.12a)")


def archenemies(cmd: Any) -> list[str]:
    """The players designated archenemy (904.2a; 904.12b: every player in a Supervillain
    Rumble), from the command's setups; with nobody designated, the player alone on a
    team of one against the other team (904.2a)."""
    if getattr(cmd, "supervillain_rumble", False):
        return [p.name for p in cmd.players]
    flagged = [p.name for p in cmd.players if getattr(p, "archenemy", False)]
    if flagged:
        return flagged
    sizes = Counter(p.team for p in cmd.players if p.team)
    alone = [p.name for p in cmd.players if p.team and sizes[p.team] == 1]
    return alone if len(sizes) == 2 and len(alone) == 1 else []


def is_archenemy_game(s: GameState) -> bool:
    return bool(getattr(variant_of(s), "archenemy", False))


def face_up_schemes(s: GameState) -> list[Obj]:
    out = []
    for p in s.seats:
        for oid in s.zone(p, "command"):
            o = s.objects[oid]
            if "Scheme" in get_card(o.name).types:
                out.append(o)
    return out


def is_ongoing(o: Obj) -> bool:
    return "Ongoing" in get_card(o.name).supertypes


def set_in_motion(t: Txn, player: str, marker: int) -> None:
    """CR 701.32a, 904.9: move the top card of the scheme deck off it and turn it face
    up; its "when you set this scheme in motion" abilities trigger."""
    deck = t.s.zone(player, SCHEME_DECK)
    if not deck:
        return
    new = t.new_id()
    t.emit(SchemeSetInMotion(obj=deck[0], new_id=new, player=player, rule="904.9"))
    o = t.s.objects[new]
    for i, ab in enumerate(get_card(o.name).abilities):
        if isinstance(ab, CasualAbility) and ab.when == "set_in_motion":
            t.emit(ev.AbilityTriggered(source=o.id, source_name=o.name, controller=player,
                                       ability=i, marker=marker, rule="701.32b"))


@step_action(Step.PRECOMBAT_MAIN, order=-10)
def _set_scheme_in_motion(t: Txn, m: Marker) -> bool:
    """CR 904.9: immediately after the archenemy's precombat main phase begins, a
    turn-based action that doesn't use the stack (each active archenemy, 904.12c)."""
    if not is_archenemy_game(t.s):
        return False
    for p in active_players(t.s, m.holder):
        if not any(held(t.s, p) for held in NO_SCHEMES["all"]):
            set_in_motion(t, p, m.number)
    return False


def abandon(t: Txn, scheme: int) -> None:
    """CR 701.33a: an ongoing scheme is turned face down and put on the bottom of its
    owner's scheme deck."""
    if scheme in t.s.objects and t.s.objects[scheme].zone == "command":
        t.emit(SchemeTurnedFaceDown(obj=scheme, new_id=t.new_id(), abandoned=True,
                                    rule="701.33a"))


def scheme_sba(t: Txn, m: Marker) -> bool:
    """CR 704.6e, 904.10: a face-up non-ongoing scheme, when no triggered ability of any
    scheme is on the stack or waiting, goes face down to the bottom of its owner's
    scheme deck."""
    s = t.s
    if not is_archenemy_game(s):
        return False
    ups = face_up_schemes(s)
    ids = {o.id for o in ups}
    if any(tr.source in ids for tr in s.triggers) or any(
            it.kind == "triggered" and it.source in ids for it in s.stack_items.values()):
        return False
    done = False
    for o in ups:
        if not is_ongoing(o):
            t.emit(SchemeTurnedFaceDown(obj=o.id, new_id=t.new_id(), rule="704.6e"))
            done = True
    return done


GAME_SBAS.add("all", scheme_sba)


@applies(SchemeDeckShuffled)
def _shuffled(s: GameState, e: SchemeDeckShuffled) -> None:
    shuffled(s, e.player, "scheme_deck", e.order)


@applies(SchemeSetInMotion)
def _in_motion(s: GameState, e: SchemeSetInMotion) -> None:
    move(s, e.obj, e.new_id, "command", e.player)


@applies(SchemeTurnedFaceDown)
def _face_down(s: GameState, e: SchemeTurnedFaceDown) -> None:
    move(s, e.obj, e.new_id, "scheme_deck", None)  # put() adds it at the bottom


@explains(SchemeDeckShuffled)
def _explain_shuffled(before: GameState, e: SchemeDeckShuffled, name: Namer) -> str:
    return f"{e.player}'s scheme deck is shuffled"


@explains(SchemeSetInMotion)
def _explain_in_motion(before: GameState, e: SchemeSetInMotion, name: Namer) -> str:
    return f"{e.player} sets {before.objects[e.obj].name} in motion"


@explains(SchemeTurnedFaceDown)
def _explain_face_down(before: GameState, e: SchemeTurnedFaceDown, name: Namer) -> str:
    how = "is abandoned" if e.abandoned else "goes"
    return f"{before.objects[e.obj].name} {how} to the bottom of its owner's scheme deck"
