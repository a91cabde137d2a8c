"""Attack requirements and restrictions on a whole declaration (CR 508.1c, 508.1d,
509.1b).

Per-creature restrictions (508.1a tapped or summoning sick, 702.3b defender, Pacifism,
detain, Teferi's Moat, range of influence, attack options) are judged in combat.py; a
creature that passes them for at least one player is one that "could" attack. Here:

- 508.1c restrictions on the declaration as a whole: "No more than one creature can
  attack each combat" (Silent Arbiter). 802.3a: such a restriction, which doesn't concern
  a specific player, is judged on the entire group of attacking creatures; 805.10b: with
  shared team turns, on the team's one combined attack.
- 508.1d requirements: each "attacks this turn if able" effect on a creature is one
  requirement (Maddening Imp). A declaration is legal only if it obeys as many
  requirements as any declaration that disobeys no restriction could. The requirements
  here all concern a creature attacking at all (not a specific player), and the only
  restriction across creatures is a cap on their number, so that maximum is the sum of
  the largest requirement counts among the creatures that could attack, as many of
  them as the cap allows.
- 509.1b the same cap on blockers ("No more than one creature can block each combat"),
  judged per defending player's declaration (802.4b) or per defending team (805.10d).

The requirements come from resolving effects (`attack_if_able`): "creatures the active
player controls attack this turn if able". 805.9: with shared team turns there are
several active players, and "the active player" is one of them, chosen by the ability's
controller as the effect is applied (a decision during resolution).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Literal

from arbiter_core.cards import get_card
from arbiter_core.cards.model import (
    AttackIfAble,
    DestroyUnlessAttacked,
    NoMoreThanOneCombatant,
    StaticAbility,
)
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseOption, PlayerCommand
from arbiter_core.kernel.decisions import decision
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.registry import Hooks
from arbiter_core.kernel.state import Decision, GameState, Marker, Obj, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import definition, is_creature
from arbiter_core.multiplayer.influence import object_in_range
from arbiter_core.multiplayer.seating import active_players
from arbiter_core.stack.items import Legal, effect, static_effect
from arbiter_core.stack.resolve import resume


@functools.cache
def _caps(name: str) -> tuple[str, ...]:
    """What a card's static abilities allow only one creature to do ("attack", "block")."""
    return tuple(e.declaring for ab in get_card(name).abilities if isinstance(ab, StaticAbility)
                 for e in ab.effects if isinstance(e, NoMoreThanOneCombatant))


#: other sources of the same restriction (a plane's, 901.7): (state, "attack"|"block",
#: player) -> True when it limits that player to one creature
CAPS: Hooks[str, Callable[[GameState, str, str], bool]] = Hooks("one-combatant restriction")


def cap(s: GameState, declaring: Literal["attack", "block"], player: str) -> int | None:
    """How many creatures `player` may attack (or block) with this combat, if anything
    limits it; a static ability affects only players within its controller's range of
    influence (801.10)."""
    if any(limit(s, declaring, player) for limit in CAPS["all"]):
        return 1
    for oid in s.battlefield:
        o = s.objects[oid]
        if o.token is None and not o.face_down and declaring in _caps(o.name):
            near = s.influence.get(o.controller)
            if near is None or player in near:
                return 1
    return None


def requirement_count(s: GameState, o: Obj) -> int:
    """The requirements on `o` to attack (508.1d): one per "attacks if able" effect."""
    return sum(1 for f in s.effects if f.kind == "attack_requirement" and o.id in f.affected)


def max_obeyable(s: GameState, player: str, could_attack: Sequence[Obj]) -> int:
    """The most requirements a declaration could obey without disobeying a restriction
    (508.1d): the `could_attack` creatures with the most requirements, up to the cap."""
    counts = sorted((requirement_count(s, o) for o in could_attack), reverse=True)
    limit = cap(s, "attack", player)
    return sum(counts if limit is None else counts[:limit])


def check_attack(s: GameState, player: str, attackers: Sequence[Obj],
                 could_attack: Sequence[Obj]) -> None:
    """CR 508.1c: the whole declaration obeys every restriction; then 508.1d: it obeys
    the maximum number of requirements possible."""
    limit = cap(s, "attack", player)
    if limit is not None and len(attackers) > limit:
        raise RuleViolation("508.1c", f"no more than {limit} creature can attack "
                                      "this combat")
    obeyed = sum(requirement_count(s, o) for o in attackers)
    best = max_obeyable(s, player, could_attack)
    if obeyed < best:
        required = [o.name for o in could_attack if requirement_count(s, o)]
        raise RuleViolation("508.1d", f"the attack obeys {obeyed} of the requirements to "
                                      f"attack but {best} can be obeyed "
                                      f"({', '.join(required)} attack if able)")


def required_attackers(s: GameState, player: str, could_attack: Sequence[Obj]) -> list[Obj]:
    """One set of creatures whose attack obeys the most requirements (508.1d)."""
    ranked = sorted((o for o in could_attack if requirement_count(s, o)),
                    key=lambda o: -requirement_count(s, o))
    limit = cap(s, "attack", player)
    return ranked if limit is None else ranked[:limit]


def check_blocks(s: GameState, player: str, blockers: int) -> None:
    """CR 509.1b: a restriction on the number of blockers."""
    limit = cap(s, "block", player)
    if limit is not None and blockers > limit:
        raise RuleViolation("509.1b", f"no more than {limit} creature can block this combat")


# ------------------------------------------------------------------ effects that require


@effect(AttackIfAble)
def _attack_if_able(t: Txn, m: Marker, item: StackItem, eff: AttackIfAble, legal: Legal,
                    index: int) -> bool:
    """"Non-Wall creatures the active player controls attack this turn if able": each
    such creature (within the controller's range of influence, 801.10) gets a
    requirement until end of turn (508.1d). 805.9: with several active players the
    controller first chooses which one is meant. Returns True while waiting for it."""
    s = t.s
    actives = active_players(s, m.holder)
    if not actives:
        return False
    chosen = item.chosen[-1] if item.chosen and item.chosen[-1] in actives else None
    if chosen is None and len(actives) > 1:
        t.emit(ev.ResolutionPaused(item=item.id, resume_at=index, rule="608.2d"))
        t.emit(ev.DecisionRequested(marker=m.number, kind="choose_active_player",
                                    player=item.controller, choices=actives, count=1,
                                    stack_item=item.id, rule="805.9"))
        return True
    who = chosen or actives[0]
    ids = [o.id for o in s.permanents(who) if is_creature(o)
           and not (eff.non_wall and "Wall" in definition(o).subtypes)
           and object_in_range(s, item.controller, o)]
    if ids:
        t.emit(ev.EffectCreated(kind="attack_requirement", affected=ids,
                                controller=item.controller, marker=m.number,
                                rule="805.9" if len(actives) > 1 else "611.2a"))
    return False


@effect(DestroyUnlessAttacked)
def _destroy_unless_attacked(t: Txn, m: Marker, item: StackItem, eff: DestroyUnlessAttacked,
                             legal: Legal, index: int) -> bool:
    """"At the beginning of the next end step, destroy each of those creatures that
    didn't attack this turn": a delayed trigger (603.7a) for the creatures the
    requirement just before it was put on (delayed.py: it goes on the stack as the next
    end step begins)."""
    those: list[int] = []
    for e in reversed(t.events):
        if isinstance(e, ev.EffectCreated) and e.kind == "attack_requirement":
            those = list(e.affected)
            break
        if isinstance(e, ev.ChooserChosen | ev.ResolutionPaused | ev.AbilityActivated
                      | ev.StackItemResolved | ev.StackItemCountered):
            break
    if those:
        t.emit(ev.DelayedTriggerCreated(card=0, owner=item.controller, controller=item.controller,
                                        source_name=item.source_name,
                                        kind="destroy_unless_attacked", objs=those,
                                        source=item.source, rule="603.7a"))
    return False


static_effect(NoMoreThanOneCombatant)  # a restriction on the declaration: `cap`


def _actives(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    return [ChooseOption(player=d.player, option=c, marker=m.number) for c in d.choices]


@decision("choose_active_player", ChooseOption, _actives)
def _active_player_chosen(t: Txn, m: Marker, d: Decision, cmd: ChooseOption) -> None:
    """805.9: which active player "the active player" means."""
    if cmd.option not in d.choices:
        raise RuleViolation(d.rule, f"{cmd.option!r} is not one of {list(d.choices)}")
    assert d.stack_item is not None
    t.emit(ev.ChooserChosen(item=d.stack_item, player=cmd.option, rule=d.rule))
    resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])
