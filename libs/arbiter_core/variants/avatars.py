"""The avatars of the pool beyond Gerrard, Squee and Ertai (`vanguard`): Karn, Sisay,
Bosh, Iron Golem Avatar and Platinum Angel Avatar - each ability working from the
command zone (902.7), controlled by the avatar's owner (902.6).

- Karn: a static ability, layers 4 and 7b (613.1d, 613.4b): each noncreature artifact
  its controller controls is an artifact creature with power and toughness equal to its
  mana value. An artifact enters as a creature (614.12: `STATIC_ANIMATION`, applied
  as the permanent is put onto the battlefield), so "whenever a creature enters" sees
  it; kept current afterwards by a watcher of the events that change what is on the
  battlefield or who controls it (`PermanentBecameCreature` for an artifact gained or a
  Karn arriving; `KarnReleased` when it stops applying).
- Sisay: a triggered mana ability (605.1b), resolved at once (605.4a) - a watcher of
  `ManaAdded` from a land's mana ability: one more mana of a type the land produced.
  When it produced several types (Skycloud Expanse's {W}{U}), its controller chooses
  one (`choose_mana_type`, as `choose_mana_color` in `stack.mana`, 605.3b); the mana is
  added when they answer. (No land of the pool makes several types in a payment plan:
  the planner uses only costless mana abilities of one kind.)
- Bosh, Iron Golem Avatar: an activated ability from the command zone
  (`casting.COMMAND_ABILITIES`): its X is the sacrificed artifact's mana value
  (`ActivateAbility.sacrifice`, 118.3, 701.21a); it deals X damage to any target.
- Platinum Angel Avatar: "can't lose" and "can't win" (104.3e, 104.2) while its
  controller controls an artifact, a creature, an enchantment and a land
  (`characteristics.OUTSIDE_HOLDERS`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from arbiter_core.cards import get_card
from arbiter_core.cards.build import card
from arbiter_core.cards.model import (
    ActivatedAbility,
    AddMana,
    CantLose,
    CasualAbility,
    Cost,
    DealDamage,
    OpponentsCantWin,
    TargetSpec,
)
from arbiter_core.cards.pool import add_card
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ActivateAbility, ChooseOption, PlayerCommand
from arbiter_core.kernel.decisions import decision
from arbiter_core.kernel.edits import set_obj
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.events.base import EventBase
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import Decision, GameState, Marker, Obj
from arbiter_core.kernel.txn import Txn, watch
from arbiter_core.layers.characteristics import (
    OUTSIDE_HOLDERS,
    STATIC_ANIMATION,
    Became,
    definition,
    is_type,
)
from arbiter_core.stack.casting import COMMAND_ABILITIES
from arbiter_core.stack.mana import ManaCost, parse_cost, pay
from arbiter_core.stack.priority import queue_priority, require_priority
from arbiter_core.stack.targets import check_choice
from arbiter_core.variants.base import variant_of
from arbiter_core.variants.planes import casual
from arbiter_core.variants.vanguard import _has, avatars

KARN = add_card(card("Karn", casual(
    "karn_animate", "Each noncreature artifact you control is an artifact creature with "
                    "power and toughness each equal to its mana value.")))
SISAY = add_card(card("Sisay", casual(
    "sisay_mana", "Whenever you tap a land for mana, add one mana of any type that land "
                  "produced.")))
# a land that produces two types of mana, for Sisay's choice (tools/extra_cards.txt)
add_card(card("Skycloud Expanse", ActivatedAbility(cost=Cost(mana="{1}", tap=True),
                                                   effects=(AddMana(mana="WU"),))))
BOSH = add_card(card("Bosh, Iron Golem Avatar", casual(
    "bosh_fling", "{X}, Sacrifice an artifact with mana value X: Bosh, Iron Golem Avatar "
                  "deals X damage to any target.", "activated",
    targets=(TargetSpec(kind="any"),), effects=(DealDamage(amount="X", to=0),))))
PLATINUM_ANGEL = add_card(card("Platinum Angel Avatar", casual(
    "platinum_angel_avatar", "If you control an artifact, a creature, an enchantment, and "
                             "a land, you can't lose the game and your opponents can't win "
                             "the game.", effects=(CantLose(), OpponentsCantWin()))))

_PLATINUM_TYPES = ("Artifact", "Creature", "Enchantment", "Land")


class KarnReleased(EventBase):
    """Karn's effect no longer applies to the artifact: it is a noncreature artifact
    again (613.1d)."""

    type: Literal["KarnReleased"] = "KarnReleased"
    obj: int


class AbilityXChosen(EventBase):
    """The value of X of an activated ability on the stack (107.3, 601.2b)."""

    type: Literal["AbilityXChosen"] = "AbilityXChosen"
    item: int
    x: int


def mana_value(o: Obj) -> int:
    """CR 202.3: the mana value of a permanent (X is 0, 202.3e); a token's is 0 unless
    it copies a card (111.4)."""
    if o.token is not None or o.face_down:
        return 0
    return parse_cost(get_card(o.name).mana_cost).total


# ------------------------------------------------------------------ Karn


def _karn_applies(s: GameState, o: Obj, karns: set[str]) -> bool:
    if o.face_down or o.controller not in karns:
        return False
    printed = definition(replace(o, became=None))
    return "Artifact" in printed.types and "Creature" not in printed.types


def _karns(s: GameState, o: Obj) -> bool:
    """The artifact is a creature by Karn's effect (its `became` is Karn's)."""
    mv = mana_value(o)
    return o.became == (mv, mv, (), ()) and "Creature" not in definition(
        replace(o, became=None)).types


@watch(ev.ObjectMoved, ev.TokenCreated, ev.TokenCopyCreated, ev.CardsPut, ev.ControlChanged,
       ev.EffectEnded, ev.MarkerPlaced, order=15)
def _karn(s: GameState, e: ev.EventBase, marker: int | None, before: Obj | None
          ) -> list[ev.Event]:
    """Karn: each noncreature artifact of its controller becomes a creature, and stops
    being one when it is no longer theirs (613.1d, 613.4b)."""
    if not getattr(variant_of(s), "vanguard", False):
        return []
    karns = set(_has(s, "karn_animate"))
    out: list[ev.Event] = []
    for oid in s.battlefield:
        o = s.objects[oid]
        if o.became is None and _karn_applies(s, o, karns):
            mv = mana_value(o)
            out.append(ev.PermanentBecameCreature(obj=o.id, power=mv, toughness=mv,
                                                  rule="613.1d"))
        elif o.became is not None and _karns(s, o) and not _karn_applies(s, o, karns):
            out.append(KarnReleased(obj=o.id, rule="613.1d"))
    return out


def _karn_entering(s: GameState, o: Obj) -> Became | None:
    """Karn's effect on a noncreature artifact entering the battlefield: it enters as a
    creature (614.12, `characteristics.entering_as`)."""
    if not getattr(variant_of(s), "vanguard", False) or o.zone != "battlefield":
        return None
    if not _karn_applies(s, o, set(_has(s, "karn_animate"))):
        return None
    mv = mana_value(o)
    return mv, mv, (), ()


STATIC_ANIMATION.add("animate", _karn_entering)


# ------------------------------------------------------------------ Sisay


@watch(ev.ManaAdded, order=10)
def _sisay(s: GameState, e: ev.ManaAdded, marker: int | None, before: Obj | None
           ) -> list[ev.Event]:
    """Sisay: a land tapped for mana by its controller adds one more mana of a type it
    produced (605.1b, resolved at once: 605.4a)."""
    land = s.objects.get(e.source) if e.source is not None else None
    if land is None or e.rule != "605.3b" or not e.mana or not is_type(land, "Land"):
        return []
    if land.controller != e.player or e.player not in _has(s, "sisay_mana"):
        return []
    avatar = next(o for o in avatars(s) if o.controller == e.player
                  and o.name == SISAY.name)
    types = list(dict.fromkeys(e.mana))
    if len(types) > 1 and marker is not None:  # "any type that land produced"
        return [ev.DecisionRequested(marker=marker, kind="choose_mana_type", player=e.player,
                                     options=[avatar.id], count=1, choices=types,
                                     rule="605.3b")]
    return [ev.ManaAdded(player=e.player, mana=types[0], source=avatar.id, rule="605.4a")]


def _types(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    return [ChooseOption(player=d.player, option=c, marker=m.number) for c in d.choices]


@decision("choose_mana_type", ChooseOption, _types)
def _type_chosen(t: Txn, m: Marker, d: Decision, cmd: ChooseOption) -> None:
    """Sisay's mana: the type its controller chose of those the land produced (605.4a);
    then they have priority again."""
    if cmd.option not in d.choices:
        raise RuleViolation("605.3b", f"{cmd.option!r} is not one of {list(d.choices)}")
    t.emit(ev.ManaAdded(player=d.player, mana=cmd.option, source=d.options[0],
                        rule="605.4a"))
    queue_priority(t, m.number, d.player)


# ------------------------------------------------------------------ Bosh


def _bosh(t: Txn, cmd: ActivateAbility) -> None:
    """CR 602.2: announce, choose X by the artifact to sacrifice (107.3), the target;
    pay {X} and sacrifice the artifact (601.2g-h, 701.21a); onto the stack."""
    s = t.s
    m = require_priority(s, cmd.player, cmd.marker)
    o = s.objects[cmd.source]
    ab = get_card(o.name).abilities[cmd.ability]
    if o.controller != cmd.player or o not in avatars(s) or not (
            isinstance(ab, CasualAbility) and ab.when == "activated"):
        raise RuleViolation("602.2", f"{cmd.player} can't activate {o.name}'s abilities")
    chosen = list(cmd.sacrifice or ())
    artifact = s.objects.get(chosen[0]) if len(chosen) == 1 else None
    if artifact is None or artifact.zone != "battlefield" or (
            artifact.controller != cmd.player) or not is_type(artifact, "Artifact"):
        raise RuleViolation("118.3", "sacrifice one artifact you control")
    x = mana_value(artifact)
    targets = check_choice(s, ab.targets, cmd.targets, cmd.player, o.id)
    item = t.new_id()
    t.emit(ev.AbilityActivated(player=cmd.player, source=o.id, ability=cmd.ability,
                               item=item, marker=m.number,
                               targets=[list(g) for g in targets], rule="602.2"))
    t.emit(AbilityXChosen(item=item, x=x, rule="107.3"))
    pay(t, cmd.player, ManaCost(generic=x), cmd.pay)
    t.emit(ev.ObjectMoved(obj=artifact.id, new_id=t.new_id(), to_zone="graveyard",
                          to_player=artifact.owner, rule="701.21a"))
    queue_priority(t, m.number, cmd.player)


COMMAND_ABILITIES.add(CasualAbility, _bosh)


# ------------------------------------------------------------------ Platinum Angel


def _platinum(s: GameState, kind: type) -> frozenset[str]:
    """Platinum Angel Avatar's controller, while they control an artifact, a creature,
    an enchantment and a land (an "if" of a static ability, checked as it applies)."""
    if kind not in (CantLose, OpponentsCantWin):
        return frozenset()
    out = set()
    for player in _has(s, "platinum_angel_avatar"):
        mine = [s.objects[i] for i in s.battlefield if s.objects[i].controller == player]
        if all(any(is_type(o, k) for o in mine) for k in _PLATINUM_TYPES):
            out.add(player)
    return frozenset(out)


OUTSIDE_HOLDERS.add("holders", _platinum)


@applies(KarnReleased)
def _released(s: GameState, e: KarnReleased) -> None:
    set_obj(s, e.obj, became=None)


@applies(AbilityXChosen)
def _x_chosen(s: GameState, e: AbilityXChosen) -> None:
    s.stack_items[e.item] = replace(s.stack_items[e.item], x=e.x)


@explains(KarnReleased)
def _explain_released(before: GameState, e: KarnReleased, name: Namer) -> str:
    return f"{name(e.obj)} is no longer a creature"


@explains(AbilityXChosen)
def _explain_x(before: GameState, e: AbilityXChosen, name: Namer) -> str:
    return f"X is {e.x}"
