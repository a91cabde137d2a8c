"""What waited on a player who left the game moves on (CR 800.4a, 800.4h, 800.4j):
their priority goes to the next player in turn order, their declarations are empty, and
a choice the rules ask of them is made by the next player."""

from __future__ import annotations

from arbiter_core.combat import damage as combat_damage
from arbiter_core.combat import declare as combat
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.state import Decision, Marker, Priority, Waiting, Work
from arbiter_core.kernel.txn import Txn
from arbiter_core.stack import choices
from arbiter_core.stack.priority import priority_players, queue_priority
from arbiter_core.variants.base import next_in_turn_order, team_representative


def after_all_left(t: Txn, players: list[str]) -> None:
    """Every marker waiting on one of `players` moves on."""
    for player in players:
        for number in list(t.s.markers):
            if number in t.s.markers:
                after_leave(t, t.s.markers[number], player)


def after_leave(t: Txn, m: Marker, player: str) -> None:
    """Whatever waited on a player who left moves on (CR 800.4a, 800.4h, 800.4j)."""
    p = m.pending
    if isinstance(p, Decision) and p.stack_item is not None and (
            p.stack_item not in t.s.stack_items):
        queue_priority(t, m.number, m.holder)  # its spell left with its controller (800.4a)
        return
    if isinstance(p, Work | Waiting) or p.player != player:
        return
    if isinstance(p, Decision) and p.kind in ("choose_mode", "choose_opponent") and (
            p.stack_item is not None and choices.casting_choice(t.s, p)):
        # 800.4g: the mode an opponent who left was to choose is chosen by another
        # opponent the caster names (Misfortune).
        choices.ask_mode(t, m, t.s.stack_items[p.stack_item])
        return
    if isinstance(p, Decision) and p.kind == "pay_life_for" and p.stack_item is not None:
        from arbiter_core.stack import resolve

        resolve.resume(t, m, t.s.stack_items[p.stack_item])  # the others choose (800.4a)
        return
    if isinstance(p, Decision) and p.kind == "choose_card" and p.stack_item is not None:
        # 800.4g: a choice the effect asked of a player who left is made by another
        # player the controller names (another opponent, if possible): the effect asks
        # again (Murmurs from Beyond).
        from arbiter_core.stack import resolve

        resolve.resume(t, m, t.s.stack_items[p.stack_item])
        return
    if isinstance(p, Decision) and t.s.shared_team_turns and p.kind in (
            "declare_attackers", "declare_blockers", "assign_combat_damage"):
        mates = [q for q in t.s.team_of(player) if not t.s.players[q].left]
        if mates:
            _team_choice_passes_on(t, m, p, team_representative(t.s, mates[0]))
            return
    if isinstance(p, Decision) and p.kind == "declare_blockers":
        t.emit(ev.BlockersDeclared(marker=m.number, player=player, blocks=[], rule="800.4a"))
        m = t.s.markers[m.number]
        if combat.request_blockers(t, m):
            return
        queue_priority(t, m.number, m.holder)
        return
    if isinstance(p, Decision) and p.kind == "assign_combat_damage":
        # The leaver's creatures are gone (800.4a): whatever still needs an assignment
        # is asked of the next player who assigns (802.5), or the damage is dealt.
        if not combat_damage.combat_damage(t, m):
            queue_priority(t, m.number, m.holder)
        return
    if isinstance(p, Decision) and p.kind == "declare_attackers":
        t.emit(ev.AttackersDeclared(marker=m.number, player=player, attacks=[],
                                    rule="800.4j"))
    if isinstance(p, Priority):
        # CR 800.4a: the next player in turn order gets priority in the leaver's place -
        # in Grand Melee the next one who gets priority for this stack at all (807.5a).
        order = priority_players(t.s, m)
        seats = t.s.seats
        i = seats.index(player)
        nxt = next((q for k in range(1, len(seats)) if (q := seats[(i + k) % len(seats)])
                    in order), None) or next_in_turn_order(t.s, player)
        queue_priority(t, m.number, nxt or m.holder)
        return
    queue_priority(t, m.number, m.holder)


def _team_choice_passes_on(t: Txn, m: Marker, d: Decision, nxt: str) -> None:
    """CR 800.4h: a choice the rules ask of a player who has left the game is made by the
    next player in turn order. With shared team turns the rules ask the team's primary
    player (805.2) for the team's attack, block or damage assignment (805.10b, d, f);
    when that player leaves, their teammate next in turn order - the team's new primary
    player - makes it, for what is left of the team."""
    if d.kind == "assign_combat_damage":
        if not combat_damage.combat_damage(t, m):  # recomputed; asks the team again
            queue_priority(t, m.number, m.holder)
        return
    options = [o for o in d.options if o in t.s.objects]
    if options:
        t.emit(ev.DecisionRequested(marker=m.number, kind=d.kind, player=nxt,
                                    options=options, count=d.count, rule="800.4h"))
        return
    if d.kind == "declare_attackers":
        t.emit(ev.AttackersDeclared(marker=m.number, player=nxt, attacks=[], rule="800.4h"))
        queue_priority(t, m.number, m.holder)
        return
    t.emit(ev.BlockersDeclared(marker=m.number, player=nxt, blocks=[], rule="800.4h"))
    if not combat.request_blockers(t, t.s.markers[m.number]):
        queue_priority(t, m.number, m.holder)
