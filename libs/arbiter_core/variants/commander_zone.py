"""A commander returning to the command zone (CR 903.9), each time its owner's choice,
asked as a yes/no decision ("commander_zone", the object as its option) and recorded.

- 903.9a, 704.6d: a commander in a graveyard or in exile that was put there since
  state-based actions were last checked: its owner may put it into the command zone, as
  a state-based action (`sba.conditions.CHOICE_SBAS`). A commander object whose owner
  said no is left there (`CommanderState.declined`); a later zone change makes a new
  object, asked about again.
- 903.9b: a commander a resolving effect would put into its owner's hand or library:
  its owner may put it into the command zone instead, a replacement effect
  (`effects.zones.MOVE_REPLACEMENTS`); the resolution pauses for the answer and goes
  on with it. The replacement may apply again to the same event (an exception to
  614.5), so it is asked each time the object would go there - also when another
  replacement already modified the event (Memory Lapse: a countered commander spell
  would go on top of the library instead of the graveyard). A commander spell the
  owner sends to the command zone is moved by the resolving effect as it counters it
  (`CommanderZoneChosen`).
- 903.9b on a draw (possible after the owner declined 903.9b once): a draw step's draw
  of a commander on top of its owner's library is replaced - the owner is asked before
  drawing, "yes" puts it into the command zone instead of drawing it, "no" draws it
  (`turns.draw.DRAW_STEP_REPLACEMENTS`; the step goes on after the answer). A commander
  drawn by an effect (which can't pause mid-draw) is noted (`CommanderDrawn`) and its
  owner asked at the check that follows (as for 903.9a): it is in the hand until then.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from arbiter_core.effects.zones import MOVE_REPLACEMENTS
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseOption, PlayerCommand
from arbiter_core.kernel.decisions import decision
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import Decision, GameState, Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.sba.conditions import CHOICE_SBAS, Choice
from arbiter_core.stack.resolve import resume
from arbiter_core.turns.draw import DRAW_STEP_REPLACEMENTS, DRAWN, draw
from arbiter_core.turns.steps import draw_rule, resume_draw_step
from arbiter_core.variants.commander import commander_owner

KIND = "commander_zone"


class CommanderZoneChosen(ev.EventBase):
    """903.9b: the owner of commander spell `obj` chose the command zone for it: the
    resolving `item` puts it there as it counters it (a spell's card leaves the stack
    only with its stack item)."""

    type: Literal["CommanderZoneChosen"] = "CommanderZoneChosen"
    item: int
    obj: int


class CommanderDrawn(ev.EventBase):
    """903.9b: `player` drew their commander `obj`; they are asked whether it goes to
    the command zone instead."""

    type: Literal["CommanderDrawn"] = "CommanderDrawn"
    player: str
    obj: int


class CommanderLeftInZone(ev.EventBase):
    """The owner of commander `obj` chose not to put it into the command zone (903.9a;
    903.9b: it goes where it was going)."""

    type: Literal["CommanderLeftInZone"] = "CommanderLeftInZone"
    player: str
    obj: int


def _sba_choices(s: GameState) -> list[Choice]:
    """903.9a, 704.6d: commanders put into a graveyard or exile and not yet asked about."""
    c = s.commander
    if c is None:
        return []
    out: list[Choice] = []
    for card, owner in c.commanders:
        if s.players[owner].left:
            continue
        for zone in ("graveyard", "exile"):
            for oid in s.zone(owner, zone):
                if s.objects[oid].card == card and oid not in c.declined:
                    out.append((KIND, owner, oid, "704.6d"))
        out += [(KIND, owner, oid, "903.9b") for oid in s.zone(owner, "hand")
                if oid in c.drawn and oid not in c.declined and s.objects[oid].card == card]
    return out


CHOICE_SBAS.add("all", _sba_choices)


def _drawn(t: Txn, player: str, was: int, oid: int) -> None:
    """903.9b: a player drew their own commander (not after saying no to it just now)."""
    o, c = t.s.objects[oid], t.s.commander
    if c is not None and was not in c.declined and commander_owner(
            t.s, o.card) == player == o.owner:
        t.emit(CommanderDrawn(player=player, obj=oid, rule="903.9b"))


DRAWN.add("all", _drawn)


def _before_draw(t: Txn, m: Marker, player: str) -> bool:
    """903.9b: the draw step's draw would put the player's own commander into their
    hand: ask them first (True: asked)."""
    library, c = t.s.zone(player, "library"), t.s.commander
    if c is None or not library or library[0] in c.declined:
        return False
    o = t.s.objects[library[0]]
    if commander_owner(t.s, o.card) != player or o.owner != player:
        return False
    t.emit(ev.DecisionRequested(marker=m.number, kind=KIND, player=player, options=[o.id],
                                count=1, choices=["yes", "no"], rule="903.9b"))
    return True


DRAW_STEP_REPLACEMENTS.add("all", _before_draw)


def _instead(t: Txn, m: Marker, item: StackItem, index: int, oid: int,
             zone: str) -> str | None:
    """903.9b: a commander about to go to its owner's hand or library: ask its owner
    (the resolution pauses), or go on with the answer given."""
    s = t.s
    o = s.objects[oid]
    owner = commander_owner(s, o.card)
    if owner is None or zone not in ("hand", "library") or owner != o.owner:
        return zone
    if s.commander is not None and oid in s.commander.declined:
        return zone
    if f"command:{oid}" in item.chosen:
        return "command"
    t.emit(ev.ResolutionPaused(item=item.id, resume_at=index, rule="903.9b"))
    t.emit(ev.DecisionRequested(marker=m.number, kind=KIND, player=owner, options=[oid],
                                count=1, choices=["yes", "no"], stack_item=item.id,
                                rule="903.9b"))
    return None


MOVE_REPLACEMENTS.add("all", _instead)


def _yes_or_no(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    return [ChooseOption(player=d.player, option=c, marker=m.number) for c in d.choices]


@decision(KIND, ChooseOption, _yes_or_no)
def _answer(t: Txn, m: Marker, d: Decision, cmd: ChooseOption) -> None:
    """"yes": the commander goes to the command zone; "no": it stays (903.9a) or goes
    where it was going (903.9b). Then the check, or the resolution, goes on."""
    if cmd.option not in d.choices:
        raise RuleViolation(d.rule, f"{cmd.option!r} is not one of {list(d.choices)}")
    oid = d.options[0]
    o = t.s.objects[oid]
    if cmd.option == "yes" and o.zone == "stack" and d.stack_item is not None:
        t.emit(CommanderZoneChosen(item=d.stack_item, obj=oid, rule=d.rule))
    elif cmd.option == "yes":
        t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="command",
                              to_player=o.owner, rule=d.rule))
    else:
        t.emit(CommanderLeftInZone(player=d.player, obj=oid, rule=d.rule))
    if o.zone == "library" and d.stack_item is None:  # the draw step's draw (903.9b)
        marker = t.s.markers[m.number]
        if cmd.option != "yes":
            draw(t, d.player, draw_rule(t.s, marker))
        resume_draw_step(t, marker, d.player)
        return
    if d.stack_item is not None and d.stack_item in t.s.stack_items:
        resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])
        return
    t.emit(ev.WorkQueued(marker=m.number, kind="check_sba", then_priority=None,
                         rule="704.3"))


@applies(CommanderZoneChosen)
def _chosen(s: GameState, e: CommanderZoneChosen) -> None:
    it = s.stack_items[e.item]
    s.stack_items[e.item] = replace(it, chosen=(*it.chosen, f"command:{e.obj}"))


@explains(CommanderZoneChosen)
def _explain_chosen(before: GameState, e: CommanderZoneChosen, name: Namer) -> str:
    return f"its owner puts the commander {name(e.obj)} into the command zone instead"


@applies(CommanderDrawn)
def _commander_drawn(s: GameState, e: CommanderDrawn) -> None:
    c = s.commander
    assert c is not None
    s.commander = replace(c, drawn=(*c.drawn, e.obj))


@explains(CommanderDrawn)
def _explain_drawn(before: GameState, e: CommanderDrawn, name: Namer) -> str:
    return f"{e.player} drew their commander {name(e.obj)}"


@applies(CommanderLeftInZone)
def _left(s: GameState, e: CommanderLeftInZone) -> None:
    c = s.commander
    assert c is not None
    s.commander = replace(c, declined=(*c.declined, e.obj))


@explains(CommanderLeftInZone)
def _explain(before: GameState, e: CommanderLeftInZone, name: Namer) -> str:
    return f"{e.player} leaves their commander {name(e.obj)} where it is going"
