"""The London mulligan (CR 103.5), offered when the game is started with `mulligans`.

- 103.5: the starting player declares whether they take a mulligan, then each other
  player in turn order (a `mulligan` decision: "keep" or "mulligan"); with shared team
  turns the starting team's players first, then each other team's (103.5d,
  `first_turn.starting_order`), a team's players in whatever order it likes (805.3a: a
  teammate still to declare may answer the decision in place of the one asked). Once
  all have declared, those who chose a mulligan take it at the same time: the hand is
  shuffled into the library (the order in the event, 701.24a), a new hand of the
  starting hand size is drawn, and as many cards as the mulligans counted so far go on
  the bottom of the library (a `mulligan_bottom` decision). A player who keeps may take
  no more mulligans; the process repeats until nobody takes one. A player may take
  mulligans until the hand would be zero cards.
- 103.5a: the starting hand size is the variant's (`Variant.starting_hand_size`, seven;
  Vanguard's hand modifier overrides it).
- 103.5c: in a multiplayer game (and in Brawl) the first mulligan doesn't count
  (`Variant.free_first_mulligan`).

The decisions are asked on the first turn marker, placed for the procedure with the
starting player as its holder; when every hand is kept the first turn begins
(`first_turn.begin_first_turn`, 103.6-103.8). Each decision and each mulligan is an
event, so a replay never re-decides one.
"""

from __future__ import annotations

from itertools import combinations, islice
from typing import Literal

from arbiter_core.game.first_turn import begin_first_turn, starting_order
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseObjects, ChooseOption, PlayerCommand
from arbiter_core.kernel.decisions import check_choices, decision
from arbiter_core.kernel.edits import move, set_player
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import Decision, GameState, Marker, Step
from arbiter_core.kernel.txn import Txn
from arbiter_core.turns.draw import draw
from arbiter_core.variants.base import variant_of

MARKER = 1  # the marker the procedure's decisions are asked on
_BOTTOM_ANSWERS = 200  # at most this many answers listed for a bottom choice


class MulliganDeclared(ev.EventBase):
    """A player declares whether they take a mulligan (103.5)."""

    type: Literal["MulliganDeclared"] = "MulliganDeclared"
    player: str
    mulligan: bool


class MulliganTaken(ev.EventBase):
    """A player took a mulligan: their hand was shuffled into their library and a new
    hand drawn; `bottom` cards of it go on the bottom (103.5, 103.5c)."""

    type: Literal["MulliganTaken"] = "MulliganTaken"
    player: str
    bottom: int


class CardsPutOnBottom(ev.EventBase):
    """Cards from a hand go on the bottom of their owner's library, in this order (the
    last listed is the bottom card): new objects `new_ids` (400.7)."""

    type: Literal["CardsPutOnBottom"] = "CardsPutOnBottom"
    player: str
    cards: list[int]
    new_ids: list[int]


def begin(t: Txn, first: str) -> None:
    """The procedure begins: the first marker is placed with the starting player, and
    the first declaration is asked for."""
    # waiting (nobody owes work) until the first turn begins: a log re-decided without
    # its metadata sees no engine work inside the StartGame batch
    t.emit(ev.MarkerPlaced(marker=MARKER, holder=first, turn=1, step=Step.UNTAP.value,
                           waiting=True, rule="103.5"))
    go_on(t)


def counted(t: Txn, player: str) -> int:
    """The mulligans that count for `player` (103.5c: the first is free in
    multiplayer games and Brawl)."""
    taken = t.s.players[player].mulligans
    free = 1 if variant_of(t.s).free_first_mulligan(t.s) and taken else 0
    return taken - free


def may_mulligan(t: Txn, player: str) -> bool:
    """Until the hand would be zero cards (103.5)."""
    return counted(t, player) < variant_of(t.s).starting_hand_size(t.s, player)


def go_on(t: Txn) -> None:
    """The next thing the procedure needs: a bottom choice, a declaration, the
    mulligans declared, or - everyone has kept - the first turn."""
    first = t.s.markers[MARKER].holder
    while True:
        order = starting_order(t, first)
        s = t.s
        owing = next((p for p in order if s.players[p].to_bottom), None)
        if owing is not None:
            t.emit(ev.DecisionRequested(marker=MARKER, kind="mulligan_bottom", player=owing,
                                        options=list(s.zone(owing, "hand")),
                                        count=s.players[owing].to_bottom, rule="103.5"))
            return
        for p in order:
            if s.players[p].kept or s.players[p].declared_mulligan:
                continue
            if not may_mulligan(t, p):
                t.emit(MulliganDeclared(player=p, mulligan=False, rule="103.5"))
                continue
            t.emit(ev.DecisionRequested(marker=MARKER, kind="mulligan", player=p,
                                        choices=["keep", "mulligan"], rule="103.5"))
            return
        takers = [p for p in order if t.s.players[p].declared_mulligan]
        if not takers:
            begin_first_turn(t, first)
            return
        for p in takers:
            _take(t, p)


def _take(t: Txn, player: str) -> None:
    """103.5: the hand shuffled into the library, a new hand drawn; as many cards to go
    on the bottom as the mulligans that count (103.5c: the first is free in
    multiplayer), no more than the hand holds."""
    v = variant_of(t.s)
    for oid in list(t.s.zone(player, "hand")):
        t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="library",
                              to_player=player, rule="103.5"))
    t.emit(ev.LibraryShuffled(player=player, rule="103.5",
                              order=t.rng.shuffled(t.s.zone(player, "library"))))
    for _ in range(v.starting_hand_size(t.s, player)):
        draw(t, player, "103.5")
    free = v.free_first_mulligan(t.s)
    bottom = t.s.players[player].mulligans + 1 - (1 if free else 0)
    t.emit(MulliganTaken(player=player, bottom=min(bottom, len(t.s.zone(player, "hand"))),
                         rule="103.5c" if free else "103.5"))


# ------------------------------------------------------------------ decisions


def _declarations(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    return [ChooseOption(player=d.player, option=o, marker=m.number) for o in d.choices]


def _on_leave(t: Txn, m: Marker, d: Decision, player: str) -> bool:
    """A player who leaves during the procedure owes nothing more (800.4a)."""
    go_on(t)
    return True


@decision("mulligan", ChooseOption, _declarations, team_answers=True, on_leave=_on_leave)
def _declare(t: Txn, m: Marker, d: Decision, cmd: ChooseOption) -> None:
    """The player asked declares; with shared team turns a teammate still to declare
    may declare first instead (805.3a: in whatever order the team likes)."""
    if cmd.option not in d.choices:
        raise RuleViolation("103.5", "declare keep or mulligan")
    p = t.s.players[cmd.player]
    who = cmd.player if not (p.kept or p.declared_mulligan) else d.player
    t.emit(MulliganDeclared(player=who, mulligan=cmd.option == "mulligan",
                            rule="805.3a" if t.s.shared_team_turns else "103.5"))
    go_on(t)


def _bottoms(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    return [ChooseObjects(player=d.player, choices=list(c), marker=m.number)
            for c in islice(combinations(d.options, d.count), _BOTTOM_ANSWERS)]


@decision("mulligan_bottom", ChooseObjects, _bottoms, on_leave=_on_leave)
def _bottom(t: Txn, m: Marker, d: Decision, cmd: ChooseObjects) -> None:
    check_choices(d, cmd)
    t.emit(CardsPutOnBottom(player=d.player, cards=list(cmd.choices),
                            new_ids=[t.new_id() for _ in cmd.choices], rule="103.5"))
    go_on(t)


# ------------------------------------------------------------------ appliers


@applies(MulliganDeclared)
def _declared(s: GameState, e: MulliganDeclared) -> None:
    set_player(s, e.player, declared_mulligan=e.mulligan, kept=not e.mulligan)


@applies(MulliganTaken)
def _taken(s: GameState, e: MulliganTaken) -> None:
    p = s.players[e.player]
    set_player(s, e.player, mulligans=p.mulligans + 1, declared_mulligan=False,
               to_bottom=e.bottom)


@applies(CardsPutOnBottom)
def _put_on_bottom(s: GameState, e: CardsPutOnBottom) -> None:
    for oid, new_id in zip(e.cards, e.new_ids, strict=True):
        owner = s.objects[oid].owner
        move(s, oid, new_id, "library", None)
        library = s.zone_for_update(owner, "library")
        library.remove(new_id)
        library.append(new_id)
    set_player(s, e.player, to_bottom=0)


@explains(MulliganDeclared)
def _explain_declared(before: GameState, e: MulliganDeclared, name: Namer) -> str:
    return f"{e.player} {'takes a mulligan' if e.mulligan else 'keeps their hand'}"


@explains(MulliganTaken)
def _explain_taken(before: GameState, e: MulliganTaken, name: Namer) -> str:
    return f"{e.player} draws a new hand, {e.bottom} card(s) to go on the bottom"


@explains(CardsPutOnBottom)
def _explain_bottom(before: GameState, e: CardsPutOnBottom, name: Namer) -> str:
    return f"{e.player} puts {len(e.cards)} card(s) on the bottom of their library"
