"""The game state that `evolve` (evolve.py) builds from events.

Leaf records are frozen dataclasses; containers (dicts and zone lists) belong to one
`GameState` and are copied by `clone()`, so `evolve(state, event)` can return a new state
without a deep copy. Nothing here reads a clock, a uuid or a global random source.

Turns, steps, priority and the stack belong to a turn marker (`Marker`), so several
players can take turns at once (Grand Melee, CR 807.4-807.5). A two-player game has one
marker, number 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from arbiter_core.cards.model import TokenSpec
from arbiter_core.kernel.memo import KeyedMemo, fact
from arbiter_core.kernel.names import COMBAT_STEPS as COMBAT_STEPS
from arbiter_core.kernel.names import MAIN_STEPS as MAIN_STEPS
from arbiter_core.kernel.names import PLAYER_ZONES as PLAYER_ZONES
from arbiter_core.kernel.names import Step as Step
from arbiter_core.kernel.names import Zone as Zone
from arbiter_core.kernel.pending import Decision as Decision
from arbiter_core.kernel.pending import DecisionKind as DecisionKind
from arbiter_core.kernel.pending import Pending as Pending
from arbiter_core.kernel.pending import Priority as Priority
from arbiter_core.kernel.pending import Waiting as Waiting
from arbiter_core.kernel.pending import Work as Work
from arbiter_core.kernel.pending import WorkKind as WorkKind
from arbiter_core.kernel.records import shown_when_set
from arbiter_core.kernel.refs import Ref
from arbiter_core.kernel.stack_records import Delayed as Delayed
from arbiter_core.kernel.stack_records import Effect as Effect
from arbiter_core.kernel.stack_records import EffectKind as EffectKind
from arbiter_core.kernel.stack_records import StackItem as StackItem
from arbiter_core.kernel.stack_records import Trigger as Trigger
from arbiter_core.kernel.variant_state import CommanderState as CommanderState

#: 904.13c (Archenemy Commander): poison counters are not shared with a shared life
INDIVIDUAL_POISON = "individual_poison"


@shown_when_set("printed", "face_down", "manifested", "own_token", "transformed",
                "transformed_at", "spell_copy")
@dataclass(frozen=True, slots=True)
class Obj:
    """A game object (CR 109) in some zone. A zone change makes a new object with a new
    `id` (CR 400.7); `card` is the physical card's stable number."""

    id: int
    card: int
    name: str
    owner: str
    controller: str
    zone: Zone
    token: TokenSpec | None = None
    tapped: bool = False
    sick: bool = False  # not continuously controlled since the controller's turn began (302.6)
    damage: int = 0
    deathtouch_hit: bool = False  # dealt damage by a deathtouch source since last SBA (704.5h)
    counters: tuple[tuple[str, int], ...] = ()
    attached_to: int | None = None
    timestamp: int = 0
    default_controller: str = ""  # who controls it without control effects (800.4c)
    chosen_color: str | None = None  # "as ~ enters, choose a color" (614.12)
    chosen_player: str | None = None  # "as ~ enters, choose an opponent" (614.12)
    # "becomes a P/T [subtypes] creature with [keywords]" (layers 4, 6, 7b): Lurking Evil
    became: tuple[int, int, tuple[str, ...], tuple[str, ...]] | None = None
    # a copy's own name, while `name` (and `token`) hold the copied values (707.2, 707.5)
    printed: str | None = field(default=None, repr=False)
    # a face-down spell or permanent (708): `name` keeps the card's own, which only its
    # controller may look at (708.5); its characteristics are those of 708.2a
    # (layers/face_down.py). Shown in the state's text only when set (records.py).
    face_down: bool = field(default=False, repr=False)
    # a face-down permanent put onto the battlefield by manifest, while face down (701.40a)
    manifested: bool = field(default=False, repr=False)
    # a token's own values while it is a copy of something else (`printed` its own name;
    # Cytoshape on a token, 707.2): restored when the copy effect ends
    own_token: TokenSpec | None = field(default=None, repr=False)
    # a transforming double-faced permanent with its back face up (712.2, 701.28;
    # layers/transform.py); a new object is front face up (400.7, 712.8a, 712.14)
    transformed: bool = field(default=False, repr=False)
    # the id stamp of its last transform (701.27f: abilities put on the stack before it)
    transformed_at: int = field(default=0, repr=False)
    # a copy of a spell (707.10): a spell on the stack with no card; it ceases to exist
    # as it leaves the stack (707.10a, 704.5e)
    spell_copy: bool = field(default=False, repr=False)

    @property
    def is_token(self) -> bool:
        """A token (111.1), also while it is a copy of a card (707.2: a copy effect
        doesn't change whether it is a token; its own values are kept in `own_token`)."""
        return self.token is not None or self.own_token is not None

    def counter(self, kind: str) -> int:
        for k, n in self.counters:
            if k == kind:
                return n
        return 0


@shown_when_set("mulligans", "kept", "declared_mulligan", "to_bottom", "opening_done",
                "revealed", "outside")
@dataclass(frozen=True, slots=True)
class Player:
    """A player (CR 102). `left` means left the game (CR 800.4a); `lost`/`won`/`drew`
    record how (CR 104)."""

    name: str
    team: str
    life: int
    poison: int = 0
    left: bool = False
    lost: bool = False
    won: bool = False
    drew: bool = False
    lands_played: int = 0
    mana: str = ""  # mana pool as symbols, e.g. "GGC" (CR 106.4)
    drew_from_empty: bool = False  # 704.5b
    max_hand_size: int = 7  # 402.2
    hand_left_with: int = 0  # cards in hand as they left the game (800.4i)
    # the London mulligan (103.5, game/mulligan.py): mulligans taken, the hand kept, a
    # mulligan declared this round, cards still to put on the bottom
    mulligans: int = field(default=0, repr=False)
    kept: bool = field(default=False, repr=False)
    declared_mulligan: bool = field(default=False, repr=False)
    to_bottom: int = field(default=0, repr=False)
    opening_done: bool = field(default=False, repr=False)  # 103.6: actions taken or not
    revealed: tuple[int, ...] = field(default=(), repr=False)  # 103.6b: cards (by number)
    # the names of the cards this player owns outside the game (400.11a: a sideboard)
    outside: tuple[str, ...] = field(default=(), repr=False)

    @property
    def in_game(self) -> bool:
        return not self.left


@shown_when_set("planeswalkers", "removed", "replacement_orders")
@dataclass(frozen=True, slots=True)
class Combat:
    """Combat on one marker's turn (CR 506). `attacks` maps attacker -> defending player;
    `blocks` maps blocker -> attacker; `first_strike_done` records which creatures dealt
    damage in a first-strike step (CR 510.4). `bands` are the attacking bands declared
    (702.22c, kept for the rest of combat, 702.22e). `assigned` holds the combat damage
    assignments made so far in this damage step (creature -> ((recipient, n), ...)) and
    `assigned_by` the players who made them (510.1, 802.5)."""

    attacks: tuple[tuple[int, str], ...] = ()
    blocks: tuple[tuple[int, int], ...] = ()
    blockers_declared_by: tuple[str, ...] = ()
    first_strikers_dealt: tuple[int, ...] = ()
    had_first_strike_step: bool = False
    bands: tuple[tuple[int, ...], ...] = ()
    assigned: tuple[tuple[int, tuple[tuple[Ref, int], ...]], ...] = ()
    assigned_by: tuple[str, ...] = ()
    # attacker -> the planeswalker it attacks (506.2, 508.1b); its controller is the
    # attacker's defending player in `attacks`
    planeswalkers: tuple[tuple[int, int], ...] = field(default=(), repr=False)
    # creatures removed from combat (506.4): blockers here block no longer, though the
    # creatures they blocked stay blocked (509.1h)
    removed: tuple[int, ...] = field(default=(), repr=False)
    # 616.1: the order of damage replacement effects chosen for this damage step's
    # damage, (source, recipient, effect applied next) in the order chosen
    replacement_orders: tuple[tuple[int, str, str], ...] = field(default=(), repr=False)

    def attacker_ids(self) -> list[int]:
        return [a for a, _ in self.attacks]

    def blockers_of(self, attacker: int) -> list[int]:
        return [b for b, a in self.blocks if a == attacker]

    def defender_of(self, attacker: int) -> str | None:
        for a, d in self.attacks:
            if a == attacker:
                return d
        return None


@shown_when_set("loyalty_used", "after_targets", "planar_rolls")
@dataclass(frozen=True, slots=True)
class Marker:
    """A turn marker (CR 807.4): whose turn it is, its step, its stack and its priority."""

    number: int
    holder: str
    turn: int
    step: Step
    pending: Pending
    stack: tuple[int, ...] = ()  # stack item ids, bottom first
    passed: tuple[str, ...] = ()  # players who passed in succession (CR 117.4)
    combat: Combat | None = None
    extra_turns: tuple[str, ...] = ()  # players to take extra turns after this one (500.7)
    skip_draw: bool = False  # 103.8a: the first player's first draw step
    removal: int = 0  # times designated for removal (CR 807.4e-g)
    normal_next: tuple[str, ...] = ()  # 807.4j: own turn owed right after a deferred extra
    attacked: tuple[int, ...] = ()  # creatures declared as attackers this turn (508.1, 508.4)
    # permanents whose loyalty ability was activated this turn (606.3)
    loyalty_used: tuple[int, ...] = field(default=(), repr=False)
    # who receives priority once a trigger's targets are chosen (603.3d, 117.3b-c)
    after_targets: str | None = field(default=None, repr=False)
    # the planar die rolled as a special action this turn: (turn, player) each (901.9)
    planar_rolls: tuple[tuple[int, str], ...] = field(default=(), repr=False)


@dataclass(slots=True)
class GameState:
    """The whole game. Mutable containers are private to one state; see `clone`."""

    game_id: str
    variant: str
    seed: int
    seats: list[str]
    players: dict[str, Player]
    attack_option: Literal["left", "right", "multiple", "any"] = "multiple"
    range_of_influence: int | None = None
    # Multiplayer options and variant rules (CR 801-811), fixed when the game starts.
    ranges: dict[str, int] = field(default_factory=dict)  # 801.2a: per-player range
    influence: dict[str, frozenset[str]] = field(default_factory=dict)  # 801.2c snapshot
    shared_team_turns: bool = False  # 805
    shared_life: bool = False  # 810.4, 810.10
    deploy_creatures: bool = False  # 804
    attack_adjacent_only: bool = False  # 809.3c, 811.4
    poison_limit: int = 10  # 704.5c; 15 (+5 per extra head) in 2HG (704.6b, 810.11)
    emperors: tuple[str, ...] = ()  # 809.2
    grand_melee: bool = False  # 807: several turn markers
    extra_due: tuple[str, ...] = ()  # 807.4i-j: extra turns taken just before a next turn
    objects: dict[int, Obj] = field(default_factory=dict)
    zones: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    battlefield: list[int] = field(default_factory=list)
    stack_items: dict[int, StackItem] = field(default_factory=dict)
    markers: dict[int, Marker] = field(default_factory=dict)
    effects: list[Effect] = field(default_factory=list)
    triggers: list[Trigger] = field(default_factory=list)
    delayed: list[Delayed] = field(default_factory=list)
    next_id: int = 1
    next_card: int = 1
    timestamp: int = 0
    rng_counter: int = 0
    turns_taken: int = 0
    version: int = 0  # events applied
    started: bool = False
    game_over: bool = False
    # Positions seen where a player would receive priority with a triggered ability on
    # top of a stack, since the last optional action: (turn key, position, players
    # controlling the objects involved) - a repeat is a loop of mandatory actions (104.4b).
    loop_positions: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    # 603.3b: players order their simultaneous triggered abilities themselves (a
    # decision); off in games stored before it existed (the engine's order: waiting
    # order). Hashed only when set (hashing.HASHED_WHEN_SET).
    order_triggers: bool = False
    # A supplementary variant over its base (variants.base.compose): (its name, the
    # base's); and the Commander variant's record (903). Both None in other games, and
    # then left out of the state hash (HASHED_WHEN_SET).
    composed: tuple[str, str] | None = None
    commander: CommanderState | None = None
    # Casual variants (CR 901-904), in the state hash only when set (HASHED_WHEN_SET): the
    # options a game started with ("planar_die_rolls_free", "single_planar_deck",
    # "supervillain_rumble", "individual_poison"), and the planar die's next results a
    # judge supposes
    planar_die: tuple[str, ...] = ()
    casual_options: tuple[str, ...] = ()
    # Events applied since the state the game's generator is keyed on: the seeded draws
    # of a decision use version - rng_shift (txn.Rng). 0 in every game but one a judge
    # backed up (arbiter_runtime.fold: the state at N restored at a later version, its
    # draws as they were at N); in the state hash only when set (HASHED_WHEN_SET).
    rng_shift: int = 0
    # What casual cards remember (variants.base.CasualNoted): (note, player, value) -
    # "schemes_held" (All in Good Time's extra turn: 1 due, 2 now), "dealt" (damage dealt
    # to the player this turn), "horde" (a card number put onto the battlefield by My
    # Undead Horde Awakens), "extra_combat" (Sokenzan's additional phases)
    casual_notes: tuple[tuple[str, str, int], ...] = ()

    def clone(self, share_zone_lists: bool = False) -> GameState:
        """A copy whose containers are its own. With `share_zone_lists` (a decision's
        scratch state, txn.py) the zone lists are shared, not copied: a zone is changed
        only through `zone_for_update`, which gives the state its own copy first."""
        return GameState(
            game_id=self.game_id,
            variant=self.variant,
            seed=self.seed,
            seats=list(self.seats),
            players=self.players.copy(),
            attack_option=self.attack_option,
            range_of_influence=self.range_of_influence,
            ranges=self.ranges,
            influence=self.influence,
            shared_team_turns=self.shared_team_turns,
            shared_life=self.shared_life,
            deploy_creatures=self.deploy_creatures,
            attack_adjacent_only=self.attack_adjacent_only,
            poison_limit=self.poison_limit,
            emperors=self.emperors,
            grand_melee=self.grand_melee,
            extra_due=self.extra_due,
            objects=self.objects.copy(),  # .copy(): fast even with holes
            zones=self.zones.copy() if share_zone_lists else {
                k: list(v) for k, v in self.zones.items()},
            battlefield=list(self.battlefield),
            stack_items=self.stack_items.copy(),
            markers=self.markers.copy(),
            effects=list(self.effects),
            triggers=list(self.triggers),
            delayed=list(self.delayed),
            next_id=self.next_id,
            next_card=self.next_card,
            timestamp=self.timestamp,
            rng_counter=self.rng_counter,
            turns_taken=self.turns_taken,
            version=self.version,
            started=self.started,
            game_over=self.game_over,
            loop_positions=self.loop_positions,
            order_triggers=self.order_triggers,
            composed=self.composed,
            commander=self.commander,
            planar_die=self.planar_die,
            casual_options=self.casual_options, casual_notes=self.casual_notes,
            rng_shift=self.rng_shift,
        )

    # -------------------------------------------------------------- queries

    def zone(self, player: str, zone: str) -> list[int]:
        """A player's zone, read-only: a query never changes the state (an empty zone
        that was never used is not stored)."""
        return self.zones.get((player, zone), [])

    def zone_for_update(self, player: str, zone: str) -> list[int]:
        """The zone's list, to change in place (evolve only): a new copy, since the old
        list may be shared with a clone (`clone(share_zone_lists=True)`)."""
        key = (player, zone)
        ids = self.zones[key] = list(self.zones.get(key, ()))
        return ids

    @property
    def shared_poison(self) -> bool:
        """810.10: a shared life total's team shares poison counters too - not in
        Archenemy Commander (904.13c)."""
        return self.shared_life and INDIVIDUAL_POISON not in self.casual_options

    def team_of(self, player: str) -> list[str]:
        """Players on `player`'s team (including those who left), in seating order."""
        team = self.players[player].team
        return [p for p in self.seats if self.players[p].team == team]

    def in_game(self) -> list[str]:
        """Players still in the game, in seating order (CR 800.4a)."""
        return [p for p in self.seats if not self.players[p].left]

    def obj(self, oid: int) -> Obj:
        return self.objects[oid]

    def marker_of(self, player: str) -> Marker | None:
        """The marker whose turn `player` is taking, if any."""
        for m in self.markers.values():
            if m.holder == player:
                return m
        return None

    def permanents(self, controller: str | None = None) -> list[Obj]:
        if controller is None:
            return [self.objects[i] for i in self.battlefield]
        return list(fact(self, "by controller", permanents_by_controller).get(controller, ()))


#: GameState fields hashed (and in the canonical view) only when not at their default
HASHED_WHEN_SET = frozenset({"order_triggers", "composed", "commander", "planar_die",
                             "casual_options", "casual_notes", "rng_shift"})


def _battlefield(s: GameState) -> tuple[Obj, ...]:
    return tuple(map(s.objects.__getitem__, s.battlefield))


def _by_controller(s: GameState) -> dict[str, tuple[Obj, ...]]:
    groups: dict[str, list[Obj]] = {}
    for o in _battlefield(s):
        groups.setdefault(o.controller, []).append(o)
    return {c: tuple(objs) for c, objs in groups.items()}


#: Each controller's permanents in battlefield order (`GameState.permanents`): asked for
#: by every legal-actions query, over a battlefield that rarely changed since the last.
permanents_by_controller: KeyedMemo[GameState, dict[str, tuple[Obj, ...]]] = KeyedMemo(
    _battlefield, _by_controller)
