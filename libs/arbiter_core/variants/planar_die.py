"""The planar die (CR 901.3a, 901.8-901.9): a six-sided die with one Planeswalker face,
one chaos face and four blank faces.

Rolling it is a special action (901.9, 116.2i) of an active player (901.12d: each player
of the active team) holding priority with an empty stack in a main phase of their turn.
It costs {N}, where N is the number of times that player took this action earlier in the
turn (`Marker.planar_rolls`; rolls caused by effects don't count). The result comes from
the game's seeded generator and is written into the event (`PlanarDieRolled`), so a
replay never rolls again; a judge's position may suppose the next results
(`GameState.planar_die`). Blank: nothing happens (901.9a). Chaos: each "whenever you roll
{CHAOS}" ability of a face-up plane the roller's side controls triggers (901.9b, 311.7;
901.12c). Planeswalker: the planeswalking ability triggers (901.9c, 901.8) - an inherent
triggered ability with no source, controlled by the roller, that planeswalks as it
resolves. After any roll the active player gets priority.
"""

from __future__ import annotations

from typing import Literal, cast

from arbiter_core.cards import get_card
from arbiter_core.cards.model import CasualAbility
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.actions import priority_actions
from arbiter_core.kernel.commands import PlayerCommand, RollPlanarDie
from arbiter_core.kernel.decide import handles
from arbiter_core.kernel.edits import set_marker
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.events.base import EventBase
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import MAIN_STEPS, GameState, Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.multiplayer.seating import active_players
from arbiter_core.stack.items import INHERENT, Meaning, ability_effects, effect
from arbiter_core.stack.mana import can_pay, parse_cost, pay
from arbiter_core.stack.priority import queue_priority, require_priority
from arbiter_core.variants.planechase import PLANESWALKING, face_up, is_planechase, planeswalk

Face = Literal["blank", "chaos", "planeswalker"]
#: the six faces (901.3a)
FACES: tuple[Face, ...] = ("planeswalker", "chaos", "blank", "blank", "blank", "blank")
FREE = "planar_die_rolls_free"


class PlanarDieRolled(EventBase):
    """A player rolled the planar die (901.9): the face that came up, from the seeded
    generator or as a judge's position supposed (`supposed`), and the mana it cost."""

    type: Literal["PlanarDieRolled"] = "PlanarDieRolled"
    player: str
    marker: int
    result: Face
    cost: int = 0
    special_action: bool = True  # False for a roll an effect caused (901.9)
    supposed: bool = False


class PlaneswalkingAbility:
    """The planeswalking ability's effect (901.8): "planeswalk" (701.31)."""


def rolls_this_turn(m: Marker, player: str) -> int:
    return sum(1 for turn, who in m.planar_rolls if turn == m.turn and who == player)


def roll_cost(s: GameState, m: Marker, player: str) -> int:
    """CR 901.9: one more generic mana for each earlier roll this turn (901.12d: that
    player's own); nothing with the option `planar_die_rolls_free`."""
    return 0 if FREE in s.casual_options else rolls_this_turn(m, player)


def _may_roll(s: GameState, m: Marker, player: str) -> str | None:
    """Why the player may not roll now (the rule), or None."""
    if not is_planechase(s):
        return "901.3"
    if player not in active_players(s, m.holder):
        return "901.9"
    if m.stack or m.step not in MAIN_STEPS:
        return "901.9"
    return None


@handles(RollPlanarDie)
def roll_planar_die(t: Txn, cmd: RollPlanarDie) -> None:
    """CR 901.9: the special action, its cost paid, the roll, then what the face does
    (901.9a-c), and priority to the active player."""
    s = t.s
    m = require_priority(s, cmd.player, cmd.marker)
    why = _may_roll(s, m, cmd.player)
    if why is not None:
        raise RuleViolation(why, "the planar die is rolled only in Planechase (901.3), by "
                                 "the active player with priority and an empty stack in a "
                                 "main phase of their turn (901.9)")
    cost = roll_cost(s, m, cmd.player)
    if cost:
        mana = parse_cost("{" + str(cost) + "}")
        if not can_pay(s, cmd.player, mana):
            raise RuleViolation("901.9", f"{cmd.player} can't pay {{{cost}}} to roll the "
                                         "planar die again")
        pay(t, cmd.player, mana, None)
    roll(t, m, cmd.player, cost, special_action=True)
    queue_priority(t, m.number, m.holder)


def roll(t: Txn, m: Marker, player: str, cost: int = 0, special_action: bool = False
         ) -> Face:
    """Roll the planar die and trigger what the face triggers (901.9a-c)."""
    s = t.s
    supposed = bool(s.planar_die)
    result: Face = s.planar_die[0] if supposed else t.rng.choice(FACES)  # type: ignore[assignment]
    if result == "blank" and any(f.kind == "until_planeswalk" for f in s.effects):
        result = "chaos"  # Chaotic Aether: each blank roll is a chaos roll
    t.emit(PlanarDieRolled(player=player, marker=m.number, result=result, cost=cost,
                           special_action=special_action, supposed=supposed, rule="901.9"))
    if result == "chaos":
        chaos(t, m, player)
    elif result == "planeswalker":
        ups = face_up(t.s)
        source = ups[0] if ups else None
        if source is not None:  # 901.8: no source; the stack item names a face-up card
            t.emit(ev.AbilityTriggered(source=source.id, source_name=source.name,
                                       controller=player, ability=PLANESWALKING,
                                       marker=m.number, rule="901.8"))
    return result


def chaos(t: Txn, m: Marker, player: str) -> None:
    """CR 311.7, 901.9b: each chaos ability of a face-up plane controlled by the roller
    (901.12c: or by a teammate, in Two-Headed Giant) triggers."""
    s = t.s
    side = set(s.team_of(player)) if s.shared_team_turns else {player}
    for o in face_up(s):
        if o.controller not in side:
            continue
        for i, ab in enumerate(get_card(o.name).abilities):
            if isinstance(ab, CasualAbility) and ab.when == "chaos":
                t.emit(ev.AbilityTriggered(source=o.id, source_name=o.name,
                                           controller=o.controller, ability=i,
                                           marker=m.number, rule="311.7"))


@ability_effects((INHERENT, PLANESWALKING))
def _planeswalking(item: StackItem) -> Meaning:
    return cast(Meaning, ((), (PlaneswalkingAbility(),)))


@effect(PlaneswalkingAbility)
def _planeswalk(t: Txn, m: Marker, item: StackItem, eff: PlaneswalkingAbility, legal: object,
                index: int) -> bool:
    """CR 901.8, 701.31: the controller planeswalks. 901.10a: with no face-up card left
    (its source left the game) the ability does nothing."""
    if face_up(t.s):
        planeswalk(t, item.controller)
    return False


@priority_actions(order=25)
def _rolls(s: GameState, m: Marker, player: str) -> list[PlayerCommand]:
    """Rolling the planar die, when the player may and can pay for it (for bots)."""
    if _may_roll(s, m, player) is not None:
        return []
    cost = roll_cost(s, m, player)
    if cost and not can_pay(s, player, parse_cost("{" + str(cost) + "}")):
        return []
    return [RollPlanarDie(player=player, marker=m.number)]


@applies(PlanarDieRolled)
def _rolled(s: GameState, e: PlanarDieRolled) -> None:
    m = s.markers[e.marker]
    if e.supposed:
        s.planar_die = s.planar_die[1:]
    else:
        s.rng_counter += 1
    if e.special_action:
        kept = tuple(r for r in m.planar_rolls if r[0] == m.turn)
        set_marker(s, e.marker, planar_rolls=(*kept, (m.turn, e.player)))


@explains(PlanarDieRolled)
def _explain_rolled(before: GameState, e: PlanarDieRolled, name: Namer) -> str:
    paid = f" (paying {{{e.cost}}})" if e.cost else ""
    return f"{e.player} rolls the planar die{paid}: {e.result}"
