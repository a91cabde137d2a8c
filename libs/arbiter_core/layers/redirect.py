"""Redirection effects (CR 614.9): "the next X damage that would be dealt to A this turn
is dealt to B instead" (Captain's Maneuver), a shield that is used up point by point.

With limited range of influence (801.13, 801.13a), the part of the damage that the
redirection would make a spell or ability (or a creature, 801.2: damage dealing) deal to
a player or object outside its controller's range does nothing; the shield is still
used. A redirection to a permanent that is gone or no longer a creature, or to a player
who has left the game, does nothing either (614.9), and the damage isn't redirected.
"""

from __future__ import annotations

from collections.abc import Collection

from arbiter_core.cards.model import RedirectNextDamage
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.refs import PlayerRef, Ref
from arbiter_core.kernel.state import Effect, GameState, Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers.characteristics import is_creature
from arbiter_core.multiplayer.influence import object_in_range, player_in_range
from arbiter_core.stack.items import Legal, amount, effect, group


def shielded(s: GameState, recipient: Ref) -> bool:
    """Some redirection shield watches damage to `recipient`."""
    return any(f.kind == "redirect" and f.redirect and f.redirect[0] == recipient
               and f.amount > 0 for f in s.effects)


def _there(s: GameState, recipient: Ref) -> bool:
    """The recipient can still be dealt damage (614.9)."""
    if isinstance(recipient, PlayerRef):
        who = recipient.player
        return who in s.players and not s.players[who].left
    o = s.objects.get(recipient.obj)
    return o is not None and o.zone == "battlefield" and is_creature(o)


def shields(s: GameState, recipient: Ref, used: Collection[int] = ()) -> list[Effect]:
    """The redirection shields that apply to damage that would be dealt to `recipient`,
    oldest first: each is a replacement effect of its own, which the affected player
    orders (616.1). Not one already applied to this damage (614.5), nor one whose other
    target is gone (614.9: it would do nothing)."""
    return sorted((f for f in s.effects
                   if f.kind == "redirect" and f.redirect and f.redirect[0] == recipient
                   and f.amount > 0 and f.id not in used and _there(s, f.redirect[1])),
                  key=lambda f: f.timestamp)


def _in_range(t: Txn, viewer: str, recipient: Ref) -> bool:
    if isinstance(recipient, PlayerRef):
        return player_in_range(t.s, viewer, recipient.player)
    return object_in_range(t.s, viewer, t.s.objects[recipient.obj])


def use(t: Txn, f: Effect, amount: int, dealer: str) -> tuple[Ref, int, bool]:
    """Shield `f` takes up to its amount of `amount` damage (614.9): (the new recipient,
    the damage redirected, whether it is dealt: within the range of influence of
    `dealer`, who controls the spell, ability or creature dealing it, 801.13a)."""
    assert f.redirect is not None
    n = min(amount, f.amount)
    if n > 0:
        t.emit(ev.EffectUsed(effect=f.id, amount=n, rule="614.9"))
        if f.amount == n:
            t.emit(ev.EffectEnded(effect=f.id, rule="614.9"))
    return f.redirect[1], n, _in_range(t, dealer, f.redirect[1])


@effect(RedirectNextDamage)
def _redirect(t: Txn, m: Marker, item: StackItem, eff: RedirectNextDamage, legal: Legal,
              index: int) -> bool:
    """A redirection shield (614.9): the next N damage to the first target is dealt to
    the second instead (Captain's Maneuver)."""
    groups = [group(legal, i) for i in (eff.source_target, eff.to_target)]
    if groups[0] and groups[1]:  # 608.2b: with either target gone, no shield
        t.emit(ev.EffectCreated(kind="redirect", redirect=[groups[0][0], groups[1][0]],
                                amount=amount(t, item, eff.amount),
                                controller=item.controller, marker=m.number, rule="614.9"))
    return False
