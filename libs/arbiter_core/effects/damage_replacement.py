"""Damage modified by the replacement and prevention effects of static abilities, in one
place (CR 614.1a, 615.1a), and their order (616.1, 616.1e).

The effects are Gisela, Blade of Goldnight's (a commander of the reference pool): "If a
source would deal damage to an opponent or a permanent an opponent controls, that source
deals double that damage to that player or permanent instead." (a replacement effect,
614.1a: `double`) and "If a source would deal damage to you or a permanent you control,
prevent half that damage, rounded up." (a prevention effect, 615.1a: `prevent half`).

- Every damage event - a resolving spell's or ability's (`effects/damage.py`,
  `effects/sacrifice_cost.py`) and combat damage (`combat/damage.py`) - asks
  `final_amount` how much is dealt, after any redirection (614.9, `layers/redirect.py`).
- 616.1, 616.1e: when two or more of these effects apply to one damage event, the
  affected player - the player dealt the damage, or the controller of the permanent -
  chooses one to apply first, then again among those left. Two effects of the same kind
  give the same result in either order, so the choice is of a kind; it is asked (the
  decision `replacement_order`) only when the order changes how much damage is dealt.
  The answers are recorded (`ReplacementOrderChosen`) on the resolving spell or ability
  or on the combat, and the damage is dealt once every order it needs is known (all
  combat damage at once, 510.2; a spell's damage to each of its targets at once, 608.2).
- Damage to the player or creature a trigger names (Aether Sting, Aether Flash) and an
  Archenemy scheme's damage (`variants/schemes.py`) are asked the same way.
- Each redirection shield (614.9) is an effect of its own; redirected damage is a new
  event to its new recipient, asked and routed again (616.1), where a shield already
  applied to it doesn't apply (614.5).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from itertools import permutations
from typing import Literal

from arbiter_core.cards.build import card, kw
from arbiter_core.cards.model import (
    DealDamage,
    DoubleDamageToOpponents,
    PreventHalfDamageToYou,
    StaticAbility,
    TriggeredAbility,
)
from arbiter_core.cards.pool import add_card
from arbiter_core.cards.render_effects import wording
from arbiter_core.cards.render_words import Context
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseOption, PlayerCommand
from arbiter_core.kernel.decisions import decision
from arbiter_core.kernel.edits import set_marker
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.refs import PlayerRef, Ref, object_ref, parse_ref, player_ref
from arbiter_core.kernel.registry import Slot
from arbiter_core.kernel.state import Decision, Effect, GameState, Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.layers import redirect
from arbiter_core.layers.characteristics import definition
from arbiter_core.multiplayer.seating import opponents
from arbiter_core.stack.items import static_effect
from arbiter_core.stack.resolve import resume

KIND = "replacement_order"
DOUBLE, HALF, REDIRECT = "double", "prevent half", "redirect"
RULES = {DOUBLE: "614.1a", HALF: "615.1a", REDIRECT: "614.9"}

#: combat damage goes on once an order is chosen (filled by `combat/damage.py`)
COMBAT_DAMAGE: Slot[Callable[[Txn, Marker], None]] = Slot("combat damage after 616.1")

#: a damage event: (source, recipient, amount)
Dealt = tuple[int, Ref, int]
#: an order chosen: (source, recipient, effect applied next)
Order = tuple[int, str, str]


class ReplacementOrderChosen(ev.EventBase):
    """The affected player chose which effect applies next to the damage `source` would
    deal to `recipient` (616.1e); recorded on the stack `item`, or on the combat."""

    type: Literal["ReplacementOrderChosen"] = "ReplacementOrderChosen"
    marker: int
    item: int | None = None
    player: str
    source: int
    recipient: str
    effect: str


class DamageModified(ev.EventBase):
    """The damage `source` would deal to `recipient` became `amount` (from `would`) by
    the effects applied, in order (614.1a, 615.1a, 616.1)."""

    type: Literal["DamageModified"] = "DamageModified"
    source: int
    recipient: str
    would: int
    amount: int
    effects: list[str]


def affected_player(s: GameState, recipient: Ref) -> str | None:
    """The player dealt the damage, or the controller of the permanent (616.1)."""
    if isinstance(recipient, PlayerRef):
        return recipient.player
    o = s.objects.get(recipient.obj)
    return o.controller if o is not None and o.zone == "battlefield" else None


def modifiers(s: GameState, recipient: Ref, used: Collection[int] = ()) -> list[str]:
    """The effects that apply to damage that would be dealt to `recipient`: each
    redirection shield is one of its own ("redirect-<effect id>", 614.9, 616.1), but not
    one `used` on this damage already (614.5)."""
    affected = affected_player(s, recipient)
    if affected is None:
        return []
    out: list[str] = []
    for o in s.permanents():
        for ab in definition(o).abilities:
            if not isinstance(ab, StaticAbility):
                continue
            for e in ab.effects:
                if isinstance(e, DoubleDamageToOpponents) and affected in opponents(
                        s, o.controller):
                    out.append(DOUBLE)
                elif isinstance(e, PreventHalfDamageToYou) and affected == o.controller:
                    out.append(HALF)
    return out + list(_shields(s, recipient, used))


def _shields(s: GameState, recipient: Ref, used: Collection[int]) -> dict[str, Effect]:
    return {f"{REDIRECT}-{f.id}": f for f in redirect.shields(s, recipient, used)}


def _apply(kind: str, n: int) -> int:
    return 2 * n if kind == DOUBLE else n // 2  # 615.1a: half, rounded up, is prevented


Caps = Mapping[str, int]
Result = tuple[int, tuple[tuple[str, int], ...]]


def _run(order: Sequence[str], n: int, caps: Caps | None = None) -> Result:
    """The damage left to the recipient and the damage each shield redirects (614.9: up
    to its amount in `caps`) after the effects in `order`."""
    moved: dict[str, int] = {}
    for kind in order:
        if kind.startswith(REDIRECT):
            moved[kind] = min((caps or {}).get(kind, 0), n)
            n -= moved[kind]
        else:
            n = _apply(kind, n)
    return n, tuple(sorted(moved.items()))


def _outcome(order: Sequence[str], n: int) -> int:
    return _run(order, n)[0]


def _left(kinds: list[str], chosen: Sequence[str]) -> list[str]:
    rest = list(kinds)
    for k in chosen:
        if k in rest:
            rest.remove(k)
    return rest


def _chosen(orders: Sequence[Order], source: int, recipient: Ref) -> list[str]:
    return [k for src, rec, k in orders if src == source and rec == str(recipient)]


def _open(kinds: list[str], chosen: list[str], n: int, caps: Caps) -> list[str]:
    """The kinds the affected player chooses among next, or [] when the order left
    can't change the result (the damage dealt, or how much is redirected)."""
    rest = _left(kinds, chosen)
    done = [k for k in chosen if k in kinds]
    if len(set(rest)) < 2 or len({_run([*done, *p], n, caps)
                                  for p in permutations(rest)}) < 2:
        return []
    return sorted(set(rest))


def final_amount(t: Txn, source: int, recipient: Ref, n: int,
                 orders: Sequence[Order]) -> int:
    """The damage dealt after the effects, in the chosen order and then the one leaving
    the least damage; the change is recorded (`DamageModified`)."""
    kinds = [k for k in modifiers(t.s, recipient) if not k.startswith(REDIRECT)]
    if not kinds or n <= 0:
        return n
    chosen = [k for k in _chosen(orders, source, recipient) if k in kinds]
    rest = _left(kinds, chosen)
    best = min(permutations(rest), key=lambda p: _outcome(p, _outcome(chosen, n)))
    order = [*chosen, *best]
    amount = _outcome(order, n)
    rule = RULES[order[0]] if len(set(order)) == 1 else "616.1"
    t.emit(DamageModified(source=source, recipient=str(recipient), would=n, amount=amount,
                          effects=order, rule=rule))
    return amount


def _order(kinds: list[str], chosen: list[str], n: int, caps: Caps) -> list[str]:
    """The order chosen, then the one leaving the least damage (shields oldest first)."""
    done = [k for k in chosen if k in kinds]
    rest = _left(kinds, done)
    return [*done, *min(permutations(rest), key=lambda p: _run([*done, *p], n, caps))]


def route(t: Txn, source: int, recipient: Ref, n: int, orders: Sequence[Order],
          dealer: str, used: frozenset[int] = frozenset()) -> list[tuple[Ref, int]]:
    """Where `n` damage that would be dealt to `recipient` goes and how much, after the
    replacement effects in the order chosen (616.1, 616.1e) - each redirection shield
    (614.9) one of them - and then the order leaving the least damage. Redirected damage
    is a new damage event to its new recipient, routed the same way (616.1 again), where
    a shield `used` on it already doesn't apply (614.5). `dealer` controls the source
    (801.13a)."""
    kinds = modifiers(t.s, recipient, used)
    found = _shields(t.s, recipient, used)
    if not found:
        k = final_amount(t, source, recipient, n, orders) if n > 0 else n
        return [(recipient, k)] if k > 0 else []
    caps = {kind: f.amount for kind, f in found.items()}
    order = _order(kinds, _chosen(orders, source, recipient), n, caps)
    k, out = n, []
    for kind in order:
        if kind not in found:
            k = _apply(kind, k)
            continue
        to, x, dealt = redirect.use(t, found[kind], k, dealer)
        k -= x
        if dealt and x > 0:
            out += route(t, source, to, x, orders, dealer, used | {found[kind].id})
    if len(order) > 1:
        t.emit(DamageModified(source=source, recipient=str(recipient), would=n, amount=k,
                              effects=order, rule="616.1"))
    return [(to, x) for to, x in [(recipient, k), *out] if x > 0]


def _pending(s: GameState, source: int, recipient: Ref, n: int, orders: Sequence[Order],
             used: frozenset[int] = frozenset()) -> tuple[Ref, str, list[str]] | None:
    """The recipient, affected player and choices of the first damage event whose order
    is still open: this one, or one a redirection makes of it (616.1 applies again)."""
    kinds, found = modifiers(s, recipient, used), _shields(s, recipient, used)
    caps = {kind: f.amount for kind, f in found.items()}
    chosen = _chosen(orders, source, recipient)
    choices = _open(kinds, chosen, n, caps) if n > 0 else []
    player = affected_player(s, recipient)
    if choices and player is not None:
        return recipient, player, choices
    k = n
    for kind in _order(kinds, chosen, n, caps) if n > 0 else []:
        f = found.get(kind)
        if f is None or f.redirect is None:
            k = _apply(kind, k)
            continue
        x = min(k, f.amount)
        k -= x
        nxt = _pending(s, source, f.redirect[1], x, orders, used | {f.id})
        if nxt is not None:
            return nxt
    return None


def ask(t: Txn, m: Marker, dealt: Sequence[Dealt], orders: Sequence[Order],
        item: StackItem | None = None, index: int = 0) -> bool:
    """Ask the affected player of the first damage event whose order is still open
    (616.1e); a resolving `item` pauses at effect `index`. True while asked."""
    for source, recipient, n in dealt:
        pending = _pending(t.s, source, recipient, n, orders)
        if pending is None:
            continue
        to, player, choices = pending
        if item is not None:
            t.emit(ev.ResolutionPaused(item=item.id, resume_at=index, rule="616.1"))
        options = [source] if isinstance(to, PlayerRef) else [source, to.obj]
        t.emit(ev.DecisionRequested(marker=m.number, kind=KIND, player=player,
                                    options=options, choices=choices,
                                    stack_item=item.id if item is not None else None,
                                    rule="616.1e"))
        return True
    return False


def item_orders(item: StackItem) -> list[Order]:
    """The orders chosen while `item` resolves (`StackItem.chosen`, "order:...")."""
    out: list[Order] = []
    for c in item.chosen:
        if c.startswith("order:"):
            _, src, effect, recipient = c.split(":", 3)
            out.append((int(src), recipient, effect))
    return out


def _choices(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    return [ChooseOption(player=d.player, option=c, marker=m.number) for c in d.choices]


def _left_game(t: Txn, m: Marker, d: Decision, player: str) -> bool:
    """800.4a: the affected player left; the damage goes on without them."""
    _go_on(t, m, d)
    return True


def _go_on(t: Txn, m: Marker, d: Decision) -> None:
    marker = t.s.markers[m.number]
    if d.stack_item is not None and d.stack_item in t.s.stack_items:
        resume(t, marker, t.s.stack_items[d.stack_item])
        return
    COMBAT_DAMAGE.value(t, marker)


@decision(KIND, ChooseOption, _choices, on_leave=_left_game)
def _answer(t: Txn, m: Marker, d: Decision, cmd: ChooseOption) -> None:
    """The effect to apply next is recorded; the resolution or the combat damage goes
    on (and may ask again, 616.1e)."""
    if cmd.option not in d.choices:
        raise RuleViolation("616.1e", f"{cmd.option!r} is not one of {list(d.choices)}")
    recipient = player_ref(d.player) if len(d.options) == 1 else object_ref(d.options[1])
    t.emit(ReplacementOrderChosen(marker=m.number, item=d.stack_item, player=d.player,
                                  source=d.options[0], recipient=str(recipient),
                                  effect=cmd.option, rule="616.1e"))
    _go_on(t, m, d)


@applies(ReplacementOrderChosen)
def _order_chosen(s: GameState, e: ReplacementOrderChosen) -> None:
    if e.item is not None:
        it = s.stack_items[e.item]
        s.stack_items[e.item] = replace(
            it, chosen=(*it.chosen, f"order:{e.source}:{e.effect}:{e.recipient}"))
        return
    combat = s.markers[e.marker].combat
    if combat is not None:
        set_marker(s, e.marker, combat=replace(combat, replacement_orders=(
            *combat.replacement_orders, (e.source, e.recipient, e.effect))))


@applies(DamageModified)
def _modified(s: GameState, e: DamageModified) -> None:
    """Nothing changes until the damage is dealt (`DamageDealt`)."""


@explains(ReplacementOrderChosen)
def _explain_order(before: GameState, e: ReplacementOrderChosen, name: Namer) -> str:
    return (f"{e.player} applies {e.effect} next to {name(e.source)}'s damage to "
            f"{_recipient(e.recipient, name)}")


@explains(DamageModified)
def _explain_modified(before: GameState, e: DamageModified, name: Namer) -> str:
    return (f"{name(e.source)}'s {e.would} damage to {_recipient(e.recipient, name)} "
            f"becomes {e.amount} ({', then '.join(e.effects)})")


def _recipient(text: str, name: Namer) -> str:
    ref = parse_ref(text)
    return ref.player if isinstance(ref, PlayerRef) else name(ref.obj)


static_effect(DoubleDamageToOpponents, PreventHalfDamageToYou)  # interpreted above


@wording(DoubleDamageToOpponents)
def _double_wording(eff: DoubleDamageToOpponents, ctx: Context) -> str:
    return ("if a source would deal damage to an opponent or a permanent an opponent "
            "controls, that source deals double that damage to that player or permanent "
            "instead.")


@wording(PreventHalfDamageToYou)
def _half_wording(eff: PreventHalfDamageToYou, ctx: Context) -> str:
    return ("if a source would deal damage to you or a permanent you control, prevent "
            "half that damage, rounded up.")


GISELA_BLADE_OF_GOLDNIGHT = add_card(card(
    "Gisela, Blade of Goldnight", kw("flying"), kw("first_strike"),
    StaticAbility(effects=(DoubleDamageToOpponents(),)),
    StaticAbility(effects=(PreventHalfDamageToYou(),))))

#: damage to the player a trigger names, asked like any other (616.1; a scenario's card)
AETHER_STING = add_card(card(
    "Aether Sting", TriggeredAbility(event="opponent_casts_creature_spell",
                                     effects=(DealDamage(amount=1, to="that_player"),))))
