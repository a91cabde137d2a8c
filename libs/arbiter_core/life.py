"""Life (CR 119) and the Two-Headed Giant life rules (CR 810.9).

With a shared life total (2HG) each change happens to a player and applies to the team's
total (810.9); a player's own life total, when an effect asks for it, is the team's
(810.9a). The state keeps every member's `life` equal to the team total (evolve.py).
"""

from __future__ import annotations

from arbiter_core import events as ev
from arbiter_core.influence import player_in_range
from arbiter_core.state import Marker, StackItem
from arbiter_core.txn import Txn
from arbiter_core.variants import apnap_order, team_representative


def gain(t: Txn, player: str, amount: int, rule: str) -> None:
    if amount > 0 and not t.s.players[player].left:
        t.emit(ev.LifeGained(player=player, amount=amount, rule=rule))


def lose(t: Txn, player: str, amount: int, rule: str) -> None:
    if amount > 0 and not t.s.players[player].left:
        t.emit(ev.LifeLost(player=player, amount=amount, rule=rule))


def half_rounded_up(t: Txn, player: str) -> int:
    """"Half your life, rounded up" (CR 107.1a), of the team's total in 2HG (810.9a)."""
    life = t.s.players[player].life
    return (life + 1) // 2 if life > 0 else 0


def become_lowest(t: Txn, m: Marker, item: StackItem, index: int) -> bool:
    """Each player's life total becomes the lowest (CR 119.5: gain or lose the
    difference). Only players within the controller's range of influence are seen and
    affected (801.10, 801.11). CR 810.9d: with shared life each team chooses one of its
    members, and only that player is affected; the active team chooses first, then each
    other team in turn order (805.6), and then the changes happen at once. Returns True
    while resolution waits for a team's choice."""
    s = t.s
    players = [p for p in apnap_order(s, m.holder) if player_in_range(s, item.controller, p)]
    if not players:
        return False
    lowest = min(s.players[p].life for p in players)
    affected = players
    if s.shared_life:
        affected = []
        for team in dict.fromkeys(s.players[p].team for p in players):
            members = [p for p in players if s.players[p].team == team]
            chosen = next((p for p in item.chosen if p in members), None)
            if chosen is None and len(members) > 1:
                t.emit(ev.ResolutionPaused(item=item.id, resume_at=index, rule="608.2d"))
                t.emit(ev.DecisionRequested(marker=m.number, kind="choose_team_member",
                                            player=team_representative(s, members[0]),
                                            choices=members, count=1, stack_item=item.id,
                                            rule="810.9d"))
                return True
            affected.append(chosen or members[0])
    for p in affected:
        delta = lowest - s.players[p].life
        if delta > 0:
            gain(t, p, delta, "810.9d" if s.shared_life else "119.5")
        elif delta < 0:
            lose(t, p, -delta, "810.9d" if s.shared_life else "119.5")
    return False
