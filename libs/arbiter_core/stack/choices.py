"""Choices made as a permanent enters or as a spell is cast: an opponent chosen for a
permanent (614.12), and modes (700.2) - chosen by another player when the spell says so
(700.2e, 801.5b).

- A choice of a player (an opponent) is a choice among players, so only players within
  the chooser's range of influence can be chosen (801.5a); if no opponent is within range,
  the closest opponent to the chooser's left is the one (801.5c). With one candidate the
  engine makes the choice.
- The mode is chosen as the spell is cast (601.2b). With "An opponent chooses one" the
  caster decides which opponent chooses (700.2e), among those above; then that opponent
  chooses the mode. The cost doesn't depend on the mode (no mode has an additional cost,
  700.2h), so the engine pays it when the spell is announced and asks for the mode after.
"""

from __future__ import annotations

from dataclasses import replace

from arbiter_core.cards.model import (
    CardDefinition,
    ChooseColorAsEnters,
    ChooseOpponentAsEnters,
    SpellAbility,
    StaticAbility,
)
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseOption, PlayerCommand
from arbiter_core.kernel.decisions import decision
from arbiter_core.kernel.edits import set_obj
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains, item_label
from arbiter_core.kernel.state import Decision, GameState, Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import definition
from arbiter_core.multiplayer.influence import player_in_range
from arbiter_core.multiplayer.seating import opponents, turn_order_from
from arbiter_core.stack.items import static_effect
from arbiter_core.stack.priority import queue_priority
from arbiter_core.stack.resolve import AS_ENTERS, resume


def opponent_candidates(s: GameState, who: str) -> tuple[list[str], str]:
    """The opponents `who` may choose, and the rule that says so: those within range
    (801.5a), else the closest opponent to their left (801.5c)."""
    opps = opponents(s, who)
    near = [p for p in opps if player_in_range(s, who, p)]
    if near or not opps:
        return near, "801.5a" if s.influence else "614.12"
    closest = next(p for p in turn_order_from(s, who) if p in opps)
    return [closest], "801.5c"


# ---------------------------------------------------------------- "choose an opponent"


def enters_with_choice(d: CardDefinition) -> bool:
    return any(isinstance(e, ChooseOpponentAsEnters) for ab in d.abilities
               for e in getattr(ab, "effects", ()))


def ask_opponent_as_enters(t: Txn, m: Marker, item: StackItem, oid: int) -> bool:
    """"As ~ enters, choose an opponent" (614.12). Returns True while the controller is
    asked (two or more candidates)."""
    controller = item.controller
    if not enters_with_choice(definition(t.s.objects[oid])):
        return False
    candidates, rule = opponent_candidates(t.s, controller)
    if len(candidates) == 1:
        t.emit(ev.PlayerChosen(obj=oid, player=candidates[0], rule=rule))
        return False
    if not candidates:
        return False
    t.emit(ev.DecisionRequested(marker=m.number, kind="choose_opponent", player=controller,
                                options=[oid], choices=candidates, count=1, rule=rule))
    return True


# ---------------------------------------------------------------- modes (700.2)


def modal(d: CardDefinition) -> SpellAbility | None:
    """The spell ability, if the spell is modal (CR 700.2)."""
    return next((ab for ab in d.abilities if isinstance(ab, SpellAbility) and ab.modes), None)


def mode_options(ab: SpellAbility) -> list[str]:
    """The modes a player may choose, by number ("1" is the first printed). CR 801.5b:
    this is a choice between options, not between objects or players, so a player may
    choose any mode, even one that refers to objects or players outside their range of
    influence. (700.2a would rule out a mode without legal targets; no mode in the pool
    has targets.)"""
    return [str(i + 1) for i in range(len(ab.modes))]


def ask_mode(t: Txn, m: Marker, item: StackItem) -> None:
    """CR 601.2b, 700.2: ask for the mode of a spell being cast. "An opponent chooses"
    (700.2e): the caster first names the opponent when more than one could choose."""
    s = t.s
    ab = modal(definition(s.objects[item.obj])) if item.obj is not None else None
    assert ab is not None
    chooser = item.controller
    rule = "700.2a"
    if ab.mode_chooser == "an_opponent":
        candidates, rule = opponent_candidates(s, item.controller)
        if len(candidates) > 1:
            t.emit(ev.DecisionRequested(marker=m.number, kind="choose_opponent",
                                        player=item.controller, choices=candidates, count=1,
                                        stack_item=item.id, rule="700.2e"))
            return
        chooser = candidates[0] if candidates else item.controller
        rule = "801.5b" if s.influence else "700.2e"
    t.emit(ev.DecisionRequested(marker=m.number, kind="choose_mode", player=chooser,
                                choices=mode_options(ab), count=1, stack_item=item.id,
                                rule=rule))


def casting_choice(s: GameState, d: Decision) -> bool:
    """Whether the decision belongs to this module (an answer goes to `answer`)."""
    if d.kind == "choose_mode":
        return True
    if d.kind != "choose_opponent":
        return False
    if d.stack_item is None:
        return True  # "as ~ enters"
    item = s.stack_items.get(d.stack_item)
    return item is not None and item.mode is None and item.obj is not None and modal(
        definition(s.objects[item.obj])) is not None


def _casting_answer(t: Txn, m: Marker, d: Decision, option: str) -> None:
    """The answer to a choice made as a permanent enters or as a spell is cast: the
    opponent for a permanent, the opponent who chooses the mode, or the mode; then the
    game goes on (117.3c: the caster receives priority after casting)."""
    if option not in d.choices:
        # An opponent left out of the choices is outside the chooser's range (801.5a).
        outside = d.kind == "choose_opponent" and option in opponents(t.s, d.player)
        raise RuleViolation("801.5a" if outside else d.rule,
                            f"{option!r} is not one of {list(d.choices)}")
    if d.stack_item is None:
        t.emit(ev.PlayerChosen(obj=d.options[0], player=option, rule=d.rule))
        queue_priority(t, m.number, m.holder)
        return
    item = t.s.stack_items[d.stack_item]
    if d.kind == "choose_opponent":
        ab = modal(definition(t.s.objects[item.obj])) if item.obj is not None else None
        assert ab is not None
        t.emit(ev.DecisionRequested(marker=m.number, kind="choose_mode", player=option,
                                    choices=mode_options(ab), count=1, stack_item=item.id,
                                    rule="801.5b" if t.s.influence else "700.2e"))
        return
    t.emit(ev.ModeChosen(item=item.id, mode=int(option) - 1, player=d.player,
                         rule="700.2e" if d.player != item.controller else "601.2b"))
    queue_priority(t, m.number, item.controller)


@applies(ev.TeamMemberChosen, ev.ChooserChosen)
def _player_chosen_for_item(s: GameState, e: ev.TeamMemberChosen | ev.ChooserChosen) -> None:
    it = s.stack_items[e.item]
    s.stack_items[e.item] = replace(it, chosen=(*it.chosen, e.player))


@applies(ev.ModeChosen)
def _mode_chosen(s: GameState, e: ev.ModeChosen) -> None:
    s.stack_items[e.item] = replace(s.stack_items[e.item], mode=e.mode, that_player=e.player)


@applies(ev.ColorChosen)
def _color_chosen(s: GameState, e: ev.ColorChosen) -> None:
    set_obj(s, e.obj, chosen_color=e.color)


@applies(ev.PlayerChosen)
def _opponent_chosen(s: GameState, e: ev.PlayerChosen) -> None:
    set_obj(s, e.obj, chosen_player=e.player)


# ------------------------------------------------------------------ the decisions


def _each_choice(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    return [ChooseOption(player=d.player, option=c, marker=m.number) for c in d.choices]


def _chooser_left(t: Txn, m: Marker, d: Decision, player: str) -> bool:
    """800.4g: the mode an opponent who left was to choose is chosen by another opponent
    the caster names (Misfortune)."""
    if d.stack_item is None or not casting_choice(t.s, d):
        return False
    ask_mode(t, m, t.s.stack_items[d.stack_item])
    return True


@decision("choose_mode", ChooseOption, _each_choice, on_leave=_chooser_left)
def _mode(t: Txn, m: Marker, d: Decision, cmd: ChooseOption) -> None:
    _casting_answer(t, m, d, cmd.option)  # 601.2b, 700.2, 700.2e


@decision("choose_opponent", ChooseOption, _each_choice, on_leave=_chooser_left)
def _opponent(t: Txn, m: Marker, d: Decision, cmd: ChooseOption) -> None:
    """An opponent: for a permanent as it enters (614.12), for the mode (700.2e), or the
    one who makes a choice an effect asks of an opponent (801.5a, Murmurs from Beyond)."""
    if casting_choice(t.s, d):
        _casting_answer(t, m, d, cmd.option)
        return
    if cmd.option not in d.choices:  # an opponent within range (801.5a)
        raise RuleViolation(d.rule, f"{cmd.option!r} is not one of {list(d.choices)}")
    assert d.stack_item is not None
    t.emit(ev.ChooserChosen(item=d.stack_item, player=cmd.option, rule=d.rule))
    resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])


AS_ENTERS.add("all", ask_opponent_as_enters, order=30)
static_effect(ChooseOpponentAsEnters, ChooseColorAsEnters)  # replacement effects (614.12)

# ------------------------------------------------------------------ "choose a color"

COLOR_NAMES = ("white", "blue", "black", "red", "green")


def color_choice(d: CardDefinition) -> bool:
    return any(isinstance(e, ChooseColorAsEnters) for ab in d.abilities
               if isinstance(ab, StaticAbility) for e in ab.effects)


def _ask_color(t: Txn, m: Marker, item: StackItem, oid: int) -> bool:
    """614.12: "as ~ enters, choose a color" - the controller's decision."""
    if not color_choice(definition(t.s.objects[oid])):
        return False
    t.emit(ev.DecisionRequested(marker=m.number, kind="choose_color", player=item.controller,
                                options=[oid], count=1, choices=list(COLOR_NAMES),
                                rule="614.12"))
    return True


AS_ENTERS.add("all", _ask_color, order=40)


@decision("choose_color", ChooseOption, _each_choice, team_answers=True)
def _color(t: Txn, m: Marker, d: Decision, cmd: ChooseOption) -> None:
    if cmd.option not in d.choices:
        raise RuleViolation(d.rule, f"{cmd.option!r} is not one of {list(d.choices)}")
    t.emit(ev.ColorChosen(obj=d.options[0], color=cmd.option, rule="614.12"))
    queue_priority(t, m.number, m.holder)


@explains(ev.ChooserChosen)
def _explain_chooser_chosen(before: GameState, e: ev.ChooserChosen, name: Namer) -> str:
    return f"{e.player} is chosen for {item_label(before, e.item)}"


@explains(ev.TeamMemberChosen)
def _explain_team_member(before: GameState, e: ev.TeamMemberChosen, name: Namer) -> str:
    return f"{e.player} is the team member {item_label(before, e.item)} affects"


@explains(ev.ModeChosen)
def _explain_mode_chosen(before: GameState, e: ev.ModeChosen, name: Namer) -> str:
    return f"{e.player} chooses mode {e.mode + 1} of {item_label(before, e.item)}"


@explains(ev.ColorChosen)
def _explain_color_chosen(before: GameState, e: ev.ColorChosen, name: Namer) -> str:
    return f"{e.color} is chosen for {name(e.obj)}"


@explains(ev.PlayerChosen)
def _explain_player_chosen(before: GameState, e: ev.PlayerChosen, name: Namer) -> str:
    return f"{e.player} is the opponent chosen for {name(e.obj)}"
