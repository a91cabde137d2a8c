"""More plane and phenomenon cards (CR 311, 312), taken from the full Oracle file
(tools/extra_cards.txt), so that a planar deck of ten different names with at most two
phenomena (901.3) can be built from implemented cards: Panopticon, Lethe Lake, The Eon
Fog, The Hippodrome, Tazeem and Naya; the phenomena Mutual Epiphany, Planewide Disaster
and Interplanar Tunnel (the plane put on top is a decision, `choose_plane`).

Each ability is a `CasualAbility` (planes.py): the card model's own effects where they
say what it does (draw, mill, destroy), a behaviour registered here otherwise. Static
abilities work from the command zone (901.7): The Eon Fog's through a turn-based action
of the untap step (502), The Hippodrome's in layer 7c (`planes.ANTHEMS`), Tazeem's as a
blocking restriction (509.1b, `combat.declare.CANT_BLOCK`).
"""

from __future__ import annotations

from typing import Literal

from arbiter_core.cards.build import card
from arbiter_core.cards.model import (
    Destroy,
    DrawCards,
    Mill,
    ModifyPowerToughness,
    TargetSpec,
)
from arbiter_core.cards.pool import add_card
from arbiter_core.combat.declare import CANT_BLOCK
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseObjects, PlayerCommand
from arbiter_core.kernel.decisions import decision
from arbiter_core.kernel.edits import shuffled
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.events.base import EventBase
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.refs import ObjectRef
from arbiter_core.kernel.state import Decision, GameState, Marker, Obj, StackItem, Step
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import is_creature, is_type, power_toughness
from arbiter_core.stack.casting import ANY_NUMBER_OF_LANDS
from arbiter_core.stack.resolve import resume
from arbiter_core.turns.draw import draw
from arbiter_core.turns.steps import advance, step_action
from arbiter_core.variants.planechase import PLANAR_DECK, face_up, is_phenomenon, is_planechase
from arbiter_core.variants.planes import ANTHEMS, casual, does

PANOPTICON = add_card(card(
    "Panopticon",
    casual("panopticon_to", "When you planeswalk to Panopticon, draw a card.",
           "planeswalk_to", effects=(DrawCards(),)),
    casual("panopticon_draw", "At the beginning of your draw step, draw an additional "
                              "card.", "your_draw_step", effects=(DrawCards(),)),
    casual("panopticon_chaos", "Whenever you roll {CHAOS}, draw a card.", "chaos",
           effects=(DrawCards(),))))
LETHE_LAKE = add_card(card(
    "Lethe Lake",
    casual("lethe_upkeep", "At the beginning of your upkeep, mill ten cards.",
           "your_upkeep", effects=(Mill(who="controller", count=10),)),
    casual("lethe_chaos", "Whenever you roll {CHAOS}, target player mills ten cards.",
           "chaos", targets=(TargetSpec(kind="player"),),
           effects=(Mill(who="target_player", count=10),))))
EON_FOG = add_card(card(
    "The Eon Fog",
    casual("eon_fog_skip", "Players skip their untap steps."),
    casual("eon_fog_chaos", "Whenever you roll {CHAOS}, untap all permanents you "
                            "control.", "chaos")))
HIPPODROME = add_card(card(
    "The Hippodrome",
    casual("hippodrome_anthem", "All creatures get -5/-0."),
    casual("hippodrome_chaos", "Whenever you roll {CHAOS}, you may destroy target creature "
                               "if its power is 0 or less.", "chaos", optional=True,
           targets=(TargetSpec(kind="creature"),))))
TAZEEM = add_card(card(
    "Tazeem",
    casual("tazeem_no_blocks", "Creatures can't block."),
    casual("tazeem_chaos", "Whenever you roll {CHAOS}, draw a card for each land you "
                           "control.", "chaos")))
NAYA = add_card(card(
    "Naya",
    casual("naya_lands", "You may play any number of lands on each of your turns."),
    casual("naya_chaos", "Whenever you roll {CHAOS}, target red, green, or white creature "
                         "you control gets +1/+1 until end of turn for each land you "
                         "control.", "chaos",
           targets=(TargetSpec(kind="red_green_or_white_creature_you_control"),))))
INTERPLANAR_TUNNEL = add_card(card(
    "Interplanar Tunnel",
    casual("interplanar_tunnel", "When you encounter Interplanar Tunnel, reveal cards from "
                                 "the top of your planar deck until you reveal five plane "
                                 "cards. Put a plane card from among them on top of your "
                                 "planar deck, then put the rest of the revealed cards on "
                                 "the bottom in a random order. (Then planeswalk away from "
                                 "this phenomenon.)", "encounter")))
MUTUAL_EPIPHANY = add_card(card(
    "Mutual Epiphany",
    casual("mutual_epiphany", "When you encounter Mutual Epiphany, each player draws four "
                              "cards. (Then planeswalk away from this phenomenon.)",
           "encounter", effects=(DrawCards(who="each_player", count=4),))))
PLANEWIDE_DISASTER = add_card(card(
    "Planewide Disaster",
    casual("planewide_disaster", "When you encounter Planewide Disaster, destroy all "
                                 "creatures. (Then planeswalk away from this phenomenon.)",
           "encounter", effects=(Destroy(what="all_creatures"),))))

ANTHEMS["hippodrome_anthem"] = (
    (ModifyPowerToughness(subject="all_creatures", power=-5, toughness=0),), ())


def _face_up_named(s: GameState, name: str) -> list[Obj]:
    return [o for o in face_up(s) if o.name == name] if is_planechase(s) else []


@step_action(Step.UNTAP, order=-10)
def _eon_fog(t: Txn, m: Marker) -> bool:
    """The Eon Fog: "Players skip their untap steps." (502; 901.7): the step begins and
    ends without its turn-based actions."""
    if not _face_up_named(t.s, "The Eon Fog"):
        return False
    advance(t, m.number)
    return True


def _tazeem(s: GameState, blocker: Obj) -> bool:
    """Tazeem: "Creatures can't block." (509.1b; 901.13: every creature)."""
    return bool(_face_up_named(s, "Tazeem"))


CANT_BLOCK.add("all", _tazeem)


def _naya(s: GameState, player: str) -> bool:
    """Naya: "You may play any number of lands on each of your turns." (305.2; 901.7:
    the planar controller's, whoever's turn it is - the active player's)."""
    return any(o.controller == player for o in _face_up_named(s, "Naya"))


ANY_NUMBER_OF_LANDS.add("all", _naya)


@does("naya_chaos")
def _naya_chaos(t: Txn, m: Marker, item: StackItem) -> None:
    """+1/+1 until end of turn for each land you control, counted as it resolves
    (608.2h), to the target if still legal (608.2b)."""
    lands = sum(1 for o in t.s.permanents(item.controller) if is_type(o, "Land"))
    for group in item.targets:
        for ref in group:
            if isinstance(ref, ObjectRef) and ref.obj in t.s.objects and lands:
                t.emit(ev.EffectCreated(kind="pt", affected=[ref.obj], power=lands,
                                        toughness=lands, marker=m.number, rule="611.2a"))


@does("eon_fog_chaos")
def _untap_yours(t: Txn, m: Marker, item: StackItem) -> None:
    """Untap all permanents you control (701.26b)."""
    tapped = [o.id for o in t.s.permanents(item.controller) if o.tapped]
    if tapped:
        t.emit(ev.PermanentsUntapped(objs=tapped, rule="701.26b"))


@does("hippodrome_chaos")
def _hippodrome(t: Txn, m: Marker, item: StackItem) -> None:
    """Destroy the target creature if its power is 0 or less (checked as it resolves,
    608.2b-c); asked first as "you may" (603.5, `stack.optional`)."""
    for group in item.targets:
        for ref in group:
            o = t.s.objects.get(ref.obj) if isinstance(ref, ObjectRef) else None
            if o is not None and o.zone == "battlefield" and is_creature(o) \
                    and power_toughness(t.s, o)[0] <= 0:
                t.emit(ev.ObjectMoved(obj=o.id, new_id=t.new_id(), to_zone="graveyard",
                                      to_player=o.owner, rule="701.8a"))


@does("tazeem_chaos")
def _tazeem_draw(t: Txn, m: Marker, item: StackItem) -> None:
    """Draw a card for each land you control (121.1)."""
    lands = sum(1 for o in t.s.permanents(item.controller) if is_type(o, "Land"))
    for _ in range(lands):
        draw(t, item.controller, "121.1")


class PlanarDeckOrdered(EventBase):
    """A planar deck's new order, top first, after cards were put on its top and (in a
    random order, from the game's seeded generator) on its bottom."""

    type: Literal["PlanarDeckOrdered"] = "PlanarDeckOrdered"
    player: str
    order: list[int]


def _revealed(s: GameState, player: str) -> list[int]:
    """From the top of the planar deck until five plane cards are revealed (or all)."""
    out: list[int] = []
    planes = 0
    for oid in s.zone(player, PLANAR_DECK):
        out.append(oid)
        planes += not is_phenomenon(s.objects[oid])
        if planes == 5:
            break
    return out


@does("interplanar_tunnel")
def _tunnel(t: Txn, m: Marker, item: StackItem) -> bool:
    """Reveal until five planes; the controller chooses the one to put on top (a
    decision, unless there is one plane or none)."""
    revealed = _revealed(t.s, item.controller)
    planes = [oid for oid in revealed if not is_phenomenon(t.s.objects[oid])]
    if len(planes) <= 1:
        _put_back(t, item.controller, revealed, planes[0] if planes else None)
        return False
    t.emit(ev.ResolutionPaused(item=item.id, resume_at=0, rule="608.2d"))
    t.emit(ev.DecisionRequested(marker=m.number, kind="choose_plane", player=item.controller,
                                options=planes, count=1, stack_item=item.id, rule="608.2d"))
    return True


def _put_back(t: Txn, player: str, revealed: list[int], top: int | None) -> None:
    rest = [oid for oid in revealed if oid != top]
    bottom = t.rng.shuffled(rest) if len(rest) > 1 else rest
    deck = [oid for oid in t.s.zone(player, PLANAR_DECK) if oid not in revealed]
    t.emit(PlanarDeckOrdered(player=player, order=[*([top] if top is not None else []),
                                                   *deck, *bottom], rule="701.24"))


def _plane_answers(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    return [ChooseObjects(player=d.player, choices=[o], marker=m.number) for o in d.options]


@decision("choose_plane", ChooseObjects, _plane_answers)
def _plane_chosen(t: Txn, m: Marker, d: Decision, cmd: ChooseObjects) -> None:
    """The chosen plane on top, the rest of the revealed cards on the bottom in a random
    order; then the resolution goes on (608.2c)."""
    if len(cmd.choices) != 1 or cmd.choices[0] not in d.options or cmd.players:
        raise RuleViolation("608.2d", "choose one of the revealed plane cards")
    assert d.stack_item is not None
    item = t.s.stack_items[d.stack_item]
    _put_back(t, item.controller, _revealed(t.s, item.controller), cmd.choices[0])
    t.emit(ev.ResolutionPaused(item=item.id, resume_at=item.resume_at + 1, rule="608.2d"))
    resume(t, t.s.markers[m.number], t.s.stack_items[item.id])


@applies(PlanarDeckOrdered)
def _ordered(s: GameState, e: PlanarDeckOrdered) -> None:
    shuffled(s, e.player, "planar_deck", e.order)


@explains(PlanarDeckOrdered)
def _explain_ordered(before: GameState, e: PlanarDeckOrdered, name: Namer) -> str:
    return f"{e.player} puts a plane on top of their planar deck, the rest on the bottom"
