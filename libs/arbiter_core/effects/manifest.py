"""Manifest (CR 701.40), a keyword action: the top card of the player's library is
turned face down and put onto the battlefield as the 2/2 face-down creature of 708.2a
(701.40a); it is a manifested permanent while it stays face down.

- As it resolves (`Manifest`): `TurnedFaceDown` (manifested) and then the move onto
  the battlefield under the player's control (708.3: turned face down before it enters,
  so its own enters abilities never see it; `kernel/edits.move` keeps the status). An
  empty library manifests nothing.
- Turning it face up (701.40b), a special action (116.2b, `stack/face_up.py`): only a
  creature card with a mana cost, for that mana cost; a manifested card with morph may
  use morph's procedure too (701.40c); an instant or sorcery stays face down (701.40g,
  as it isn't a creature card).
- The card: Soul Summons ("Manifest the top card of your library.").
"""

from __future__ import annotations

from arbiter_core.cards import get_card
from arbiter_core.cards.build import card, spell
from arbiter_core.cards.model import Manifest
from arbiter_core.cards.pool import add_card
from arbiter_core.cards.render_effects import wording
from arbiter_core.cards.render_words import Context
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.state import Marker, Obj, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.stack.face_up import face_up_procedure
from arbiter_core.stack.items import Legal, effect
from arbiter_core.stack.mana import ManaCost, parse_cost

REMINDER = ("Put it onto the battlefield face down as a 2/2 creature. Turn it face up any "
            "time for its mana cost if it's a creature card.")


@effect(Manifest)
def _manifest(t: Txn, m: Marker, item: StackItem, eff: Manifest, legal: Legal,
              index: int) -> bool:
    """701.40a: the controller's top card, face down, onto the battlefield."""
    who = item.controller
    library = t.s.zone(who, "library")
    if t.s.players[who].left or not library:
        return False
    top = library[0]
    t.emit(ev.TurnedFaceDown(obj=top, manifested=True, rule="701.40a"))
    t.emit(ev.ObjectMoved(obj=top, new_id=t.new_id(), to_zone="battlefield", to_player=who,
                          controller=who, rule="701.40a"))
    return False


@face_up_procedure("manifest", "701.40b")
def _mana_cost(o: Obj) -> ManaCost | None:
    """701.40b: a manifested permanent whose card is a creature card with a mana cost,
    for that cost."""
    if not o.manifested or o.token is not None:
        return None
    d = get_card(o.name)
    if "Creature" not in d.types or not d.mana_cost:
        return None
    return parse_cost(d.mana_cost)


@wording(Manifest)
def _wording(effect_: Manifest, ctx: Context) -> str:
    text = "manifest the top card of your library."
    return f"{text} ({REMINDER})" if effect_.reminder else text


SOUL_SUMMONS = add_card(card("Soul Summons", spell(Manifest())))
