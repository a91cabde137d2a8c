"""Face-down spells and permanents (CR 708).

A face-down object keeps its card (`Obj.name` is the card's own name, which only its
controller may look at, 708.5; `views/seat.py` shows it to no one else), but its
characteristics are only those the rules that turned it face down list (708.2): unless
they say otherwise, a 2/2 creature and nothing else - no name, text, subtypes or mana
cost (708.2a) - and so colourless (202.2, 105.2c: its colour comes from no mana cost). These
are its copiable values (layer 1, 613.2), so every other layer starts from them:
`characteristics.definition` answers `FACE_DOWN` for a face-down object, and the static
abilities, triggers and activated abilities of the card it is do not exist while it is
face down.

- 708.2b: turning a face-down permanent face down again does nothing (the applier
  leaves it as it is).
- 708.3, 708.4: an object is turned face down before it is put onto the stack or the
  battlefield (`TurnedFaceDown` comes first; `kernel/edits.move` keeps the status as
  the card moves to the stack and as the face-down spell resolves, 702.37c), so the
  card's own characteristics are never seen on the way and its enters abilities don't
  apply.
- 708.8: turning it face up (`TurnedFaceUp`) makes it the same object with its normal
  characteristics; effects already applied to it still apply (they name its id), and
  no enters ability triggers: nothing entered.
- 708.10, 707.2: a copy of a face-down permanent copies the values of 708.2a
  (`COPIED_FACE_DOWN`, `layers/copies.py`), never the card's name.
- 708.9: a face-down permanent or spell that leaves for another zone becomes a new
  object that is face up (400.7, `kernel/edits.move`): in a public zone every player sees
  it; at the end of the game every face-down object is revealed (`revealed`).

The face-down mechanics (morph, 702.37) are in `keywords/`.
"""

from __future__ import annotations

from arbiter_core.cards.model import CardDefinition, TokenSpec
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.edits import set_obj
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import GameState

#: 708.2a: the characteristics of a face-down spell or permanent (no name: "")
FACE_DOWN = CardDefinition(name="", types=("Creature",), power=2, toughness=2)
#: the same values as a copy takes them (708.10, 707.2: a copy of a face-down permanent
#: is a face-up 2/2 creature with no name; layer 1 holds copied values as a token's do)
COPIED_FACE_DOWN = TokenSpec(name="", colors=(), types=("Creature",), subtypes=(), power=2,
                             toughness=2)


def revealed(s: GameState) -> bool:
    """708.9: at the end of the game every face-down object is revealed to all players."""
    return s.game_over


@applies(ev.TurnedFaceDown)
def _turned_face_down(s: GameState, e: ev.TurnedFaceDown) -> None:
    """708.2a (708.2b: a face-down permanent stays as it is)."""
    if not s.objects[e.obj].face_down:
        set_obj(s, e.obj, face_down=True, manifested=e.manifested)


@applies(ev.TurnedFaceUp)
def _turned_face_up(s: GameState, e: ev.TurnedFaceUp) -> None:
    """708.8: the same object, its copiable values its normal ones again."""
    set_obj(s, e.obj, face_down=False, manifested=False)


@explains(ev.TurnedFaceDown)
def _explain_turned_face_down(before: GameState, e: ev.TurnedFaceDown, name: Namer) -> str:
    return f"{name(e.obj)} is turned face down"


@explains(ev.TurnedFaceUp)
def _explain_turned_face_up(before: GameState, e: ev.TurnedFaceUp, name: Namer) -> str:
    return f"{name(e.obj)} is turned face up"
