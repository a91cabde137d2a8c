"""What a turn marker waits for (its `pending`, architecture.md "The pending-work
marker"): engine work owed by one service, a player's priority, a player's decision, or
nothing while the marker's holder waits to begin (Grand Melee, CR 807.4d). `state.py`
re-exports these records.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

WorkKind = Literal[
    "turn_based_actions",  # turn orchestrator: the step's turn-based actions (CR 703)
    "check_sba",  # SBA checker: before a player would receive priority (CR 704.3)
    "put_triggers",  # stack resolver: waiting triggers to the stack (CR 603.3b)
    "resolve_top",  # stack resolver: all passed with a non-empty stack (CR 117.4, 608)
    "advance_step",  # turn orchestrator: all passed with an empty stack (CR 117.4, 500.2)
]


@dataclass(frozen=True, slots=True)
class Work:
    """The engine owes work on this marker. `then_priority` is who receives priority
    once it is done (CR 117.3)."""

    kind: WorkKind
    then_priority: str | None = None


@dataclass(frozen=True, slots=True)
class Priority:
    """`player` holds priority (CR 117)."""

    player: str


DecisionKind = Literal[
    "choose_mode",  # 700.2, 700.2e: choices "1", "2", ... (the printed order)
    "pay_life_for",  # 119.4: the creatures (options) its controller pays life for
    "declare_attackers",  # 508.1
    "declare_blockers",  # 509.1
    "assign_combat_damage",  # 510.1c, 702.19b
    "legend_rule",  # 704.5j
    "discard",  # 514.1 (cleanup) or 701.9 (an effect)
    "search",  # 701.19: find a card (or none) in a searched library
    "choose_color",  # 614.12: "as ~ enters, choose a color"
    "choose_team_member",  # 810.9d: a team chooses the member an effect affects
    "proliferate",  # 701.34a: permanents (options) and players (choices) with counters
    "redistribute",  # 119.5, 810.9f: life totals among chosen players ("P=Q,...")
    "choose_opponent",  # the controller names the opponent who makes a choice (801.5a)
    "choose_card",  # a player chooses one of the cards offered (Murmurs from Beyond)
    "choose_plane",  # a plane (options) to put on top of a planar deck (Interplanar Tunnel)
    "self_or_others",  # Feed the Machine: choices "self" / "others"
    "sacrifice",  # 701.21a: the permanents (options) a player sacrifices, `count` of them
    "search_to_hand",  # 701.19: the cards (options) a searching player puts into their hand
    "pay_or_not",  # 118.12a: "unless [a player] pays": choices "pay" / "decline"
    "choose_active_player",  # 805.9: which active player "the active player" means
    "you_may",  # 603.5, 608.2d: an optional ("you may") effect: choices "yes" / "no"
    "choose_copy",  # 707.5: the creature (options) a Clone enters as a copy of, or none
    "choose_copy_original",  # 707.2: the creature (options) a target becomes a copy of
    "order_library_bottom",  # 401.4: the order (options) of cards put on a library's bottom
    "order_copies",  # 707.10d: the order (options: places in choices, the copies' targets)
    "choose_mana_color",  # 605.3b: the color (choices) of one mana a source (options) adds
    "choose_mana_type",  # 605.4a: the type (choices) of one mana Sisay (options) adds (902.7)
    "choose_targets",  # 603.3d: a trigger's targets: objects (options), players (choices)
    "mulligan",  # 103.5: keep the hand or take a mulligan: choices "keep" / "mulligan"
    "mulligan_bottom",  # 103.5: the cards (options) put on the bottom after a mulligan
    "order_triggers",  # 603.3b: the order of a player's waiting triggers (options: indexes)
    "opening_hand",  # 103.6: the opening-hand cards (options) a player takes actions with
    "opening_hand_order",  # 103.6c, 805.3b: the starting team's player (choices) who acts next
    "put_attacking",  # 508.4: a card (options) put onto the battlefield attacking, or none
    "commander_zone",  # 903.9a-b: a commander (options) to the command zone: "yes" / "no"
    "sacrifice_cost",  # 118.3: the permanent (options) sacrificed to pay a cost
    "replacement_order",  # 616.1: which replacement effect (choices) applies first
    "outside_card",  # 400.11b: a card (choices: names) from outside the game, or "none"
    "loot_discard",  # 701.9a: the card (options) discarded by a loot that may transform
    "hybrid_mana",  # 107.4e: the color (choices) a hybrid mana symbol is paid with
]


@dataclass(frozen=True, slots=True)
class Decision:
    """The engine waits for `player` to decide (a first-class state). `options` are the
    object ids the player chooses among; `count` how many."""

    kind: DecisionKind
    player: str
    options: tuple[int, ...] = ()
    count: int = 0
    rule: str = ""
    stack_item: int | None = None  # a decision made while this item resolves
    choices: tuple[str, ...] = ()  # named options (colors), when not objects
    min_count: int | None = None  # when fewer than `count` may be chosen (a search)


@dataclass(frozen=True, slots=True)
class Waiting:
    """`player` holds this turn marker but can't begin their turn yet: another marker is
    within three seats to their left (CR 807.4d, 807.4i). Nobody owes anything."""

    player: str


Pending = Work | Priority | Decision | Waiting
