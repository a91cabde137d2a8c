"""The records of the stack and of continuous effects, kept in the game state
(`kernel.state` re-exports them): a spell or ability on a stack (CR 405, 113.7), a
continuous effect (611.2, 613), a triggered ability waiting to be put on the stack
(603.2-603.3) and a delayed triggered ability (603.7)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from arbiter_core.kernel.records import shown_when_set
from arbiter_core.kernel.refs import Ref


@shown_when_set("delayed", "picked")
@dataclass(frozen=True, slots=True)
class StackItem:
    """A spell or ability on a stack (CR 405, 113.7). For a spell, `obj` is the card
    object on the stack; for an ability, `source` is the object it came from."""

    id: int
    kind: Literal["spell", "activated", "triggered"]
    controller: str
    marker: int
    obj: int | None = None  # the spell's object in the stack zone
    source: int | None = None  # ability source (last known id)
    source_name: str = ""
    ability: int = 0  # index into the card's abilities
    targets: tuple[tuple[Ref, ...], ...] = ()  # per target requirement (refs.py)
    x: int = 0
    that_player: str | None = None  # player a trigger refers to ("that player")
    amount: int = 0  # life lost, for a "for each 1 life you lost" trigger
    that_obj: int | None = None  # object a trigger refers to ("that creature")
    resume_at: int = 0  # effect index to resume at after a decision during resolution
    chosen: tuple[str, ...] = ()  # team members chosen while it resolves (810.9d)
    mode: int | None = None  # the chosen mode of a modal spell, 0 first (700.2)
    paying: tuple[int, ...] = ()  # creatures whose controllers chose to pay for them
    delayed: Delayed | None = field(default=None, repr=False)  # a delayed trigger's (603.7)
    # objects chosen so far for an effect done all at once after every choice (101.4)
    picked: tuple[int, ...] = field(default=(), repr=False)


EffectKind = Literal["pt", "prevent_combat_damage", "control", "keyword", "become_creature",
                     "detain", "redirect",
                     "attack_requirement",  # "attacks this turn if able" (508.1d)
                     "until_planeswalk",  # lasts until a player planeswalks (901.11)
                     "copy"]  # a copy effect until end of turn (Cytoshape, 707.2)


@dataclass(frozen=True, slots=True)
class Effect:
    """A continuous effect from a resolved spell or ability (CR 611.2), with its layer
    (CR 613: control 2, type 4, abilities 6, power/toughness 7) and timestamp (613.7)."""

    id: int
    kind: EffectKind
    affected: tuple[int, ...] = ()
    power: int = 0
    toughness: int = 0
    # "your_next_turn": until the next turn of `controller` (detain, 701.35a; 800.4m)
    until: Literal["end_of_turn", "permanent", "your_next_turn"] = "end_of_turn"
    marker: int = 1
    timestamp: int = 0
    controller: str | None = None
    keyword: str | None = None
    subtypes: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    tap_when_lost: bool = False
    # a redirection shield (614.9): the next `amount` damage to redirect[0] is dealt to
    # redirect[1] instead (Captain's Maneuver)
    redirect: tuple[Ref, Ref] | None = None
    amount: int = 0


@shown_when_set("delayed", "ordered")
@dataclass(frozen=True, slots=True)
class Trigger:
    """A triggered ability waiting to be put on the stack (CR 603.2, 603.3); `delayed`
    for a delayed triggered ability that has triggered (603.7)."""

    source: int
    source_name: str
    controller: str
    ability: int
    marker: int
    that_player: str | None = None
    amount: int = 0  # how much life was lost, for "for each 1 life you lost"
    obj: int | None = None  # the object a trigger refers to ("that creature")
    delayed: Delayed | None = field(default=None, repr=False)
    ordered: bool = field(default=False, repr=False)  # its controller chose its place (603.3b)


@dataclass(frozen=True, slots=True)
class Delayed:
    """A delayed triggered ability (CR 603.7) created by an ability of `source` (603.7e)
    that triggers at the beginning of the next end step: return the exiled card `objs[0]`
    (card `card`, owned by `owner`) to the battlefield (Astral Slide), or destroy each of
    `objs` that didn't attack this turn (Maddening Imp)."""

    card: int
    owner: str
    controller: str
    source_name: str
    kind: Literal["return_from_exile", "destroy_unless_attacked"] = "return_from_exile"
    objs: tuple[int, ...] = ()
    source: int | None = None
