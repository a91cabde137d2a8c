"""Seven more planes from the full Oracle file (CR 311; tools/extra_cards.txt), so that
a two-player single planar deck (901.15a: twenty different names, at most four
phenomena) can be built from implemented cards: Astral Arena, The Fourth Sphere, Naar Isle,
Goldmeadow, Takenuma, Lair of the Ashen Idol and Sanctum of Serra.

Their abilities are `CasualAbility` records (planes.py) working from the command zone
(901.7): Astral Arena's statics through `combat.requirements.CAPS`, "at the beginning of your
upkeep" through `planes.step_triggers`, "whenever a land enters / a creature leaves the
battlefield" and "when you planeswalk away from" through watchers here (603.2, 603.6,
603.10a: the leaves-the-zone ones look back). A choice of the creature to sacrifice
(701.21a) is the "sacrifice" decision of `schemes_choices`.
"""

from __future__ import annotations

from collections.abc import Sequence

from arbiter_core.cards import get_card
from arbiter_core.cards.build import card
from arbiter_core.cards.model import (
    CasualAbility,
    CreateTokenForThatController,
    CreateTokens,
    DealDamage,
    DrawCards,
    ReturnToHand,
    TargetSpec,
    TokenSpec,
)
from arbiter_core.cards.pool import add_card
from arbiter_core.combat.requirements import CAPS
from arbiter_core.effects import life
from arbiter_core.effects.damage import deal_damage, deal_to_each
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.refs import PlayerRef, Ref, object_ref
from arbiter_core.kernel.state import GameState, Marker, Obj, StackItem
from arbiter_core.kernel.txn import Txn, watch
from arbiter_core.layers.characteristics import colors, is_creature, is_type
from arbiter_core.variants.planechase import (
    PlaneTurnedFaceDown,
    face_up,
    is_planechase,
    planeswalk,
)
from arbiter_core.variants.planes import casual, does
from arbiter_core.variants.schemes_choices import PlayerActed, _ask, _sacrifice

ZOMBIE = TokenSpec(name="Zombie", colors=("B",), types=("Creature",), subtypes=("Zombie",),
                   power=2, toughness=2)
GOAT = TokenSpec(name="Goat", colors=("W",), types=("Creature",), subtypes=("Goat",),
                 power=0, toughness=1)

ASTRAL_ARENA = add_card(card(
    "Astral Arena",
    casual("astral_arena_attack", "No more than one creature can attack each combat."),
    casual("astral_arena_block", "No more than one creature can block each combat."),
    casual("astral_arena_chaos", "Whenever you roll {CHAOS}, Astral Arena deals 2 damage to "
                                 "each creature.", "chaos")))
FOURTH_SPHERE = add_card(card(
    "The Fourth Sphere",
    casual("fourth_sphere_upkeep", "At the beginning of your upkeep, sacrifice a nonblack "
                                   "creature.", "your_upkeep"),
    casual("fourth_sphere_chaos", "Whenever you roll {CHAOS}, create a 2/2 black Zombie "
                                  "creature token.", "chaos",
           effects=(CreateTokens(count=1, token=ZOMBIE),))))
NAAR_ISLE = add_card(card(
    "Naar Isle",
    casual("naar_isle_upkeep", "At the beginning of your upkeep, put a flame counter on "
                               "Naar Isle, then Naar Isle deals damage to you equal to the "
                               "number of flame counters on it.", "your_upkeep"),
    casual("naar_isle_chaos", "Whenever you roll {CHAOS}, Naar Isle deals 3 damage to "
                              "target player or planeswalker.", "chaos",
           targets=(TargetSpec(kind="player_or_planeswalker"),),
           effects=(DealDamage(amount=3, to=0),))))
GOLDMEADOW = add_card(card(
    "Goldmeadow",
    casual("goldmeadow_land", "Whenever a land enters the battlefield, that land's "
                              "controller creates three 0/1 white Goat creature tokens.",
           "land_enters", effects=(CreateTokenForThatController(token=GOAT),) * 3),
    casual("goldmeadow_chaos", "Whenever you roll {CHAOS}, create a 0/1 white Goat "
                               "creature token.", "chaos",
           effects=(CreateTokens(count=1, token=GOAT),))))
TAKENUMA = add_card(card(
    "Takenuma",
    casual("takenuma_leaves", "Whenever a creature leaves the battlefield, its controller "
                              "draws a card.", "creature_leaves",
           effects=(DrawCards(who="that_player"),)),
    casual("takenuma_chaos", "Whenever you roll {CHAOS}, return target creature you "
                             "control to its owner's hand.", "chaos",
           targets=(TargetSpec(kind="creature_you_control"),),
           effects=(ReturnToHand(what=0),))))
LAIR = add_card(card(
    "Lair of the Ashen Idol",
    casual("lair_upkeep", "At the beginning of your upkeep, sacrifice a creature. If you "
                          "can't, planeswalk.", "your_upkeep"),
    casual("lair_chaos", "Whenever you roll {CHAOS}, any number of target players each "
                         "create a 2/2 black Zombie creature token.", "chaos",
           targets=(TargetSpec(kind="player", min_count=0, max_count=None),))))
SANCTUM = add_card(card(
    "Sanctum of Serra",
    casual("sanctum_away", "When you planeswalk away from Sanctum of Serra, destroy all "
                           "nonland permanents.", "planeswalk_away"),
    casual("sanctum_chaos", "Whenever you roll {CHAOS}, you may have your life total "
                            "become 20.", "chaos", optional=True)))



def _astral_arena(s: GameState, declaring: str, player: str) -> bool:
    """Astral Arena: one attacker / one blocker each combat (508.1c, 509.1b; 802.4b:
    per defending player; 901.13: whatever the range of influence)."""
    return is_planechase(s) and any(o.name == "Astral Arena" for o in face_up(s))


CAPS.add("all", _astral_arena)


# ------------------------------------------------------------------ triggers


def _triggers(s: GameState, when: str, current: int | None, rule: str,
              that_player: str | None = None) -> list[ev.Event]:
    """The `when` abilities of the face-up planes (901.7), controlled by their planar
    controller."""
    if not is_planechase(s):
        return []
    out: list[ev.Event] = []
    for o in face_up(s):
        m = s.marker_of(o.controller) or next(iter(s.markers.values()))
        out += [ev.AbilityTriggered(source=o.id, source_name=o.name, controller=o.controller,
                                    ability=i, marker=current or m.number,
                                    that_player=that_player, rule=rule)
                for i, ab in enumerate(get_card(o.name).abilities)
                if isinstance(ab, CasualAbility) and ab.when == when]
    return out


@watch(ev.LandPlayed, order=150)
def _land_played(s: GameState, e: ev.LandPlayed, current: int | None, before: Obj | None
                 ) -> Sequence[ev.Event]:
    """Goldmeadow: a land played enters the battlefield (305.1)."""
    return _triggers(s, "land_enters", current, "603.6a", e.player)


@watch(ev.TokenCreated, order=150)
def _land_token(s: GameState, e: ev.TokenCreated, current: int | None, before: Obj | None
                ) -> Sequence[ev.Event]:
    """Goldmeadow: a land token is created on the battlefield (111.1, 603.6a)."""
    if "Land" not in e.token.types:
        return []
    return _triggers(s, "land_enters", current, "603.6a", e.owner)


@watch(ev.ObjectMoved, order=150, look_back=True)
def _moved(s: GameState, e: ev.ObjectMoved, current: int | None, before: Obj | None
           ) -> Sequence[ev.Event]:
    """Goldmeadow: a land put onto the battlefield (603.6a); Takenuma: a creature leaves
    it, "its controller" as it last existed there (603.6c, 603.10a)."""
    if before is None:
        return []
    if e.to_zone == "battlefield" and before.zone != "battlefield":
        now = s.objects.get(e.new_id)
        if now is not None and now.zone == "battlefield" and is_type(now, "Land"):
            return _triggers(s, "land_enters", current, "603.6a", now.controller)
        return []
    if before.zone == "battlefield" and e.to_zone != "battlefield" and is_creature(before):
        return _triggers(s, "creature_leaves", current, "603.6c", before.controller)
    return []


@watch(PlaneTurnedFaceDown, order=50, look_back=True)
def _planeswalked_away(s: GameState, e: PlaneTurnedFaceDown, current: int | None,
                       before: Obj | None) -> Sequence[ev.Event]:
    """"When you planeswalk away from" a plane (901.11, 603.10a: it looks back) - not as
    901.14b puts it on the bottom (no one planeswalks)."""
    if before is None or e.rule != "701.31a":
        return []
    m = s.marker_of(before.controller) or next(iter(s.markers.values()))
    return [ev.AbilityTriggered(source=e.new_id, source_name=before.name,
                                controller=before.controller, ability=i,
                                marker=current or m.number, rule="901.11")
            for i, ab in enumerate(get_card(before.name).abilities)
            if isinstance(ab, CasualAbility) and ab.when == "planeswalk_away"]


# ------------------------------------------------------------------ what they do


@does("astral_arena_chaos")
def _astral_arena_chaos(t: Txn, m: Marker, item: StackItem) -> bool:
    """2 damage to each creature (120.3; 901.13: every creature)."""
    to: list[Ref] = [object_ref(oid) for oid in t.s.battlefield
                     if is_creature(t.s.objects[oid])]
    return deal_to_each(t, m, item, 2, to, 0)


def _sacrifice_one(t: Txn, m: Marker, item: StackItem, options: list[int]) -> bool:
    """Sacrifice one of `options` (701.21a): a decision when there is a choice (the
    `sacrifice` decision records it, `SacrificeChosen`, and the sacrifice follows)."""
    current = t.s.stack_items[item.id]
    if item.controller in current.chosen:
        _sacrifice(t, list(current.picked))  # the chosen one, if any (no-op once gone)
        return False
    if not options:
        return False
    if len(options) > 1:
        return _ask(t, m, item, "sacrifice", item.controller, options, 1, "701.21a")
    _sacrifice(t, options)
    t.emit(PlayerActed(item=item.id, player=item.controller, rule="701.21a"))
    return False


@does("fourth_sphere_upkeep")
def _fourth_sphere(t: Txn, m: Marker, item: StackItem) -> bool:
    return _sacrifice_one(t, m, item, [o.id for o in t.s.permanents(item.controller)
                                       if is_creature(o) and "B" not in colors(o)])


@does("lair_upkeep")
def _lair(t: Txn, m: Marker, item: StackItem) -> bool:
    """"If you can't, planeswalk." (701.31a: from this plane, whether or not it is still
    face up)."""
    creatures = [o.id for o in t.s.permanents(item.controller) if is_creature(o)]
    if not creatures and item.controller not in item.chosen:
        planeswalk(t, item.controller)
        return False
    return _sacrifice_one(t, m, item, creatures)


@does("lair_chaos")
def _lair_chaos(t: Txn, m: Marker, item: StackItem) -> None:
    """Each target player still in the game creates a Zombie (111.2)."""
    for group in item.targets:
        for ref in group:
            if isinstance(ref, PlayerRef) and not t.s.players[ref.player].left:
                t.emit(ev.TokenCreated(obj=t.new_id(), owner=ref.player, token=ZOMBIE,
                                       rule="111.2"))


@does("naar_isle_upkeep")
def _naar_isle(t: Txn, m: Marker, item: StackItem) -> None:
    """A flame counter on the plane (122.6), then damage equal to its flame counters to
    its controller (120.3) - none if it has left the command zone (608.2h: no
    counters on it)."""
    plane = t.s.objects.get(item.source or -1)
    if plane is None or plane.zone != "command":
        return
    t.emit(ev.CountersPut(obj=plane.id, counters={"flame": 1}, rule="122.6"))
    deal_damage(t, item, t.s.objects[plane.id].counter("flame"), player=item.controller)


@does("sanctum_away")
def _sanctum(t: Txn, m: Marker, item: StackItem) -> None:
    """Destroy all nonland permanents (701.8a, as `effects.zones` destroys)."""
    for oid in list(t.s.battlefield):
        o = t.s.objects[oid]
        if not is_type(o, "Land"):
            t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="graveyard",
                                  to_player=o.owner, rule="701.8a"))


@does("sanctum_chaos")
def _sanctum_chaos(t: Txn, m: Marker, item: StackItem) -> None:
    """Your life total becomes 20 (119.5), asked first as "you may" (603.5)."""
    life.set_total(t, item.controller, 20)
