"""Cards whose effects refer to commanders during the game (CR 903.3d, 903.3e).

- 903.3d: "each commander they control" is each permanent on the battlefield that is a
  commander (the designation is the card's, `CommanderState.commanders`); "a commander
  you own on the battlefield or in the command zone" is a card or permanent in that
  zone that is a commander. Leadership Vacuum: "Target player returns each commander
  they control from the battlefield to the command zone. Draw a card." - each goes to
  its owner's command zone (408.1), whoever controls it.
- 903.3e: a characteristic of a commander is its current one, as continuous effects
  and other rules make it: Stinging Study's X is the commander's mana value now - a
  face-down commander (708.2a: no mana cost) has mana value 0, a commander that is a
  copy of another creature has that creature's.

- 903.3a: a card that says it can be your commander - Freyalise, Llanowar's Fury, a
  planeswalker - may be the commander of a Commander deck (the deck check reads the
  ability from the Oracle index); in the game the ability does nothing. Its loyalty
  abilities: an Elf Druid token with "{T}: Add {G}." (`TOKEN_ABILITIES`), Destroy target
  artifact or enchantment, and a card for each green creature you control.

Known gap: with two commanders a player owns in those zones (partners; none in the
pool) Stinging Study should let its controller choose one; the first in setup order is
used.
"""

from __future__ import annotations

from arbiter_core.cards.build import card, kw, spell, target
from arbiter_core.cards.model import (
    TOKEN_ABILITIES,
    ActivatedAbility,
    AddMana,
    CanBeYourCommander,
    Cost,
    CreateTokens,
    DealDamage,
    Destroy,
    DrawAndLoseCommanderManaValue,
    DrawCards,
    DrawPerCreatureOfColor,
    Mill,
    ReturnCommandersToCommandZone,
    StaticAbility,
    TokenSpec,
    TriggeredAbility,
)
from arbiter_core.cards.pool import add_card
from arbiter_core.cards.render_effects import OWN_PARAGRAPH, wording
from arbiter_core.cards.render_words import Context
from arbiter_core.effects import life
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.state import GameState, Marker, Obj, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.animate_until_end_of_turn import mana_value
from arbiter_core.layers.characteristics import (
    colors,
    cost_for_mana_value,
    is_creature,
)
from arbiter_core.stack.items import Legal, effect, players_of, static_effect
from arbiter_core.turns.draw import draw
from arbiter_core.variants.commander import commander_owner


def commanders_controlled(s: GameState, player: str) -> list[Obj]:
    """903.3d: the permanents `player` controls that are commanders."""
    return [o for o in s.permanents(player) if commander_owner(s, o.card) is not None]


def commanders_owned_in(s: GameState, player: str, zones: tuple[str, ...]) -> list[Obj]:
    """903.3d: the cards or permanents in `zones` that are commanders `player` owns."""
    return [o for o in s.objects.values() if o.zone in zones and o.owner == player
            and commander_owner(s, o.card) == player]


@effect(ReturnCommandersToCommandZone)
def _return_commanders(t: Txn, m: Marker, item: StackItem,
                       eff: ReturnCommandersToCommandZone, legal: Legal,
                       index: int) -> bool:
    for player in players_of(legal[eff.who]):
        for o in commanders_controlled(t.s, player):
            t.emit(ev.ObjectMoved(obj=o.id, new_id=t.new_id(), to_zone="command",
                                  to_player=o.owner, rule="903.3d"))
    return False


@effect(DrawAndLoseCommanderManaValue)
def _stinging_study(t: Txn, m: Marker, item: StackItem,
                    eff: DrawAndLoseCommanderManaValue, legal: Legal, index: int) -> bool:
    """903.3e: X is the commander's mana value as it is now (0 without one)."""
    me = item.controller
    found = commanders_owned_in(t.s, me, ("battlefield", "command"))
    x = mana_value(cost_for_mana_value(found[0])) if found else 0  # 712.8e too
    for _ in range(x):
        draw(t, me, "121.1")
    if x:
        life.lose(t, me, x, "119.3")
    return False


OWN_PARAGRAPH.add(ReturnCommandersToCommandZone)


@wording(ReturnCommandersToCommandZone)
def _return_wording(eff: ReturnCommandersToCommandZone, ctx: Context) -> str:
    return (f"{ctx.target(eff.who)} returns each commander they control from the "
            "battlefield to the command zone.")


@wording(DrawAndLoseCommanderManaValue)
def _study_wording(eff: DrawAndLoseCommanderManaValue, ctx: Context) -> str:
    return ("you draw X cards and you lose X life, where X is the mana value of a "
            "commander you own on the battlefield or in the command zone.")


LEADERSHIP_VACUUM = add_card(card("Leadership Vacuum", spell(
    ReturnCommandersToCommandZone(who=0), DrawCards(count=1), targets=target("player"))))
STINGING_STUDY = add_card(card("Stinging Study", spell(DrawAndLoseCommanderManaValue())))


@effect(DrawPerCreatureOfColor)
def _draw_per_creature(t: Txn, m: Marker, item: StackItem, eff: DrawPerCreatureOfColor,
                       legal: Legal, index: int) -> bool:
    """121.1: a card for each creature of that color the controller controls."""
    me = item.controller
    n = sum(1 for o in t.s.permanents(me) if is_creature(o) and eff.color in colors(o))
    for _ in range(n):
        draw(t, me, "121.1")
    return False


static_effect(CanBeYourCommander)  # 903.3a: a deck construction rule, before the game

COLOR_WORDS = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}


@wording(DrawPerCreatureOfColor)
def _draw_per_wording(eff: DrawPerCreatureOfColor, ctx: Context) -> str:
    return f"draw a card for each {COLOR_WORDS[eff.color]} creature you control."


@wording(CanBeYourCommander)
def _commander_wording(eff: CanBeYourCommander, ctx: Context) -> str:
    return f"{ctx.name} can be your commander."


ELF_DRUID = TokenSpec(name="Elf Druid Token", colors=("G",), types=("Creature",),
                      subtypes=("Elf", "Druid"), power=1, toughness=1)
TOKEN_ABILITIES[ELF_DRUID.name] = (
    (ActivatedAbility(cost=Cost(tap=True), effects=(AddMana(mana="G"),)),), "{T}: Add {G}.")
FREYALISE = add_card(card(
    "Freyalise, Llanowar's Fury",
    ActivatedAbility(cost=Cost(loyalty=2), effects=(CreateTokens(token=ELF_DRUID, count=1),)),
    ActivatedAbility(cost=Cost(loyalty=-2), targets=target("artifact_or_enchantment"),
                     effects=(Destroy(what=0),)),
    ActivatedAbility(cost=Cost(loyalty=-6), effects=(DrawPerCreatureOfColor(color="G"),)),
    StaticAbility(effects=(CanBeYourCommander(),)),
))

#: a blue-red commander (903.4d's deck cases: Civilized Scholar // Homicidal Brute's back
#: face is red): flying, "whenever it deals damage to a player, you may draw a card"
#: (603.5) and a damage ability (602)
NIV_MIZZET_DRACOGENIUS = add_card(card(
    "Niv-Mizzet, Dracogenius", kw("flying"),
    TriggeredAbility(event="deals_damage_to_player", optional=True, effects=(DrawCards(),)),
    ActivatedAbility(cost=Cost(mana="{U}{R}"), targets=target("any"),
                     effects=(DealDamage(amount=1, to=0),))))

#: a mono-blue commander (903.4d's illegal deck case: Civilized Scholar's front face is
#: blue, its back face red): "{3}: Target player mills three cards." (701.17a)
AMBASSADOR_LAQUATUS = add_card(card(
    "Ambassador Laquatus", ActivatedAbility(cost=Cost(mana="{3}"), targets=target("player"),
                                            effects=(Mill(who="target_player", count=3),))))
