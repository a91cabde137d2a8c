"""Entering the battlefield as a copy (CR 707.5): "You may have ~ enter the battlefield
as a copy of any creature on the battlefield" (Clone; "of any creature card in a
graveyard": Body Double) is a replacement effect (614.1c):
the choice is made as the permanent spell resolves, before it enters (a `choose_copy`
decision: one of the creatures, or none), and it enters already a copy.

The copy has the copiable values of the original (707.2): its name, mana cost, types,
power and toughness and abilities as printed, or a token's values - not effects on it
(no counters, "becomes" effects or control, 707.2). For an original that is itself a
copy those values are what it copied (707.3). This is layer 1 (613.2a): the object's
`name` (and `token`) become the original's, `printed` keeps its own, restored when it
changes zones (400.7, `state_edits.move`). With no creature on the battlefield there is
nothing to choose and Clone enters as itself, a 0/0 (then 704.5f).
"""

from __future__ import annotations

from dataclasses import replace

from arbiter_core.cards import get_card
from arbiter_core.cards.build import card
from arbiter_core.cards.model import CardDefinition, EnterAsCopy, StaticAbility, TokenSpec
from arbiter_core.cards.pool import add_card
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseObjects, PlayerCommand
from arbiter_core.kernel.decisions import decision
from arbiter_core.kernel.edits import create_token, set_obj
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains, item_label
from arbiter_core.kernel.state import Decision, GameState, Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import definition, entering_as, is_creature
from arbiter_core.layers.face_down import COPIED_FACE_DOWN
from arbiter_core.stack.items import static_effect
from arbiter_core.stack.resolve import BEFORE_ENTERING, ENTERED_AS, finish, resume


def _copy_effect(d: CardDefinition) -> EnterAsCopy | None:
    return next((e for ab in d.abilities if isinstance(ab, StaticAbility)
                 for e in ab.effects if isinstance(e, EnterAsCopy)), None)


def enters_as_copy(d: CardDefinition) -> bool:
    return _copy_effect(d) is not None


def _originals(s: GameState, d: CardDefinition) -> list[int]:
    """What it may copy: each creature on the battlefield (Clone), or each creature card
    in a graveyard (Body Double; the copy takes the card's values, 707.2)."""
    eff = _copy_effect(d)
    if eff is None:
        return []
    if eff.of == "creature_card_in_a_graveyard":
        return [oid for p in s.players for oid in s.zone(p, "graveyard")
                if "Creature" in definition(s.objects[oid]).types]
    return [oid for oid in s.battlefield if is_creature(s.objects[oid])]


def chosen(item: StackItem) -> tuple[bool, int | None]:
    """Whether the copy choice was made for `item`, and the creature chosen."""
    for c in item.chosen:
        if c.startswith("copy:"):
            return True, int(c[5:]) if c[5:] else None
    return False, None


def ask(t: Txn, m: Marker, item: StackItem) -> bool:
    """As the spell resolves, before it enters (614.1c): ask its controller which
    creature it enters as a copy of (707.5). True while asked."""
    s = t.s
    if item.kind != "spell" or item.obj is None or item.obj not in s.objects:
        return False
    if chosen(item)[0]:
        return False
    creatures = _originals(s, definition(s.objects[item.obj]))
    if not creatures:
        return False
    t.emit(ev.DecisionRequested(marker=m.number, kind="choose_copy", player=item.controller,
                                options=creatures, count=1, min_count=0,
                                stack_item=item.id, rule="707.5"))
    return True


def ask_as_returned(t: Txn, m: Marker, item: StackItem, card: int, index: int) -> bool:
    """A card with this replacement effect that a resolving ability puts onto the
    battlefield (persist's return, 702.79a) may enter as a copy too (707.5, 614.1c): its
    controller is asked before it enters, and the ability's resolution pauses at effect
    `index`. True while asked; once answered, `become` makes it the copy."""
    s = t.s
    if chosen(item)[0]:
        return False
    creatures = _originals(s, definition(s.objects[card]))
    if not creatures:
        return False
    t.emit(ev.ResolutionPaused(item=item.id, resume_at=index, rule="707.5"))
    t.emit(ev.DecisionRequested(marker=m.number, kind="choose_copy", player=item.controller,
                                options=creatures, count=1, min_count=0,
                                stack_item=item.id, rule="707.5"))
    return True


def _answers(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    """Each creature, or none (707.5)."""
    return [ChooseObjects(player=d.player, choices=c, marker=m.number)
            for c in [*([o] for o in d.options), []]]


@decision("choose_copy", ChooseObjects, _answers)
def _answer(t: Txn, m: Marker, d: Decision, cmd: ChooseObjects) -> None:
    """The creature to copy (one of those offered) or none; then the spell finishes
    resolving and enters (608.3a), or the ability that returns the card goes on
    resolving (702.79a)."""
    if cmd.players:
        raise RuleViolation("707.5", "choose a creature, not a player")
    picks = list(cmd.choices)
    if len(picks) > 1 or any(p not in d.options for p in picks):
        raise RuleViolation("707.5", "choose one of the creatures offered, or none")
    assert d.stack_item is not None
    t.emit(ev.CopyChosen(item=d.stack_item, player=d.player, of=picks[0] if picks else None,
                         rule="707.5"))
    item = t.s.stack_items[d.stack_item]
    if item.kind == "spell":
        finish(t, t.s.markers[m.number], item, [])
    else:
        resume(t, t.s.markers[m.number], item)


def create_token_copy(t: Txn, player: str, of: int) -> int:
    """`player` creates a token that's a copy of the permanent `of` (111.10, 707.2): a
    copy of a token has its values (707.2); a copy of a card is created already a copy
    of the card (`TokenCopyCreated`: it enters with the card's copiable values, layer 1,
    613.2a, so its "as ~ enters" and enters abilities apply, 603.6a), and it is a token
    throughout (111.1; `Obj.is_token`). Returns the token's id."""
    o = t.s.objects[of]
    new = t.new_id()
    if o.token is not None:
        t.emit(ev.TokenCreated(obj=new, owner=player, token=o.token, rule="707.2"))
        return new
    d = get_card(o.name)
    spec = TokenSpec(name=d.name, colors=d.colors, types=d.types, subtypes=d.subtypes,
                     power=d.power or 0, toughness=d.toughness or 0)
    t.emit(ev.TokenCopyCreated(obj=new, owner=player, token=spec, of=of, rule="111.10"))
    return new


@applies(ev.TokenCopyCreated)
def _token_copy_created(s: GameState, e: ev.TokenCopyCreated) -> None:
    create_token(s, e.obj, e.owner, e.token)
    _became_copy(s, ev.BecameCopy(obj=e.obj, of=e.of, rule="707.2"))
    entering_as(s, e.obj)  # 614.12


@explains(ev.TokenCopyCreated)
def _explain_token_copy(before: GameState, e: ev.TokenCopyCreated, name: Namer) -> str:
    return f"{e.owner} creates a token that's a copy of {name(e.of)}"


def become(t: Txn, m: Marker, item: StackItem, new_id: int) -> bool:
    """The permanent entered as a copy of the chosen creature, if it is still on the
    battlefield (707.5; layer 1, 613.2a)."""
    _, of = chosen(item)
    if of is not None and of in t.s.objects and t.s.objects[of].zone in ("battlefield",
                                                                        "graveyard"):
        t.emit(ev.BecameCopy(obj=new_id, of=of, rule="707.5"))
    return False


BEFORE_ENTERING.add("all", ask)
ENTERED_AS.add("all", become)
static_effect(EnterAsCopy)  # a replacement effect (614.1c): `ask` and `become`


@applies(ev.CopyChosen)
def _copy_chosen(s: GameState, e: ev.CopyChosen) -> None:
    it = s.stack_items[e.item]
    s.stack_items[e.item] = replace(
        it, chosen=(*it.chosen, f"copy:{'' if e.of is None else e.of}"))


@applies(ev.BecameCopy)
def _became_copy(s: GameState, e: ev.BecameCopy) -> None:
    o, of = s.objects[e.obj], s.objects[e.of]
    if of.face_down:  # 708.10, 707.2: the face-down values, no name
        set_obj(s, e.obj, name="", token=COPIED_FACE_DOWN, printed=o.printed or o.name,
                own_token=o.own_token if o.printed is not None else o.token)
        return
    set_obj(s, e.obj, name=of.name, token=of.token, printed=o.printed or o.name,
            own_token=o.own_token if o.printed is not None else o.token)


@explains(ev.CopyChosen)
def _explain_copy_chosen(before: GameState, e: ev.CopyChosen, name: Namer) -> str:
    what = name(e.of) if e.of is not None else "nothing"
    return f"{e.player} chooses to copy {what} ({item_label(before, e.item)})"


@explains(ev.BecameCopy)
def _explain_became_copy(before: GameState, e: ev.BecameCopy, name: Namer) -> str:
    return f"{name(e.obj)} enters as a copy of {name(e.of)}"


# 903.3: a copy of a commander card in a graveyard is not a commander (the designation
# stays with the card, `CommanderState.commanders`)
BODY_DOUBLE = add_card(card("Body Double", StaticAbility(
    effects=(EnterAsCopy(of="creature_card_in_a_graveyard"),))))
