"""Vanguard (CR 902): a supplementary variant, two-player or multiplayer (902.2), in which
each player has one face-up vanguard card (902.1) in the command zone from before the
game begins (902.3), owned and controlled by that player (902.6), whose abilities work
from there (902.7).

Its modifiers: starting life 20 plus or minus the life modifier (902.4, applied to the
base variant's starting life), opening hand size seven plus or minus the hand modifier
(902.5, `starting_hand_size`: the mulligan procedure draws the same number, 902.5a), and
maximum hand size seven plus or minus the hand modifier (902.5b, `MaximumHandSizeSet`).

Avatars implemented: Gerrard (an additional draw), Squee (opponents' hands revealed, in
every view: `views.seat.REVEALED_HANDS`), Ertai (hexproof, `keywords.hexproof`); Karn,
Sisay, Bosh, Iron Golem Avatar and Platinum Angel Avatar are `avatars`.
"""

from __future__ import annotations

from typing import Any, Literal

from arbiter_core.cards import get_card
from arbiter_core.cards.build import card
from arbiter_core.cards.facts import FACTS
from arbiter_core.cards.model import CasualAbility, DrawCards
from arbiter_core.cards.pool import add_card
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import SetUpPosition, StartGame
from arbiter_core.kernel.edits import set_player
from arbiter_core.kernel.errors import InvalidCommand
from arbiter_core.kernel.events.base import EventBase
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import GameState, Marker, Obj, Step
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import OUTSIDE_GRANTS, is_creature
from arbiter_core.multiplayer.seating import opponents
from arbiter_core.turns.steps import step_action
from arbiter_core.variants.base import Supplement, variant, variant_of
from arbiter_core.variants.planes import casual
from arbiter_core.views.seat import REVEALED_HANDS

MAX_HAND = 7  # 402.2


class MaximumHandSizeSet(EventBase):
    """A player's maximum hand size becomes `size` (902.5b: seven plus or minus the
    vanguard's hand modifier)."""

    type: Literal["MaximumHandSizeSet"] = "MaximumHandSizeSet"
    player: str
    size: int


GERRARD = add_card(card("Gerrard", casual(
    "gerrard_draw", "At the beginning of your draw step, draw an additional card.",
    "your_draw_step", effects=(DrawCards(),))))
SQUEE = add_card(card("Squee", casual(
    "squee_revealed", "Your opponents play with their hands revealed.")))
ERTAI = add_card(card("Ertai", casual(
    "ertai_hexproof", "Creatures you control have hexproof. (They can't be the targets of "
                      "spells or abilities your opponents control.)")))


def modifiers(name: str | None) -> tuple[int, int]:
    """(hand, life) modifiers of a vanguard card (902.4-902.5); none without one."""
    facts = FACTS.get(name) if name is not None else None
    if facts is None:  # no vanguard, or an unknown card (rejected by `put_vanguard`)
        return 0, 0
    return facts.hand_modifier or 0, facts.life_modifier or 0


@variant
class Vanguard(Supplement):
    name = "vanguard"
    vanguard = True
    deck_sections = ("Vanguard",)  # 902.3

    def starting_lives(self, life: dict[str, int], cmd: Any) -> dict[str, int]:
        """CR 902.4: the starting life plus or minus the life modifier."""
        life = super().starting_lives(life, cmd)
        avatars = {p.name: p.vanguard for p in cmd.players}
        return {n: total + modifiers(avatars.get(n))[1] for n, total in life.items()}

    def starting_hand_size(self, s: GameState, player: str) -> int:
        """CR 902.5: seven plus or minus the hand modifier of the player's vanguard
        (103.5a); the opening hand and every mulligan (902.5a)."""
        base = super().starting_hand_size(s, player)
        mine = [o.name for o in avatars(s) if o.owner == player]
        return max(0, base + modifiers(mine[0] if mine else None)[0])

    def setting_up(self, t: Txn, cmd: StartGame | SetUpPosition) -> None:
        """CR 902.3: each vanguard face up in the command zone before the game begins
        (before the opening hands, whose size it changes); 902.5b its owner's maximum
        hand size. A position's vanguards are put by `position_supplements`."""
        super().setting_up(t, cmd)
        if isinstance(cmd, StartGame):
            for p in cmd.players:
                put_vanguard(t, p.name, p.vanguard, listed=False)

    def position_supplements(self, t: Txn, cmd: Any, active: str) -> None:
        """A position's vanguard (given by `vanguard`, or listed in `command`)."""
        super().position_supplements(t, cmd, active)
        for p in cmd.players:
            listed = any(c.name == p.vanguard for c in p.zones.get("command", ()))
            put_vanguard(t, p.name, p.vanguard, listed=listed)


def put_vanguard(t: Txn, player: str, name: str | None, listed: bool) -> None:
    if name is None:
        raise InvalidCommand(f"players.{player}.vanguard", "each player needs a vanguard "
                                                           "card (902.3)")
    try:
        d = get_card(name)
    except KeyError:
        raise InvalidCommand(f"players.{player}.vanguard",
                             f"unknown card {name!r}") from None
    if "Vanguard" not in d.types:
        raise InvalidCommand(f"players.{player}.vanguard", f"{name} is not a vanguard card "
                                                           "(902.3)")
    if not listed:
        t.emit(ev.CardsPut(player=player, zone="command", first_id=t.s.next_id,
                           cards=[ev.CardSetup(name=name)], rule="902.3"))
    t.emit(MaximumHandSizeSet(player=player, size=max(0, MAX_HAND + modifiers(name)[0]),
                              rule="902.5b"))


def avatars(s: GameState) -> list[Obj]:
    """The face-up vanguard cards in the command zone (902.3)."""
    if not getattr(variant_of(s), "vanguard", False):
        return []
    return [s.objects[oid] for p in s.seats for oid in s.zone(p, "command")
            if "Vanguard" in get_card(s.objects[oid].name).types]


def _has(s: GameState, name: str) -> list[str]:
    """The controllers of avatars with the ability `name` (902.6: their owners)."""
    return [o.controller for o in avatars(s) for ab in get_card(o.name).abilities
            if isinstance(ab, CasualAbility) and ab.name == name]


@step_action(Step.DRAW, order=6)
def _draw_step(t: Txn, m: Marker) -> bool:
    """"At the beginning of your draw step" abilities of the active player's avatar
    (603.2, 902.7), after the turn's draw (504.1)."""
    for o in avatars(t.s):
        if o.controller != m.holder:
            continue
        for i, ab in enumerate(get_card(o.name).abilities):
            if isinstance(ab, CasualAbility) and ab.when == "your_draw_step":
                t.emit(ev.AbilityTriggered(source=o.id, source_name=o.name,
                                           controller=o.controller, ability=i,
                                           marker=m.number, rule="603.2"))
    return False


def _ertai(s: GameState, creature: Obj) -> list[str]:
    """Ertai: "Creatures you control have hexproof" (layer 6, 613.1f)."""
    if is_creature(creature) and creature.controller in _has(s, "ertai_hexproof"):
        return ["hexproof"]
    return []


def _squee(s: GameState, owner: str) -> bool:
    """Squee: "Your opponents play with their hands revealed" (to every player)."""
    return any(owner in opponents(s, p) for p in _has(s, "squee_revealed"))


OUTSIDE_GRANTS.add("grants", _ertai)
REVEALED_HANDS.add("all", _squee)


@applies(MaximumHandSizeSet)
def _max_hand(s: GameState, e: MaximumHandSizeSet) -> None:
    set_player(s, e.player, max_hand_size=e.size)


@explains(MaximumHandSizeSet)
def _explain_max_hand(before: GameState, e: MaximumHandSizeSet, name: Namer) -> str:
    return f"{e.player}'s maximum hand size is {e.size}"
