"""`legal_actions(state, player)`: what a player may do now.

Every command listed here is accepted by `decide` (a property test checks it). With
priority: passing, then what each rule lists (`kernel.actions.PRIORITY_ACTIONS`:
`stack.playable`, cycling); for a decision: its kind's answers
(`kernel.decisions.DecisionKind.legal`). For choices whose space is combinatorial (which
creatures attack or block, how a Fireball is split), a representative set is listed:
none, each single choice, and all at once; `decide` validates any other combination by
the same rules.
"""

from __future__ import annotations

from dataclasses import replace

from arbiter_core.kernel.actions import ALL, PRIORITY_ACTIONS
from arbiter_core.kernel.commands import Concede, PassPriority, PlayerCommand
from arbiter_core.kernel.decisions import DECISIONS
from arbiter_core.kernel.memo import Pinned
from arbiter_core.kernel.state import Decision, GameState, Priority
from arbiter_core.stack.priority import holds_priority


def legal_actions(s: GameState, player: str) -> list[PlayerCommand]:
    with Pinned(s):  # a query: facts about the state are kept while it runs (memo.py)
        return _legal_actions(s, player)


def _legal_actions(s: GameState, player: str) -> list[PlayerCommand]:
    if s.game_over or player not in s.players or s.players[player].left:
        return []
    out: list[PlayerCommand] = []
    for m in s.markers.values():
        p = m.pending
        # 805.5a: with shared team turns any player of the team may act for it.
        if isinstance(p, Priority) and holds_priority(s, m, player):
            out.append(PassPriority(player=player, marker=m.number))
            for lister in PRIORITY_ACTIONS[ALL]:
                out.extend(lister(s, m, player))
        elif isinstance(p, Decision) and _listed(s, p, player):
            out.extend(DECISIONS[p.kind].legal(s, m, replace(p, player=player)))
    out.append(Concede(player=player))
    return out


def _listed(s: GameState, d: Decision, player: str) -> bool:
    if d.player == player:
        return True
    kind = DECISIONS.get(d.kind)
    return kind is not None and kind.team_listed and s.shared_team_turns and (
        s.players[d.player].team == s.players[player].team)

