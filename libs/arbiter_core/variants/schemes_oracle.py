"""More scheme cards (CR 314, 904.8), the pool's: All in Good Time, and the ongoing My
Undead Horde Awakens and Nothing Can Stop Me Now (904.11). What a scheme remembers is
in `GameState.casual_notes`, set by `base.CasualNoted` (hashed only when set).

- All in Good Time: an extra turn (500.7), in which schemes can't be set in motion
  (`archenemy.NO_SCHEMES`: noted "schemes_held" 1 as it resolves, 2 as the extra turn
  begins, removed as the next turn begins).
- My Undead Horde Awakens: at the beginning of its owner's end step, "you may put target
  creature card from an opponent's graveyard onto the battlefield under your control"
  (603.5); each creature put so is noted ("horde", the card's number), and when one dies
  the scheme is abandoned (701.33).
- Nothing Can Stop Me Now: a prevention effect (615) on damage from an opponent's source
  to its owner (`damage.PREVENT_TO_PLAYER`); the damage its owner is dealt each turn is
  noted ("dealt") while it is face up, and at the beginning of each end step, if they
  have been dealt 5 or more (603.4, checked again on resolution), it is abandoned.
"""

from __future__ import annotations

from collections.abc import Sequence

from arbiter_core.cards import get_card
from arbiter_core.cards.build import card
from arbiter_core.cards.model import CasualAbility, TargetSpec
from arbiter_core.cards.pool import add_card
from arbiter_core.effects.damage import PREVENT_TO_PLAYER
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.refs import ObjectRef
from arbiter_core.kernel.state import GameState, Marker, Obj, StackItem, Step
from arbiter_core.kernel.txn import Txn, before_emit, watch
from arbiter_core.layers.characteristics import is_creature
from arbiter_core.multiplayer.seating import opponents
from arbiter_core.turns.steps import step_action
from arbiter_core.variants.archenemy import (
    NO_SCHEMES,
    abandon,
    face_up_schemes,
    is_archenemy_game,
)
from arbiter_core.variants.base import CasualNoted, note
from arbiter_core.variants.planes import casual, does
from arbiter_core.variants.schemes import MOTION

ONGOING = "(An ongoing scheme remains face up until it's abandoned.)"
add_card(card("All in Good Time", casual(
    "all_in_good_time", MOTION + "take an extra turn after this one. Schemes can't be set "
                                 "in motion that turn.", "set_in_motion")))
HORDE = add_card(card(
    "My Undead Horde Awakens",
    casual("ongoing_reminder", ONGOING),
    casual("horde_end_step", "At the beginning of your end step, you may put target "
                             "creature card from an opponent's graveyard onto the "
                             "battlefield under your control.", "your_end_step",
           optional=True,
           targets=(TargetSpec(kind="creature_card_in_an_opponents_graveyard"),)),
    casual("horde_abandon", "When a creature put onto the battlefield with this scheme "
                            "dies, abandon this scheme.", "creature_dies")))
NOTHING = add_card(card(
    "Nothing Can Stop Me Now",
    casual("ongoing_reminder", ONGOING),
    casual("nothing_prevent", "If a source an opponent controls would deal damage to you, "
                              "prevent 1 of that damage."),
    casual("nothing_abandon", "At the beginning of each end step, if you've been dealt 5 "
                              "or more damage this turn, abandon this scheme.",
           "each_end_step")))

def _schemes(s: GameState, name: str) -> list[Obj]:
    return [o for o in face_up_schemes(s) if o.name == name] if is_archenemy_game(s) else []


# ------------------------------------------------------------------ All in Good Time


@does("all_in_good_time")
def _all_in_good_time(t: Txn, m: Marker, item: StackItem) -> None:
    """An extra turn after this one (500.7); schemes can't be set in motion then."""
    t.emit(ev.ExtraTurnAdded(marker=m.number, player=item.controller, rule="500.7"))
    t.emit(CasualNoted(note="schemes_held", player=item.controller, value=1, rule="500.7"))


@before_emit(ev.TurnBegan)
def _turn_begins(t: Txn, e: ev.TurnBegan) -> None:
    """A new turn: the notes of the last one end; an extra turn All in Good Time gave
    begins without schemes."""
    for kind, player, value in t.s.casual_notes:
        if kind == "dealt" or (kind == "schemes_held" and value == 2):
            t.emit(CasualNoted(note=kind, player=player, value=0, rule="500.7"))
    if e.extra and note(t.s, "schemes_held", e.player) == 1:
        t.emit(CasualNoted(note="schemes_held", player=e.player, value=2, rule="500.7"))


def _held(s: GameState, player: str) -> bool:
    return note(s, "schemes_held", player) == 2


NO_SCHEMES.add("all", _held)


# ------------------------------------------------------------------ the end step


@step_action(Step.END, order=-4)
def _end_step(t: Txn, m: Marker) -> bool:
    """"At the beginning of your end step" (the active player's schemes) and "of each
    end step" (603.2; 603.4: Nothing Can Stop Me Now's "if")."""
    s = t.s
    if not is_archenemy_game(s):
        return False
    for o in face_up_schemes(s):
        for i, ab in enumerate(get_card(o.name).abilities):
            if not isinstance(ab, CasualAbility):
                continue
            mine = ab.when == "your_end_step" and o.controller == m.holder
            each = ab.when == "each_end_step" and _dealt_five(s, o.controller)
            if mine or each:
                t.emit(ev.AbilityTriggered(source=o.id, source_name=o.name,
                                           controller=o.controller, ability=i,
                                           marker=m.number, rule="603.2"))
    return False


def _dealt_five(s: GameState, player: str) -> bool:
    return note(s, "dealt", player) >= 5


# ------------------------------------------------------------------ My Undead Horde


@does("horde_end_step")
def _horde(t: Txn, m: Marker, item: StackItem) -> None:
    """The target card (if still legal, 608.2b) onto the battlefield under your control;
    noted, for the scheme's other ability."""
    for group in item.targets:
        for ref in group:
            o = t.s.objects.get(ref.obj) if isinstance(ref, ObjectRef) else None
            if o is None or o.zone != "graveyard" or not is_creature(o):
                continue
            t.emit(ev.ObjectMoved(obj=o.id, new_id=t.new_id(), to_zone="battlefield",
                                  to_player=o.owner, controller=item.controller,
                                  rule="110.2"))
            t.emit(CasualNoted(note="horde", player=item.controller, value=o.card,
                               add=True, rule="904.8"))


@watch(ev.ObjectMoved, order=141, look_back=True)
def _horde_dies(s: GameState, e: ev.ObjectMoved, current: int | None, before: Obj | None
                ) -> Sequence[ev.Event]:
    """"When a creature put onto the battlefield with this scheme dies" (700.4)."""
    if before is None or before.zone != "battlefield" or e.to_zone != "graveyard" \
            or not is_creature(before):
        return []
    out = []
    for o in _schemes(s, HORDE.name):
        if ("horde", o.controller, before.card) in s.casual_notes:
            m = s.marker_of(o.controller) or next(iter(s.markers.values()))
            out.append(ev.AbilityTriggered(source=o.id, source_name=o.name,
                                           controller=o.controller, ability=2,
                                           marker=current or m.number, rule="603.6c"))
    return out


@does("horde_abandon")
@does("nothing_abandon")
def _abandon(t: Txn, m: Marker, item: StackItem) -> None:
    if item.source is None:
        return
    o = t.s.objects.get(item.source)
    if o is not None and o.name == NOTHING.name and not _dealt_five(t.s, o.controller):
        return  # 603.4: the "if" again as it resolves
    abandon(t, item.source)


# ------------------------------------------------------------------ Nothing Can Stop Me Now


def _prevent_one(s: GameState, source: int, player: str) -> int:
    """"If a source an opponent controls would deal damage to you, prevent 1 of that
    damage" (615.7), once for each such scheme."""
    src = s.objects.get(source)
    if src is None:
        return 0
    return sum(1 for o in _schemes(s, NOTHING.name)
               if o.controller == player and src.controller in opponents(s, player))


PREVENT_TO_PLAYER.add("all", _prevent_one)


@watch(ev.DamageDealt, order=6)
def _dealt(s: GameState, e: ev.DamageDealt, current: int | None, before: Obj | None
           ) -> Sequence[ev.Event]:
    """The damage dealt to the owner of a face-up Nothing Can Stop Me Now this turn."""
    if e.player is None or not any(o.controller == e.player
                                   for o in _schemes(s, NOTHING.name)):
        return []
    total = note(s, "dealt", e.player) + e.amount
    return [CasualNoted(note="dealt", player=e.player, value=total, rule="904.8")]
