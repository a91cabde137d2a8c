"""Redirection effects (CR 614.9): "the next X damage that would be dealt to A this turn
is dealt to B instead" (Captain's Maneuver), a shield that is used up point by point.

With limited range of influence (801.13, 801.13a), the part of the damage that the
redirection would make a spell or ability (or a creature, 801.2: damage dealing) deal to
a player or object outside its controller's range does nothing; the shield is still
used. A redirection to a permanent that is gone or no longer a creature, or to a player
who has left the game, does nothing either (614.9), and the damage isn't redirected.
"""

from __future__ import annotations

from arbiter_core.cards.model import RedirectNextDamage
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.refs import PlayerRef, Ref
from arbiter_core.kernel.state import GameState, Marker, StackItem
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


def capacity(s: GameState, recipient: Ref) -> int:
    """How much of the damage that would be dealt to `recipient` the redirection shields
    on it would take away (614.9: a shield whose other target is gone does nothing)."""
    return sum(f.amount for f in s.effects
               if f.kind == "redirect" and f.redirect and f.redirect[0] == recipient
               and f.amount > 0 and _there(s, f.redirect[1]))


def _in_range(t: Txn, viewer: str, recipient: Ref) -> bool:
    if isinstance(recipient, PlayerRef):
        return player_in_range(t.s, viewer, recipient.player)
    return object_in_range(t.s, viewer, t.s.objects[recipient.obj])


def split(t: Txn, recipient: Ref, amount: int, dealer: str) -> list[tuple[Ref, int, str]]:
    """Where `amount` damage that would be dealt to `recipient` goes, as (recipient,
    amount, rule) parts, after the redirection shields on it (oldest first). `dealer`
    controls the spell, ability or creature dealing the damage."""
    out: list[tuple[Ref, int, str]] = []
    rest = amount
    shields = sorted((f for f in t.s.effects if f.kind == "redirect" and f.redirect
                      and f.redirect[0] == recipient and f.amount > 0),
                     key=lambda f: f.timestamp)
    for f in shields:
        assert f.redirect is not None
        target = f.redirect[1]
        if rest <= 0 or not _there(t.s, target):
            continue  # 614.9: nothing to redirect to; the damage stays
        n = min(rest, f.amount)
        t.emit(ev.EffectUsed(effect=f.id, amount=n, rule="614.9"))
        if f.amount == n:
            t.emit(ev.EffectEnded(effect=f.id, rule="614.9"))
        rest -= n
        if _in_range(t, dealer, target):
            out.append((target, n, "614.9"))
        # else 801.13a: that portion of the event does nothing
    if rest > 0:
        out.append((recipient, rest, "120.3"))
    return out


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
