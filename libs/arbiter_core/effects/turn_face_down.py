"""Turning permanents face down as a permanent enters, and counting them (Ixidron).

- "As ~ enters the battlefield, turn all other nontoken creatures face down. (They're
  2/2 creatures.)" (`TurnOthersFaceDownAsEnters`): a replacement effect (614.1c) applied
  as the permanent spell enters (`stack.resolve.AS_ENTERS`): each other nontoken
  creature on the battlefield is turned face down (`TurnedFaceDown`, 708.2a: a 2/2 with
  no name, text or mana cost, `layers/face_down.py`). A permanent turned face down this
  way and without morph can't be turned face up (702.37e, 708.8); it stays the same
  object, so a commander stays a commander (903.3: the designation is the card's,
  `CommanderState.commanders`), and its combat damage is commander damage (903.10a).
- "~'s power and toughness are each equal to the number of face-down creatures on the
  battlefield." (`PowerToughnessFaceDownCreatures`): a characteristic-defining ability
  (604.3, layer 7a, `layers.characteristics.PT_DEFINED`), in every zone.
"""

from __future__ import annotations

from arbiter_core.cards.build import card
from arbiter_core.cards.model import (
    CardDefinition,
    PowerToughnessFaceDownCreatures,
    StaticAbility,
    TurnOthersFaceDownAsEnters,
)
from arbiter_core.cards.pool import add_card
from arbiter_core.cards.render_effects import wording
from arbiter_core.cards.render_words import Context
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.state import GameState, Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import PT_DEFINED, definition, is_creature
from arbiter_core.stack.items import static_effect
from arbiter_core.stack.resolve import AS_ENTERS


def _has(d: CardDefinition, model: type) -> bool:
    return any(isinstance(e, model) for ab in d.abilities if isinstance(ab, StaticAbility)
               for e in ab.effects)


def _turn_others_face_down(t: Txn, m: Marker, item: StackItem, oid: int) -> bool:
    """614.1c, 708.2a: as it enters, every other nontoken creature is turned face down
    (one already face down stays as it is, 708.2b)."""
    s = t.s
    if not _has(definition(s.objects[oid]), TurnOthersFaceDownAsEnters):
        return False
    for other in list(s.battlefield):
        o = s.objects[other]
        if other != oid and not o.is_token and not o.face_down and is_creature(o):
            t.emit(ev.TurnedFaceDown(obj=other, rule="708.2a"))
    return False


AS_ENTERS.add("all", _turn_others_face_down, order=5)


def _face_down_creatures(s: GameState, d: CardDefinition) -> tuple[int, int] | None:
    """604.3, 613.4a: the number of face-down creatures on the battlefield."""
    if not _has(d, PowerToughnessFaceDownCreatures):
        return None
    n = sum(1 for oid in s.battlefield if s.objects[oid].face_down
            and is_creature(s.objects[oid]))
    return n, n


PT_DEFINED.add("all", _face_down_creatures)
static_effect(TurnOthersFaceDownAsEnters, PowerToughnessFaceDownCreatures)


@wording(TurnOthersFaceDownAsEnters)
def _turn_wording(effect: TurnOthersFaceDownAsEnters, ctx: Context) -> str:
    return (f"as {ctx.name} enters the battlefield, turn all other nontoken creatures face "
            "down. (They're 2/2 creatures.)")


@wording(PowerToughnessFaceDownCreatures)
def _pt_wording(effect: PowerToughnessFaceDownCreatures, ctx: Context) -> str:
    return (f"{ctx.name}'s power and toughness are each equal to the number of face-down "
            "creatures on the battlefield.")


IXIDRON = add_card(card("Ixidron",
                        StaticAbility(effects=(TurnOthersFaceDownAsEnters(),)),
                        StaticAbility(effects=(PowerToughnessFaceDownCreatures(),))))
