"""What one seat may see of a game (CR 400.2), and the judge's view of everything.

Hands and libraries are hidden zones: a seat sees its own hand, the size of every hand
and library, and nothing about any library's contents or order (not even its own,
401.2). Teammates may review each other's hands in Team vs. Team, Emperor and
Two-Headed Giant (808.5, 809.7, 810.5), and in Alternating Teams only when seated next to
each other (811.5). A face-down spell or permanent shows its face only to its controller
(708.5; `face_name`): others see a 2/2 face-down creature named `FACE_DOWN_NAME`, with
its id (to tell face-down objects apart, 708.6) but nothing that leads to its card; at
the end of the game every face-down object is revealed (708.9). A spectator sees only
public information.
The battlefield, graveyards, exile, the command zone and the stacks are public. An
object is identified by its id, and a hidden object's id is never shown: a pending
decision of another player lists only its public options, and a stack target in a
hidden zone is shown as hidden. The game's seed is judge-only (with the state version
it determines every shuffle, CR 701.24a).

Pure: no I/O, clock or randomness.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, ConfigDict

from arbiter_core.kernel.refs import PlayerRef, Ref
from arbiter_core.kernel.registry import Hooks
from arbiter_core.kernel.state import (
    Decision,
    GameState,
    Marker,
    Obj,
    Priority,
    StackItem,
    Waiting,
)
from arbiter_core.layers import face_down
from arbiter_core.layers.characteristics import is_creature, power_toughness
from arbiter_core.variants.base import variant_of

HIDDEN_ZONES = frozenset({"hand", "library", "planar_deck", "scheme_deck"})  # 901.4, 904.4
SPECTATOR = "*spectator*"  # the viewer of `spectator_view` (never a player's name)
FACE_DOWN_NAME = "face-down card"


class _View(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CardRef(_View):
    id: int
    name: str


class PlayerView(_View):
    name: str
    team: str
    life: int
    poison: int
    mana: str
    in_game: bool
    lost: bool
    won: bool
    drew: bool
    hand_size: int
    library_size: int
    graveyard: tuple[CardRef, ...]  # bottom first (the last is the top)
    exile: tuple[CardRef, ...]
    command: tuple[CardRef, ...]
    hand: tuple[CardRef, ...] | None = None  # the seat's own hand, or any hand for a judge
    library: tuple[CardRef, ...] | None = None  # judges only, top first


class PermanentView(_View):
    id: int
    name: str
    owner: str
    controller: str
    token: bool
    tapped: bool
    sick: bool
    damage: int
    counters: dict[str, int]
    attached_to: int | None
    power: int | None  # None for a noncreature permanent
    toughness: int | None


class TargetView(_View):
    player: str | None = None
    id: int | None = None
    name: str | None = None
    hidden: bool = False  # an object in a hidden zone this seat may not see


class StackItemView(_View):
    id: int
    kind: Literal["spell", "activated", "triggered"]
    controller: str
    name: str
    obj: int | None  # the spell's object on the stack
    source: int | None  # an ability's source (last known id)
    targets: tuple[tuple[TargetView, ...], ...]
    x: int


class PendingView(_View):
    """What a marker waits for: engine work, a player's priority or a decision."""

    kind: Literal["work", "priority", "decision", "waiting"]
    player: str | None  # who holds priority / must decide (or gets priority after work)
    work: str | None = None
    decision: str | None = None
    count: int = 0
    rule: str = ""
    options: tuple[CardRef, ...] = ()  # the options this seat may see
    hidden_options: int = 0  # options this seat may not see


class MarkerView(_View):
    number: int
    holder: str
    turn: int
    step: str
    pending: PendingView
    stack: tuple[StackItemView, ...]  # top first
    passed: tuple[str, ...]
    attacks: tuple[tuple[int, str], ...]  # attacker -> defending player
    blocks: tuple[tuple[int, int], ...]  # blocker -> attacker


class SeatView(_View):
    seat: str | None  # None: a judge's or a spectator's view
    game_id: str
    variant: str
    version: int
    started: bool
    game_over: bool
    turns_taken: int
    seed: int | None  # judges only
    players: tuple[PlayerView, ...]  # seating order
    battlefield: tuple[PermanentView, ...]
    markers: tuple[MarkerView, ...]
    hand: tuple[CardRef, ...]  # the seat's own hand (empty for a judge)
    viewer: Literal["seat", "judge", "spectator"] = "seat"


def view(state: GameState, seat: str) -> SeatView:
    """What `seat` may see (CR 400.2)."""
    if seat not in state.players:
        raise ValueError(f"no player named {seat!r}")
    return _build(state, seat)


def judge_view(state: GameState) -> SeatView:
    """Everything, hidden zones included (for judges and replays)."""
    return _build(state, None)


def spectator_view(state: GameState) -> SeatView:
    """Public information only (CR 400.2): no hand, library or seed."""
    return _build(state, SPECTATOR)


def visible(state: GameState, oid: int, seat: str | None) -> bool:
    """May `seat` (None: a judge; `SPECTATOR`) see the object with id `oid`? An id of an
    object that no longer exists is last known information and is shown; a hidden card
    the seat's pending decision offers it is shown to that seat."""
    o = state.objects.get(oid)
    if seat is None or o is None or o.zone not in HIDDEN_ZONES:
        return True
    if o.zone == "hand" and sees_hand(state, seat, o.owner):
        return True
    return _offered(state, oid, seat)


def _offered(state: GameState, oid: int, seat: str) -> bool:
    """A card of a hidden zone the seat is deciding about: the cards a searching player
    looks at (701.19), the planes revealed from a planar deck (Interplanar Tunnel)."""
    return any(isinstance(m.pending, Decision) and m.pending.player == seat
               and oid in m.pending.options for m in state.markers.values())


#: rules that reveal a player's hand to everyone ("play with their hands revealed",
#: the vanguard Squee): (state, owner) -> True when it is revealed
REVEALED_HANDS: Hooks[str, Callable[[GameState, str], bool]] = Hooks("revealed hand")


def sees_hand(state: GameState, seat: str | None, owner: str) -> bool:
    """May `seat` look at `owner`'s hand? Its own; a teammate's in Team vs. Team, Emperor
    and Two-Headed Giant (808.5, 809.7, 810.5); in Alternating Teams a teammate's only
    when seated next to each other (811.5); a hand an effect reveals to the players
    (Squee's, 902.7) - to players only: a spectator sees no hand. Judges see every
    hand."""
    if seat is None or seat == owner:
        return True
    if seat != SPECTATOR and any(revealed(state, owner) for revealed in REVEALED_HANDS["all"]):
        return True
    me, them = state.players.get(seat), state.players.get(owner)
    if me is None or them is None or me.team != them.team:
        return False
    return variant_of(state).may_review_hand(state, seat, owner)


def face_name(o: Obj, seat: str | None, revealed: bool = False) -> str:
    """The name `seat` (None: a judge) sees: a face-down spell or permanent is
    `FACE_DOWN_NAME` to everyone but its controller and judges (708.5), unless
    `revealed` (the game is over, 708.9)."""
    if o.face_down and not revealed and seat is not None and seat != o.controller:
        return FACE_DOWN_NAME
    return o.name


def shown_name(state: GameState, o: Obj, seat: str | None) -> str:
    """`face_name` in this state (revealed once the game is over, 708.9)."""
    return face_name(o, seat, face_down.revealed(state))


def _refs(state: GameState, ids: list[int], seat: str | None = None) -> tuple[CardRef, ...]:
    return tuple(CardRef(id=i, name=shown_name(state, state.objects[i], seat)) for i in ids)


def _player(state: GameState, name: str, seat: str | None) -> PlayerView:
    p = state.players[name]
    hand = state.zones.get((name, "hand"), [])
    library = state.zones.get((name, "library"), [])
    return PlayerView(
        name=p.name, team=p.team, life=p.life, poison=p.poison, mana=p.mana,
        in_game=p.in_game, lost=p.lost, won=p.won, drew=p.drew,
        hand_size=len(hand), library_size=len(library),
        graveyard=_refs(state, state.zones.get((name, "graveyard"), []), seat),
        exile=_refs(state, state.zones.get((name, "exile"), []), seat),
        command=_refs(state, state.zones.get((name, "command"), []), seat),
        hand=_refs(state, hand) if sees_hand(state, seat, name) else None,
        library=_refs(state, library) if seat is None else None,
    )


def _permanent(state: GameState, oid: int, seat: str | None) -> PermanentView:
    o = state.objects[oid]
    power: int | None = None
    toughness: int | None = None
    if is_creature(o):
        power, toughness = power_toughness(state, o)
    return PermanentView(
        id=o.id, name=shown_name(state, o, seat), owner=o.owner, controller=o.controller,
        token=o.token is not None, tapped=o.tapped, sick=o.sick, damage=o.damage,
        counters=dict(o.counters), attached_to=o.attached_to, power=power,
        toughness=toughness,
    )


def _target(state: GameState, raw: Ref, seat: str | None) -> TargetView:
    if isinstance(raw, PlayerRef):
        return TargetView(player=raw.player)
    oid = raw.obj
    if not visible(state, oid, seat):
        return TargetView(hidden=True)
    o = state.objects.get(oid)
    return TargetView(id=oid, name=shown_name(state, o, seat) if o is not None else None)


def item_name(state: GameState, item: StackItem, seat: str | None) -> str:
    """The name `seat` sees of a stack item: a face-down spell's is hidden from all but
    its controller (708.5)."""
    o = state.objects.get(item.obj) if item.obj is not None else None
    return shown_name(state, o, seat) if o is not None else item.source_name


def _stack_item(state: GameState, item: StackItem, seat: str | None) -> StackItemView:
    source = item.source
    if source is not None and not visible(state, source, seat):
        source = None
    return StackItemView(
        id=item.id, kind=item.kind, controller=item.controller,
        name=item_name(state, item, seat),
        obj=item.obj, source=source,
        targets=tuple(tuple(_target(state, t, seat) for t in spec) for spec in item.targets),
        x=item.x,
    )


def _pending(state: GameState, m: Marker, seat: str | None) -> PendingView:
    p = m.pending
    if isinstance(p, Priority):
        return PendingView(kind="priority", player=p.player)
    if isinstance(p, Decision):
        # an option that no longer exists (the decision is being answered) is shown
        # to judges only
        shown = [o for o in p.options
                 if seat is None or (o in state.objects and visible(state, o, seat))]
        return PendingView(
            kind="decision", player=p.player, decision=p.kind, count=p.count, rule=p.rule,
            options=tuple(
                CardRef(id=o, name=shown_name(state, state.objects[o], seat)
                        if o in state.objects else "")
                for o in shown
            ),
            hidden_options=len(p.options) - len(shown),
        )
    if isinstance(p, Waiting):  # 807.4d: the holder waits to begin their turn
        return PendingView(kind="waiting", player=p.player)
    return PendingView(kind="work", player=p.then_priority, work=p.kind)


def _marker(state: GameState, m: Marker, seat: str | None) -> MarkerView:
    items = [state.stack_items[i] for i in reversed(m.stack) if i in state.stack_items]
    return MarkerView(
        number=m.number, holder=m.holder, turn=m.turn, step=m.step.value,
        pending=_pending(state, m, seat),
        stack=tuple(_stack_item(state, it, seat) for it in items),
        passed=m.passed,
        attacks=m.combat.attacks if m.combat is not None else (),
        blocks=m.combat.blocks if m.combat is not None else (),
    )


def _build(state: GameState, seat: str | None) -> SeatView:
    viewer: Literal["seat", "judge", "spectator"] = (
        "judge" if seat is None else "spectator" if seat == SPECTATOR else "seat")
    return SeatView(
        seat=seat if viewer == "seat" else None, viewer=viewer, game_id=state.game_id,
        variant=state.variant, version=state.version,
        started=state.started, game_over=state.game_over, turns_taken=state.turns_taken,
        seed=state.seed if seat is None else None,
        players=tuple(_player(state, p, seat) for p in state.seats),
        battlefield=tuple(_permanent(state, oid, seat) for oid in state.battlefield),
        markers=tuple(_marker(state, state.markers[n], seat) for n in sorted(state.markers)),
        hand=_refs(state, state.zones.get((seat, "hand"), [])) if seat is not None else (),
    )
