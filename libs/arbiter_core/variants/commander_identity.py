"""A commander's color identity during the game (CR 903.4a, 903.4f) and the card that
asks for it, Command Tower ("{T}: Add one mana of any color in your commander's color
identity.").

- 903.4a: the identity is the one established before the game, from the commander
  card's printed mana cost, rules text and colors (`deck_commander.color_identity`, the
  rule the deck check uses), whatever happens to the object in the game: face down
  (Ixidron), a copy of another creature (Cytoshape), in any zone.
- 903.4f: a player without a commander (a game that is not Commander, or a player the
  scenario gave none) has no color identity to refer to: Command Tower makes no mana.
  A colorless commander's identity has no colors, so it makes none either.
- "your commander": the commanders the source's controller owns (903.3); with two,
  the union of their identities.
- The mana ability adds one mana of a color chosen as it resolves (605.3b,
  `stack.mana.MANA_OF_A_COLOR`): paying a cost, the color the cost needs; activated on
  its own, its controller chooses (`choose_mana_color`).
"""

from __future__ import annotations

import functools

from arbiter_core.cards import get_card
from arbiter_core.cards.build import card
from arbiter_core.cards.model import ActivatedAbility, AddManaInCommanderIdentity, Cost
from arbiter_core.cards.pool import add_card
from arbiter_core.cards.render_effects import wording
from arbiter_core.cards.render_words import Context
from arbiter_core.kernel.state import GameState, Obj
from arbiter_core.stack.items import static_effect
from arbiter_core.stack.mana import MANA_OF_A_COLOR
from arbiter_core.variants.deck_commander import COLORS, color_identity


@functools.cache
def card_identity(name: str) -> str:
    """903.4: the identity of the card named `name`, from its printed characteristics."""
    d = get_card(name)
    return color_identity([d.mana_cost or ""], [d.oracle or ""], d.colors)


def commander_identity(s: GameState, player: str) -> str | None:
    """903.4a: the color identity of `player`'s commander(s), in WUBRG order; None when
    they have no commander (903.4f)."""
    c = s.commander
    cards = {card_no for card_no, owner in c.commanders if owner == player} if c else set()
    if not cards:
        return None
    names = {o.printed or o.name for o in s.objects.values()
             if o.card in cards and o.token is None}
    found = "".join(card_identity(n) for n in names)
    return "".join(x for x in COLORS if x in found)


def _tower_colors(s: GameState, o: Obj) -> str:
    """The colors Command Tower can make for its controller (903.4f: none without a
    commander)."""
    return commander_identity(s, o.controller) or ""


MANA_OF_A_COLOR.add(AddManaInCommanderIdentity, _tower_colors)
# a mana ability never goes on the stack (605.3a): `stack.mana` resolves it at once
static_effect(AddManaInCommanderIdentity)


@wording(AddManaInCommanderIdentity)
def _wording(effect: AddManaInCommanderIdentity, ctx: Context) -> str:
    return "add one mana of any color in your commander's color identity."


COMMAND_TOWER = add_card(card("Command Tower", ActivatedAbility(
    cost=Cost(tap=True), effects=(AddManaInCommanderIdentity(),))))
