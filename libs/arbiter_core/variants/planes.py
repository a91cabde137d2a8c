"""Plane and phenomenon cards (CR 311, 312) and what their abilities do, from the command
zone (901.7): static abilities apply there (through `layers.characteristics`'s
`OUTSIDE_STATICS`/`OUTSIDE_GRANTS`), chaos abilities trigger on a {CHAOS} roll (311.7,
`planar_die`), "when you encounter" abilities as a phenomenon is turned face up by
planeswalking (312.5), and a face-up phenomenon whose ability has left the stack makes
its planar controller planeswalk (704.6f, a state-based action). 901.13: outside Grand
Melee, their abilities ignore range of influence (these reach every creature).

Each card is declarative data: its abilities are `CasualAbility` records with the Oracle
paragraph as `text`; what each does is registered here by the ability's `name`
(`CASUAL_EFFECTS`, shared with the scheme and vanguard modules).

Here: Krosa, Academy at Tolaria West, Chaotic Aether, and Sokenzan (its chaos
ability's additional combat and main phases by a note of the pairs to come,
`base.CasualNoted`, and a skip of the end step, 500.8); more planes are in
`planes_oracle`, `planes_more` and `glimmervoid`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from arbiter_core.cards import get_card
from arbiter_core.cards.build import card
from arbiter_core.cards.model import CardDefinition, CasualAbility, ModifyPowerToughness
from arbiter_core.cards.model.base import DataModel
from arbiter_core.cards.pool import add_card
from arbiter_core.cards.render import ability_wording
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.registry import Registry
from arbiter_core.kernel.state import GameState, Marker, Obj, StackItem, Step
from arbiter_core.kernel.txn import Txn, before_emit, watch
from arbiter_core.layers.characteristics import OUTSIDE_GRANTS, OUTSIDE_STATICS, StaticEffect
from arbiter_core.sba.check import GAME_SBAS
from arbiter_core.stack.items import Meaning, ability_effects, effect
from arbiter_core.turns.draw import draw
from arbiter_core.turns.steps import step_action, step_skip
from arbiter_core.variants.base import CasualNoted, note
from arbiter_core.variants.planechase import (
    PlaneTurnedFaceUp,
    face_up,
    is_phenomenon,
    is_planechase,
    planeswalk,
)

#: what each casual ability does as it resolves: (txn, marker, item) -> True when it
#: paused the resolution for a decision (608.2d), else None
CASUAL_EFFECTS: Registry[str, Callable[[Txn, Marker, StackItem], bool | None]] = Registry(
    "casual card ability")


class CasualEffect(DataModel):
    """The effect of a `CasualAbility`: the registered behaviour named `name`."""

    name: str


def casual(name: str, text: str, when: str = "static", **more: Any) -> CasualAbility:
    return CasualAbility(name=name, text=text, when=when, **more)


def does(name: str) -> Callable[[Callable[[Txn, Marker, StackItem], Any]],
                                Callable[[Txn, Marker, StackItem], Any]]:
    def add(fn: Callable[[Txn, Marker, StackItem], Any]
            ) -> Callable[[Txn, Marker, StackItem], Any]:
        CASUAL_EFFECTS.add(name, fn)
        return fn
    return add


@ability_effects(CasualAbility)
def _meaning(ab: CasualAbility) -> Meaning:
    """The card model's effects where they say it, else the behaviour named."""
    if ab.effects:
        return ab.targets, ab.effects
    return cast(Meaning, (ab.targets, (CasualEffect(name=ab.name),)))


@effect(CasualEffect)
def _run(t: Txn, m: Marker, item: StackItem, eff: CasualEffect, legal: object,
         index: int) -> bool:
    return bool(CASUAL_EFFECTS[eff.name](t, m, item))


@ability_wording(CasualAbility)
def _wording(ability: CasualAbility, definition: CardDefinition) -> str:
    return ability.text


# ------------------------------------------------------------------ the cards

KROSA = add_card(card(
    "Krosa",
    casual("krosa_anthem", "All creatures get +2/+2."),
    casual("krosa_chaos", "Whenever you roll {CHAOS}, you may add {W}{U}{B}{R}{G}.", "chaos")))
SOKENZAN = add_card(card(
    "Sokenzan",
    casual("sokenzan_anthem", "All creatures get +1/+1 and have haste."),
    casual("sokenzan_chaos", "Whenever you roll {CHAOS}, untap all creatures that attacked "
                             "this turn. After this main phase, there is an additional "
                             "combat phase followed by an additional main phase.", "chaos")))
ACADEMY = add_card(card(
    "Academy at Tolaria West",
    casual("academy_end_step", "At the beginning of your end step, if you have no cards in "
                               "hand, draw seven cards.", "your_end_step"),
    casual("academy_chaos", "Whenever you roll {CHAOS}, discard your hand.", "chaos")))
CHAOTIC_AETHER = add_card(card(
    "Chaotic Aether",
    casual("chaotic_aether", "When you encounter Chaotic Aether, each blank roll of the "
                             "planar die is a {CHAOS} roll until a player planeswalks away "
                             "from a plane. (Then planeswalk away from this phenomenon.)",
           "encounter")))

#: static effects of planes: ability name -> (P/T effects, keywords every creature has)
ANTHEMS: dict[str, tuple[tuple[StaticEffect, ...], tuple[str, ...]]] = {
    "krosa_anthem": ((ModifyPowerToughness(subject="all_creatures", power=2, toughness=2),),
                     ()),
    "sokenzan_anthem": ((ModifyPowerToughness(subject="all_creatures", power=1,
                                              toughness=1),), ("haste",)),
}


def _anthems(s: GameState) -> list[tuple[Obj, str]]:
    return [(o, ab.name) for o in face_up(s) for ab in get_card(o.name).abilities
            if isinstance(ab, CasualAbility) and ab.name in ANTHEMS]


def _plane_statics(s: GameState) -> list[tuple[Obj, StaticEffect]]:
    """CR 901.7, 901.13: a face-up plane's static P/T effects, on every creature."""
    if not is_planechase(s):
        return []
    return [(o, eff) for o, name in _anthems(s) for eff in ANTHEMS[name][0]]


def _plane_grants(s: GameState, o: Obj) -> list[str]:
    if not is_planechase(s):
        return []
    return [kw for _, name in _anthems(s) for kw in ANTHEMS[name][1]]


OUTSIDE_STATICS.add("statics", _plane_statics)
OUTSIDE_GRANTS.add("grants", _plane_grants)


# ------------------------------------------------------------------ triggers


@watch(PlaneTurnedFaceUp, order=50)
def _encounter(s: GameState, e: PlaneTurnedFaceUp, current: int | None, before: Obj | None
               ) -> Sequence[ev.Event]:
    """CR 312.5: "when you encounter" a phenomenon - moved off a planar deck and turned
    face up; "when you planeswalk to" a plane (901.11). Not as the starting plane is set
    (901.5: nothing triggers)."""
    o = s.objects[e.new_id]
    if not e.planeswalked:
        return []
    when, rule = ("encounter", "312.5") if is_phenomenon(o) else ("planeswalk_to", "901.11")
    m = s.marker_of(e.controller) or next(iter(s.markers.values()))
    return [ev.AbilityTriggered(source=o.id, source_name=o.name, controller=e.controller,
                                ability=i, marker=m.number, rule=rule)
            for i, ab in enumerate(get_card(o.name).abilities)
            if isinstance(ab, CasualAbility) and ab.when == when]


def step_triggers(t: Txn, m: Marker, when: str) -> None:
    """"At the beginning of your upkeep / draw step / end step" abilities of the face-up
    planes the active player controls (603.2, 901.7), with an intervening "if" (603.4)."""
    s = t.s
    if not is_planechase(s):
        return
    for o in face_up(s):
        if o.controller != m.holder:
            continue
        for i, ab in enumerate(get_card(o.name).abilities):
            if isinstance(ab, CasualAbility) and ab.when == when \
                    and _condition(s, ab.name, o.controller):
                t.emit(ev.AbilityTriggered(source=o.id, source_name=o.name,
                                           controller=o.controller, ability=i,
                                           marker=m.number, rule="603.2"))


@step_action(Step.UPKEEP, order=-5)
def _your_upkeep(t: Txn, m: Marker) -> bool:
    step_triggers(t, m, "your_upkeep")
    return False


@step_action(Step.DRAW, order=5)
def _your_draw_step(t: Txn, m: Marker) -> bool:
    step_triggers(t, m, "your_draw_step")  # after the turn's draw (504.1)
    return False


@step_action(Step.END, order=-5)
def _your_end_step(t: Txn, m: Marker) -> bool:
    step_triggers(t, m, "your_end_step")
    return False


def _condition(s: GameState, name: str, player: str) -> bool:
    if name == "academy_end_step":  # "if you have no cards in hand" (603.4)
        return not s.zone(player, "hand")
    return True


def phenomenon_sba(t: Txn, m: Marker) -> bool:
    """CR 704.6f: a face-up phenomenon that isn't the source of a triggered ability that
    has triggered but not yet left the stack: its planar controller planeswalks."""
    s = t.s
    if not is_planechase(s):
        return False
    pending = {tr.source for tr in s.triggers} | {
        it.source for it in s.stack_items.values() if it.kind == "triggered"}
    for o in face_up(s):
        if is_phenomenon(o) and o.id not in pending:
            planeswalk(t, o.controller, away=[o.id])
            return True
    return False


GAME_SBAS.add("all", phenomenon_sba)


# ------------------------------------------------------------------ what they do


@does("krosa_chaos")
def _krosa(t: Txn, m: Marker, item: StackItem) -> None:
    """"You may add {W}{U}{B}{R}{G}" (mana that would empty at the step's end: always
    taken here, as a player loses nothing by it)."""
    t.emit(ev.ManaAdded(player=item.controller, mana="WUBRG", source=item.source,
                        rule="106.3"))


@does("sokenzan_chaos")
def _sokenzan(t: Txn, m: Marker, item: StackItem) -> None:
    """Untap all creatures that attacked this turn (508.4); after this main phase an
    additional combat phase and an additional main phase (500.8), each resolution its
    own pair: noted "extra_combat" for the turn's player as the number of pairs still
    to come."""
    attacked = [oid for oid in m.attacked if oid in t.s.objects
                and t.s.objects[oid].zone == "battlefield" and t.s.objects[oid].tapped]
    if attacked:
        t.emit(ev.PermanentsUntapped(objs=attacked, rule="701.26b"))
    if m.step in (Step.PRECOMBAT_MAIN, Step.POSTCOMBAT_MAIN):
        pairs = note(t.s, "extra_combat", m.holder) + 1
        t.emit(CasualNoted(note="extra_combat", player=m.holder, value=pairs, rule="500.8"))


@before_emit(ev.StepBegan)
def _extra_phases(t: Txn, e: ev.StepBegan) -> None:
    """A combat phase that begins after a postcombat main phase is one of Sokenzan's
    additional ones: one pair fewer to come (500.8); none is left at the end step."""
    m = t.s.markers[e.marker]
    pairs = note(t.s, "extra_combat", m.holder)
    if not pairs:
        return
    step = Step(e.step)
    if step == Step.END:
        t.emit(CasualNoted(note="extra_combat", player=m.holder, value=0, rule="500.8"))
    elif step == Step.BEGINNING_OF_COMBAT and m.step == Step.POSTCOMBAT_MAIN:
        t.emit(CasualNoted(note="extra_combat", player=m.holder, value=pairs - 1,
                           rule="500.8"))


@step_skip(Step.END)
def _additional_combat(s: GameState, m: Marker) -> tuple[Step, str] | None:
    """CR 500.8: Sokenzan's additional combat and main phases come before the end step
    while pairs are still to come. A pair made in the precombat main phase comes after
    the turn's own combat and postcombat main phase here rather than before them: the
    phases are the same (a combat phase, then a postcombat main phase, 505.1a), so the
    turn's sequence of phases is the same."""
    if note(s, "extra_combat", m.holder):
        return Step.BEGINNING_OF_COMBAT, "500.8"
    return None


@does("academy_end_step")
def _academy_draw(t: Txn, m: Marker, item: StackItem) -> None:
    if not t.s.zone(item.controller, "hand"):  # 603.4, again on resolution
        for _ in range(7):
            draw(t, item.controller, "121.1")


@does("academy_chaos")
def _academy_discard(t: Txn, m: Marker, item: StackItem) -> None:
    """Discard your hand (701.9a)."""
    for oid in list(t.s.zone(item.controller, "hand")):
        t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="graveyard",
                              to_player=item.controller, rule="701.9a"))


@does("chaotic_aether")
def _chaotic_aether(t: Txn, m: Marker, item: StackItem) -> None:
    """Blank rolls are {CHAOS} rolls until a player planeswalks away from a plane
    (`planar_die.roll`; the effect ends in `planechase.planeswalk`, 901.11)."""
    t.emit(ev.EffectCreated(kind="until_planeswalk", until="permanent", marker=m.number,
                            controller=item.controller, rule="611.2a"))
