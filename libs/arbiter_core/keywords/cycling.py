"""Cycling (CR 702.29): "Cycling [cost]" means "[Cost], Discard this card: Draw a
card." (702.29a). It is an activated ability that functions only while the card is in
its owner's hand; it uses the stack (602.2) and can be activated whenever its owner
has priority (no timing restriction, 602.5). The discard is part of the cost, paid as
it is activated (602.2b, 601.2h): that discard is "cycling" the card, which triggers
"whenever a player cycles a card" (Astral Slide, 702.29c-d; the watcher below on
`CardCycled`). The draw happens as the ability resolves (its meaning, below).
"""

from __future__ import annotations

from collections.abc import Sequence

from arbiter_core.cards.model import CardDefinition, CyclingAbility, DrawCards
from arbiter_core.cards.render import ability_wording
from arbiter_core.cards.render_words import cost_text
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.actions import priority_actions
from arbiter_core.kernel.commands import ActivateAbility, PlayerCommand
from arbiter_core.kernel.errors import InvalidCommand, RuleViolation
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import GameState, Marker, Obj
from arbiter_core.kernel.txn import Txn, watch
from arbiter_core.layers.characteristics import definition
from arbiter_core.multiplayer.influence import player_in_range
from arbiter_core.stack.casting import HAND_ABILITIES
from arbiter_core.stack.items import Meaning, ability_effects
from arbiter_core.stack.mana import can_pay, parse_cost, pay
from arbiter_core.stack.priority import queue_priority, require_priority
from arbiter_core.stack.triggers import each_triggered


def cycling_ability(o: Obj, index: int) -> CyclingAbility | None:
    abilities = definition(o).abilities
    ab = abilities[index] if 0 <= index < len(abilities) else None
    return ab if isinstance(ab, CyclingAbility) else None


def _activate(t: Txn, cmd: ActivateAbility) -> None:
    """CR 702.29a, 602.2: a card in the player's own hand; announce it (the ability on
    the stack), pay the mana and discard the card (the costs), then the player receives
    priority (117.3c)."""
    s = t.s
    m = require_priority(s, cmd.player, cmd.marker)
    o = s.objects[cmd.source]
    ab = cycling_ability(o, cmd.ability)
    if ab is None:
        raise RuleViolation("702.29a", f"{o.name} can't be activated from the hand: only "
                                       "cycling functions there")
    if o.owner != cmd.player:
        raise RuleViolation("602.2", f"{o.name} is not in {cmd.player}'s hand")
    if cmd.targets:
        raise InvalidCommand("targets", "cycling has no targets")
    cost = parse_cost(ab.cost.mana)
    if not can_pay(s, cmd.player, cost):
        raise RuleViolation("602.2b", f"{cmd.player} can't pay {ab.cost.mana}")
    t.emit(ev.AbilityActivated(player=cmd.player, source=o.id, ability=cmd.ability,
                               item=t.new_id(), marker=m.number, rule="702.29a"))
    pay(t, cmd.player, cost, cmd.pay)
    t.emit(ev.ObjectMoved(obj=o.id, new_id=t.new_id(), to_zone="graveyard",
                          to_player=o.owner, rule="702.29a"))  # discard (701.9a)
    t.emit(ev.CardCycled(player=cmd.player, card=o.id, name=o.name, rule="702.29a"))
    queue_priority(t, m.number, cmd.player)


HAND_ABILITIES.add(CyclingAbility, _activate)


@priority_actions(order=20)
def _cycles(s: GameState, m: Marker, player: str) -> list[PlayerCommand]:
    """Every card in the player's hand that they can cycle now (for legal_actions)."""
    marker = m.number
    out: list[PlayerCommand] = []
    for oid in s.zone(player, "hand"):
        o = s.objects[oid]
        for i, ab in enumerate(definition(o).abilities):
            if isinstance(ab, CyclingAbility) and can_pay(s, player, parse_cost(ab.cost.mana)):
                out.append(ActivateAbility(player=player, source=oid, ability=i, marker=marker))
    return out


@applies(ev.CardCycled)
def _cycled(s: GameState, e: ev.CardCycled) -> None:
    """The discard is its `ObjectMoved`; this records that it was cycling (702.29c-d)."""


@ability_effects(CyclingAbility)
def _meaning(ab: CyclingAbility) -> Meaning:
    return (), (DrawCards(),)  # CR 702.29a: "Draw a card."


@watch(ev.CardCycled, order=90)
def _player_cycles(s: GameState, e: ev.CardCycled, current: int | None, before: Obj | None
                   ) -> Sequence[ev.Event]:
    """"Whenever a player cycles a card" (702.29c-d), within range (801.7)."""
    cycler = e.player
    return each_triggered(s, None, "player_cycles", current,
                          lambda o, ab: player_in_range(s, o.controller, cycler),
                          that_player=cycler)


@ability_wording(CyclingAbility)
def _wording(ability: CyclingAbility, card: CardDefinition) -> str:
    """"Cycling [cost]" (702.29a), with its reminder text when the Oracle prints it."""
    cost = cost_text(ability.cost)
    text = f"Cycling {cost}"
    return text + (f" ({cost}, Discard this card: Draw a card.)" if ability.reminder else "")


@explains(ev.CardCycled)
def _explain_card_cycled(before: GameState, e: ev.CardCycled, name: Namer) -> str:
    return f"{e.player} cycles {e.name} (#{e.card})"
