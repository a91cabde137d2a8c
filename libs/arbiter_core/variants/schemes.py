"""Scheme cards (CR 314) and what their abilities do, from the command zone (904.8):
"when you set this scheme in motion" abilities (701.32b) and ongoing schemes' static and
triggered abilities until they are abandoned (904.11, 701.33).

Each card is declarative data (`CasualAbility`, planes.py): the card model's effects
where they say it (tokens), a behaviour registered here otherwise. Ten schemes are
implemented, enough for a legal scheme deck of twenty (904.3: at most two of a name):
Roots of All Evil, There Is No Refuge, The Iron Guardian Stirs, I Delight in Your
Convulsions, Know Naught but Fire, Mortal Flesh Is Weak, Embrace My Diabolical Vision,
Behold the Power of Destruction, Make Yourself Useful, and the ongoing The Very Soil Shall
Shake. All in Good Time, My Undead Horde Awakens and Nothing Can Stop Me Now are in
`schemes_oracle`, Feed the Machine and I Call on the Ancient Magics in `schemes_choices`.
"""

from __future__ import annotations

from collections.abc import Sequence

from arbiter_core.cards import get_card
from arbiter_core.cards.build import card
from arbiter_core.cards.model import (
    CasualAbility,
    CreateTokens,
    ModifyPowerToughness,
    TargetSpec,
    TokenSpec,
)
from arbiter_core.cards.pool import add_card
from arbiter_core.effects import damage_replacement as replacement
from arbiter_core.effects import life
from arbiter_core.effects.damage import deal_damage, deal_to_each
from arbiter_core.effects.damage_replacement import Dealt
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.refs import ObjectRef, PlayerRef, Ref, object_ref, player_ref
from arbiter_core.kernel.state import GameState, Marker, Obj, StackItem
from arbiter_core.kernel.txn import Txn, watch
from arbiter_core.layers.characteristics import (
    OUTSIDE_GRANTS,
    OUTSIDE_STATICS,
    StaticEffect,
    is_creature,
    is_type,
    power_toughness,
)
from arbiter_core.multiplayer.seating import opponents
from arbiter_core.turns.draw import draw
from arbiter_core.variants.archenemy import abandon, face_up_schemes, is_archenemy_game
from arbiter_core.variants.planes import casual, does

MOTION = "When you set this scheme in motion, "


def scheme(name: str, key: str, text: str, **more: object) -> None:
    add_card(card(name, casual(key, MOTION + text, "set_in_motion", **more)))


scheme("Roots of All Evil", "roots", "create five 1/1 green Saproling creature tokens.",
       effects=(CreateTokens(count=5, token=TokenSpec(
           name="Saproling", colors=("G",), types=("Creature",), subtypes=("Saproling",),
           power=1, toughness=1)),))
scheme("There Is No Refuge", "no_refuge",
       "it deals 3 damage to up to one target creature. Create a 3/3 black Horror "
       "creature token.", targets=(TargetSpec(kind="creature", min_count=0),))
scheme("The Iron Guardian Stirs", "iron_guardian",
       "create a 4/6 colorless Golem artifact creature token.",
       effects=(CreateTokens(count=1, token=TokenSpec(
           name="Golem", colors=(), types=("Artifact", "Creature"), subtypes=("Golem",),
           power=4, toughness=6)),))
scheme("I Delight in Your Convulsions", "delight",
       "each opponent loses 3 life. You gain life equal to the life lost this way.")
scheme("Know Naught but Fire", "know_naught",
       "it deals damage to each opponent equal to the number of cards in that player's "
       "hand.")
scheme("Mortal Flesh Is Weak", "mortal_flesh",
       "each opponent's life total becomes the lowest life total among your opponents.")
scheme("Embrace My Diabolical Vision", "embrace",
       "each player shuffles their hand and graveyard into their library. You draw seven "
       "cards, then each other player draws four cards.")
scheme("Behold the Power of Destruction", "behold",
       "destroy all nonland permanents target opponent controls.",
       targets=(TargetSpec(kind="opponent"),))
scheme("Make Yourself Useful", "make_useful",
       "destroy target creature an opponent controls. If a creature is destroyed this "
       "way, you gain life equal to its toughness.",
       targets=(TargetSpec(kind="creature_an_opponent_controls"),))
VERY_SOIL = add_card(card(
    "The Very Soil Shall Shake",
    casual("ongoing_reminder", "(An ongoing scheme remains face up until it's abandoned.)"),
    casual("very_soil_anthem", "Creatures you control get +2/+2 and have trample."),
    casual("very_soil_abandon", "When a creature you control dies, abandon this scheme.",
           "creature_dies")))

ANTHEMS: dict[str, StaticEffect] = {
    "very_soil_anthem": ModifyPowerToughness(subject="creatures_you_control", power=2,
                                             toughness=2)}
GRANTS: dict[str, str] = {"very_soil_anthem": "trample"}


def _abilities(s: GameState) -> list[tuple[Obj, CasualAbility]]:
    if not is_archenemy_game(s):
        return []
    return [(o, ab) for o in face_up_schemes(s) for ab in get_card(o.name).abilities
            if isinstance(ab, CasualAbility)]


def _statics(s: GameState) -> list[tuple[Obj, StaticEffect]]:
    """CR 904.8: a face-up scheme's static P/T effects."""
    return [(o, ANTHEMS[ab.name]) for o, ab in _abilities(s) if ab.name in ANTHEMS]


def _grants(s: GameState, creature: Obj) -> list[str]:
    return [GRANTS[ab.name] for o, ab in _abilities(s)
            if ab.name in GRANTS and creature.controller == o.controller]


OUTSIDE_STATICS.add("statics", _statics)
OUTSIDE_GRANTS.add("grants", _grants)


@watch(ev.ObjectMoved, order=140, look_back=True)
def _creature_dies(s: GameState, e: ev.ObjectMoved, current: int | None,
                   before: Obj | None) -> Sequence[ev.Event]:
    """"When a creature you control dies" (700.4) of a face-up ongoing scheme."""
    if before is None or before.zone != "battlefield" or e.to_zone != "graveyard" \
            or not is_creature(before):
        return []
    out = []
    for o, ab in _abilities(s):
        if ab.when == "creature_dies" and before.controller == o.controller:
            m = s.marker_of(o.controller) or next(iter(s.markers.values()))
            index = get_card(o.name).abilities.index(ab)
            out.append(ev.AbilityTriggered(source=o.id, source_name=o.name,
                                           controller=o.controller, ability=index,
                                           marker=current or m.number, rule="603.6c"))
    return out


@does("very_soil_abandon")
def _abandon(t: Txn, m: Marker, item: StackItem) -> None:
    if item.source is not None:
        abandon(t, item.source)


HORROR = TokenSpec(name="Horror", colors=("B",), types=("Creature",), subtypes=("Horror",),
                   power=3, toughness=3)


@does("no_refuge")
def _no_refuge(t: Txn, m: Marker, item: StackItem) -> bool:
    """3 damage to up to one target creature (if still legal, 608.2b), then the token
    (111.2)."""
    hit: list[Ref] = [object_ref(o.id) for group in item.targets for ref in group
           if isinstance(ref, ObjectRef) and (o := t.s.objects.get(ref.obj)) is not None
           and o.zone == "battlefield" and is_creature(o)]
    if deal_to_each(t, m, item, 3, hit, item.resume_at):  # 616.1: asked first
        return True
    t.emit(ev.TokenCreated(obj=t.new_id(), owner=item.controller, token=HORROR,
                           rule="111.2"))
    return False


@does("delight")
def _delight(t: Txn, m: Marker, item: StackItem) -> None:
    before = {p: t.s.players[p].life for p in opponents(t.s, item.controller)}
    for p in before:
        life.lose(t, p, 3, "119.3")
    lost = sum(before[p] - t.s.players[p].life for p in before)
    life.gain(t, item.controller, lost, "119.6")


@does("know_naught")
def _know_naught(t: Txn, m: Marker, item: StackItem) -> bool:
    """Damage to each opponent equal to their hand's size, once each affected player has
    ordered the replacement effects that apply (616.1, 616.1e)."""
    foes = opponents(t.s, item.controller)
    source = item.obj if item.obj is not None else (item.source or 0)
    dealt: list[Dealt] = [(source, player_ref(p), len(t.s.zone(p, "hand"))) for p in foes]
    if replacement.ask(t, m, dealt, replacement.item_orders(item), item, item.resume_at):
        return True
    for p, (_, _, n) in zip(foes, dealt, strict=True):
        deal_damage(t, item, n, player=p)
    return False


@does("mortal_flesh")
def _mortal_flesh(t: Txn, m: Marker, item: StackItem) -> None:
    foes = opponents(t.s, item.controller)
    if foes:
        lowest = min(t.s.players[p].life for p in foes)
        for p in foes:
            life.set_total(t, p, lowest)


@does("embrace")
def _embrace(t: Txn, m: Marker, item: StackItem) -> None:
    """Each player shuffles hand and graveyard into their library (701.24); the
    controller draws seven, then each other player four, in turn order (101.4)."""
    s = t.s
    for p in s.in_game():
        for zone in ("hand", "graveyard"):
            for oid in list(t.s.zone(p, zone)):
                t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="library",
                                      to_player=p, rule="701.24a"))
        t.emit(ev.LibraryShuffled(player=p, rule="701.24a",
                                  order=t.rng.shuffled(t.s.zone(p, "library"))))
    for _ in range(7):
        draw(t, item.controller, "121.1")
    for p in t.s.in_game():
        if p != item.controller:
            for _ in range(4):
                draw(t, p, "121.1")


@does("behold")
def _behold(t: Txn, m: Marker, item: StackItem) -> None:
    for group in item.targets:
        for ref in group:
            if isinstance(ref, PlayerRef):
                doomed = [o.id for o in t.s.permanents(ref.player) if not is_type(o, "Land")]
                for oid in doomed:
                    o = t.s.objects[oid]
                    t.emit(ev.ObjectMoved(obj=oid, new_id=t.new_id(), to_zone="graveyard",
                                          to_player=o.owner, rule="701.8a"))


@does("make_useful")
def _make_useful(t: Txn, m: Marker, item: StackItem) -> None:
    for group in item.targets:
        for ref in group:
            o = t.s.objects.get(ref.obj) if isinstance(ref, ObjectRef) else None
            if o is None or o.zone != "battlefield":
                continue
            toughness = power_toughness(t.s, o)[1]
            t.emit(ev.ObjectMoved(obj=o.id, new_id=t.new_id(), to_zone="graveyard",
                                  to_player=o.owner, rule="701.8a"))
            life.gain(t, item.controller, toughness, "119.6")
