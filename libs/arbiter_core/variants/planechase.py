"""Planechase (CR 901): a supplementary variant played over a base one - the two-player
game or Free-for-All by default (901.2), Two-Headed Giant (901.12) or Grand Melee
(901.14) as chosen.

Here: the planar decks (901.3, checked by `deck_rules`; in the command zone throughout,
901.4, as the zone "planar_deck", top first), the starting plane (901.5), the planar
controller (901.6; 901.12b the active team's primary player; 901.14a each holder of a
turn marker in Grand Melee), planeswalking (701.31, 901.11) and what happens when a
player leaves (901.10). The planar die is `planar_die`, the cards `planes`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import Field

from arbiter_core.cards import get_card
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import StartGame
from arbiter_core.kernel.edits import move, set_obj, shuffled
from arbiter_core.kernel.errors import InvalidCommand
from arbiter_core.kernel.events.base import EventBase
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import GameState, Obj
from arbiter_core.kernel.txn import Txn, before_emit
from arbiter_core.multiplayer import grand_melee as markers
from arbiter_core.multiplayer.seating import next_in_turn_order, team_seats
from arbiter_core.variants.base import Supplement, variant, variant_of

PLANAR_DECK = "planar_deck"
#: the planeswalking ability's index on its stack item (901.8: it has no source; the item
#: names the face-up card it was rolled under)
PLANESWALKING = -1
PLANAR_TYPES = frozenset({"Plane", "Phenomenon"})
SINGLE = "single_planar_deck"  # 901.15, in `GameState.casual_options`


class PlanarDeckShuffled(EventBase):
    """A planar deck is shuffled as the game begins (901.3, 103.3); the order in it."""

    type: Literal["PlanarDeckShuffled"] = "PlanarDeckShuffled"
    player: str
    order: list[int]


class PlaneTurnedFaceUp(EventBase):
    """The top card of a planar deck is turned face up in the command zone (901.5,
    701.31a), a new object controlled by the planar controller `controller` (901.6)."""

    type: Literal["PlaneTurnedFaceUp"] = "PlaneTurnedFaceUp"
    obj: int
    new_id: int
    controller: str
    planeswalked: bool = True  # 901.11: False for the starting plane (901.5)


class PlaneTurnedFaceDown(EventBase):
    """A face-up plane or phenomenon is turned face down and put on the bottom of its
    owner's planar deck (701.31a, 901.5, 901.14b)."""

    type: Literal["PlaneTurnedFaceDown"] = "PlaneTurnedFaceDown"
    obj: int
    new_id: int


class PlanarControllerChanged(EventBase):
    """A player becomes the planar controller of these face-up cards (901.6, 901.12b)."""

    type: Literal["PlanarControllerChanged"] = "PlanarControllerChanged"
    player: str
    objs: list[int]


@variant
class Planechase(Supplement):
    name = "planechase"
    planechase = True
    deck_sections = ("Planar deck",)  # 901.3, checked by arbiter_decks

    def supplements(self, t: Txn, cmd: Any, first: str) -> str:
        """CR 901.3-901.5: each planar deck is put into the command zone and shuffled;
        the starting player (901.14a: each player starting with a turn marker) sets a
        starting plane."""
        first = super().supplements(t, cmd, first)
        options(t, cmd)
        starters = self._starters(t.s, first)
        for name, deck in self._decks(cmd, starters[0]):
            put_planar_deck(t, name, deck)
            t.emit(PlanarDeckShuffled(player=name, rule="901.3",
                                      order=t.rng.shuffled(t.s.zone(name, PLANAR_DECK))))
        for starter in starters:
            set_starting_plane(t, starter)
        return first

    def _decks(self, cmd: Any, controller: str) -> list[tuple[str, list[str]]]:
        """Each player's planar deck (901.3); with the single planar deck option the
        communal one, owned by the planar controller (901.15a-b), and no other."""
        if not cmd.single_planar_deck:
            return [(p.name, list(p.planar_deck)) for p in cmd.players]
        check_single(self, cmd)
        return [(controller, list(cmd.planar_deck))]

    def position_supplements(self, t: Txn, cmd: Any, active: str) -> None:
        """A position's face-up planes (listed in `command`) are controlled by the planar
        controller, the active player (901.6)."""
        super().position_supplements(t, cmd, active)
        options(t, cmd)
        holders = set(getattr(cmd, "markers", {}).values()) if self.grand_melee else set()
        ups = [o.id for o in face_up(t.s) if o.controller != active
               and o.controller not in holders]  # 901.14a: each marker's holder's own
        if cmd.single_planar_deck:
            check_single(self, cmd)
        if ups or communal_keeper(t.s) not in (None, active):
            t.emit(PlanarControllerChanged(player=active, objs=ups, rule="901.6"))

    def _starters(self, s: GameState, first: str) -> list[str]:
        if self.grand_melee:
            return markers.first_holders(s.seats, first)
        if s.shared_team_turns:  # 901.12b: the primary player of the starting team
            teams = {p: s.players[p].team for p in s.seats}
            return [team_seats(s.seats, teams, first)[0]]
        return [first]

    def players_left(self, t: Txn, players: list[str]) -> None:
        super().players_left(t, players)
        planar_leavers(t, players)


class PlanechaseOptions(EventBase):
    """A judge's or a table's choices for the planar die: its next results, supposed
    (a position's `planar_die`), and rolls that cost no mana (`planar_die_rolls_free`)."""

    type: Literal["PlanechaseOptions"] = "PlanechaseOptions"
    results: list[Literal["blank", "chaos", "planeswalker"]] = Field(default_factory=list)
    free_rolls: bool = False
    single: bool = False  # 901.15: the single planar deck option


def options(t: Txn, cmd: Any) -> None:
    results = list(getattr(cmd, "planar_die", ()))
    if results or cmd.planar_die_rolls_free or cmd.single_planar_deck:
        t.emit(PlanechaseOptions(results=results, free_rolls=cmd.planar_die_rolls_free,
                                 single=cmd.single_planar_deck,
                                 rule="901.15" if cmd.single_planar_deck else "901.9"))


def check_single(v: Supplement, cmd: Any) -> None:
    """901.15: no player has a planar deck of their own; Grand Melee's several planar
    controllers (901.14a) would make 901.15b's owner ambiguous, so it is refused."""
    if v.grand_melee:
        raise InvalidCommand("options.single_planar_deck", "the single planar deck option "
                             "needs one planar controller (901.15b), not Grand Melee's")
    if isinstance(cmd, StartGame):
        for p in cmd.players:
            if p.planar_deck:
                raise InvalidCommand(f"players.{p.name}.planar_deck", "with the single "
                                     "planar deck option the communal deck is used (901.15c)")


def is_single(s: GameState) -> bool:
    return SINGLE in s.casual_options


def communal_keeper(s: GameState) -> str | None:
    """901.15b: the owner of the communal deck's cards (the planar controller)."""
    if not is_single(s):
        return None
    for p in s.seats:
        if s.zone(p, PLANAR_DECK):
            return p
    return next((o.owner for o in face_up(s)), None)


@applies(PlanechaseOptions)
def _options(s: GameState, e: PlanechaseOptions) -> None:
    s.planar_die = tuple(e.results)
    if e.free_rolls:
        s.casual_options = tuple(sorted({*s.casual_options, "planar_die_rolls_free"}))
    if e.single:
        s.casual_options = tuple(sorted({*s.casual_options, SINGLE}))


@explains(PlanechaseOptions)
def _explain_options(before: GameState, e: PlanechaseOptions, name: Namer) -> str:
    free = "; rolling it costs no mana" if e.free_rolls else ""
    return f"the planar die's next results: {', '.join(e.results) or 'random'}{free}"


def is_planechase(s: GameState) -> bool:
    return bool(getattr(variant_of(s), "planechase", False))


def check_supplementary(names: list[str], types: frozenset[str], field: str,
                        rule: str) -> None:
    """Reject a supplementary deck with an unknown card, or a card of the wrong type
    (901.3: planes and phenomena; 904.3: schemes)."""
    for name in names:
        try:
            d = get_card(name)
        except KeyError:
            raise InvalidCommand(field, f"unknown card {name!r}") from None
        if not types & set(d.types):
            raise InvalidCommand(field, f"{name} can't be in this deck ({rule})")


def put_planar_deck(t: Txn, player: str, names: list[str]) -> None:
    check_supplementary(names, PLANAR_TYPES, f"players.{player}.planar_deck", "901.3")
    if names:
        t.emit(ev.CardsPut(player=player, zone=PLANAR_DECK, first_id=t.s.next_id,
                           cards=[ev.CardSetup(name=n) for n in names], rule="901.4"))


def is_phenomenon(o: Obj) -> bool:
    return "Phenomenon" in get_card(o.name).types


def face_up(s: GameState) -> list[Obj]:
    """The face-up planes and phenomena, in the command zone (901.4, 901.14)."""
    out = []
    for p in s.seats:
        for oid in s.zone(p, "command"):
            o = s.objects[oid]
            if PLANAR_TYPES & set(get_card(o.name).types):
                out.append(o)
    return out


def set_starting_plane(t: Txn, player: str) -> None:
    """CR 901.5: turn the top card face up; a phenomenon goes to the bottom and the next
    card is turned up, until a plane is (nothing triggers meanwhile)."""
    for _ in range(len(t.s.zone(player, PLANAR_DECK))):
        top = t.s.zone(player, PLANAR_DECK)[0]
        new = t.new_id()
        t.emit(PlaneTurnedFaceUp(obj=top, new_id=new, controller=player, planeswalked=False,
                                 rule="901.5"))
        if not is_phenomenon(t.s.objects[new]):
            return
        t.emit(PlaneTurnedFaceDown(obj=new, new_id=t.new_id(), rule="901.5"))


def planeswalk(t: Txn, player: str, away: Sequence[int] | None = None) -> None:
    """CR 701.31a, 901.11: the player planeswalks away from every face-up plane and
    phenomenon they control (901.11c; `away` when given) - each to the bottom of its
    owner's planar deck - then turns the top card of their planar deck face up
    (901.15c: the communal deck). Effects that last until a player planeswalks end
    (901.11)."""
    s = t.s
    leaving = list(away) if away is not None else [
        o.id for o in face_up(s) if o.controller == player or not s.grand_melee]
    from_plane = any(oid in s.objects and not is_phenomenon(s.objects[oid]) for oid in leaving)
    for oid in leaving:
        if oid in s.objects:
            t.emit(PlaneTurnedFaceDown(obj=oid, new_id=t.new_id(), rule="701.31a"))
    for f in list(t.s.effects):
        if f.kind == "until_planeswalk" and from_plane:  # "away from a plane"
            t.emit(ev.EffectEnded(effect=f.id, rule="901.11"))
    deck = t.s.zone(player, PLANAR_DECK)
    if deck:
        t.emit(PlaneTurnedFaceUp(obj=deck[0], new_id=t.new_id(), controller=player,
                                 rule="701.31a"))


def planar_controller(s: GameState, holder: str) -> str:
    """CR 901.6, 901.12b: the active player, or the active team's primary player."""
    if s.shared_team_turns:
        teams = {p: s.players[p].team for p in s.seats}
        return next(p for p in team_seats(s.seats, teams, holder) if not s.players[p].left)
    return holder


@before_emit(ev.TurnBegan)
def _new_planar_controller(t: Txn, e: ev.TurnBegan) -> None:
    """CR 901.6: the planar controller is whoever is the active player (901.12b: the
    active team's primary player; 901.14a: in Grand Melee, the planes the marker's
    previous holder controlled go with the marker)."""
    s = t.s
    if not is_planechase(s):
        return
    before = s.markers[e.marker].holder
    now = planar_controller(s, e.player)
    objs = [o.id for o in face_up(s)
            if o.controller != now and (not s.grand_melee or o.controller == before)]
    if objs or communal_keeper(s) not in (None, now):
        t.emit(PlanarControllerChanged(player=now, objs=objs, rule="901.6"))


def planar_leavers(t: Txn, players: list[str]) -> None:
    """CR 901.6, 901.10: planes controlled by a leaver get the next player in turn order
    as controller; if the planes that left the game with their owner (800.4a) were the
    face-up ones, the planar controller turns the top of their planar deck face up -
    at once, not as a state-based action (901.14b: in Grand Melee a leaver's planes go
    to the bottom of their owners' decks instead, with no one planeswalking). 901.10a: a
    planeswalking ability on the stack whose plane left the game ceases to exist."""
    s = t.s
    if not is_planechase(s) or s.game_over:
        return
    for item in list(s.stack_items.values()):  # 901.10a: its plane left the game
        if item.ability == PLANESWALKING and item.source not in s.objects:
            t.emit(ev.TriggerRemoved(item=item.id, marker=item.marker, rule="901.10a"))
    ups = face_up(s)
    fewer_markers = s.grand_melee and len(s.in_game()) // 4 < len(s.markers)
    for o in ups:
        if not s.players[o.controller].left:
            continue
        if fewer_markers:  # 901.14b: to the bottom of its owner's deck; no one planeswalks
            t.emit(PlaneTurnedFaceDown(obj=o.id, new_id=t.new_id(), rule="901.14b"))
            continue
        heir = next_in_turn_order(s, o.controller)
        if heir is not None:
            t.emit(PlanarControllerChanged(player=heir, objs=[o.id], rule="901.6"))
    if face_up(t.s) or s.grand_melee:
        return
    holder = next(iter(t.s.markers.values())).holder
    controller = planar_controller(t.s, holder) if not t.s.players[holder].left \
        else next_in_turn_order(t.s, holder)
    if controller is not None:
        planeswalk(t, controller, away=[])


@applies(PlanarDeckShuffled)
def _shuffled(s: GameState, e: PlanarDeckShuffled) -> None:
    shuffled(s, e.player, "planar_deck", e.order)


@applies(PlaneTurnedFaceUp)
def _face_up(s: GameState, e: PlaneTurnedFaceUp) -> None:
    move(s, e.obj, e.new_id, "command", e.controller)


@applies(PlaneTurnedFaceDown)
def _face_down(s: GameState, e: PlaneTurnedFaceDown) -> None:
    move(s, e.obj, e.new_id, "planar_deck", None)  # put() adds it at the bottom


@applies(PlanarControllerChanged)
def _controller(s: GameState, e: PlanarControllerChanged) -> None:
    if is_single(s):  # 901.15b: the planar controller owns the communal cards
        _pass_communal(s, e.player, e.objs)
    for oid in e.objs:
        set_obj(s, oid, controller=e.player)


def _pass_communal(s: GameState, player: str, objs: list[int]) -> None:
    for p in s.seats:
        deck = s.zones.get((p, PLANAR_DECK))
        if p != player and deck:
            s.zones[(player, PLANAR_DECK)] = [*s.zone(player, PLANAR_DECK), *deck]
            s.zones[(p, PLANAR_DECK)] = []
            for oid in deck:
                set_obj(s, oid, owner=player)
    for oid in objs:
        o = s.objects[oid]
        if o.owner != player:
            s.zones[(o.owner, "command")] = [i for i in s.zone(o.owner, "command")
                                             if i != oid]
            s.zones[(player, "command")] = [*s.zone(player, "command"), oid]
            set_obj(s, oid, owner=player)


@explains(PlanarDeckShuffled)
def _explain_shuffled(before: GameState, e: PlanarDeckShuffled, name: Namer) -> str:
    return f"{e.player}'s planar deck is shuffled"


@explains(PlaneTurnedFaceUp)
def _explain_face_up(before: GameState, e: PlaneTurnedFaceUp, name: Namer) -> str:
    card = before.objects[e.obj].name
    verb = "planeswalks to" if e.planeswalked else "turns face up"
    return f"{e.controller} {verb} {card}"


@explains(PlaneTurnedFaceDown)
def _explain_face_down(before: GameState, e: PlaneTurnedFaceDown, name: Namer) -> str:
    return f"{before.objects[e.obj].name} goes to the bottom of its owner's planar deck"


@explains(PlanarControllerChanged)
def _explain_controller(before: GameState, e: PlanarControllerChanged, name: Namer) -> str:
    return f"{e.player} becomes the planar controller"
