"""One decision protocol: a decision a player owes (`Decision`, a marker's pending) is
asked by the rule that needs it and answered through the kind of decision it is.

Each kind of decision is registered once, beside its rule (`@decision("discard", ...)`
above its answer): which command answers it (`ChooseObjects`, `ChooseOption`, or a
command of its own such as `DeclareAttackers`, handled by its rule), the answer, the
answers a player may give (`legal`, listed by `legal_actions`), who else on the team may
answer (805.2, 805.5a), and what happens when the player it waits on leaves the game
(`on_leave`, 800.4a, 800.4h). `ChooseObjects` and `ChooseOption` are dispatched here;
`tests/structure/test_registries.py` fails on a kind asked anywhere but registered
nowhere.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from arbiter_core.kernel.commands import ChooseObjects, ChooseOption, PlayerCommand
from arbiter_core.kernel.decide import MARKER_FOR, handles
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.registry import Registry
from arbiter_core.kernel.state import Decision, GameState, Marker
from arbiter_core.kernel.txn import Txn

Answer = Callable[[Txn, Marker, Decision, Any], None]
Legal = Callable[[GameState, Marker, Decision], list[PlayerCommand]]
OnLeave = Callable[[Txn, Marker, Decision, str], bool]


@dataclass(frozen=True)
class DecisionKind:
    """A kind of decision. `answered_by` is the command class that answers it; `answer`
    is None when that command has a handler of its own (`decide.handles`). With shared
    team turns a teammate may answer when `team_answers` (805.2) and is offered the
    answers when `team_listed` (805.5a). `on_leave` moves the game on when the player it
    waits on leaves (True when it did), else the marker's holder gets priority."""

    name: str
    answered_by: type
    legal: Legal
    answer: Answer | None = None
    team_answers: bool = False
    team_listed: bool = False
    on_leave: OnLeave | None = None


DECISIONS: Registry[str, DecisionKind] = Registry("kind of decision")


def decision(name: str, answered_by: type, legal: Legal, *, team_answers: bool = False,
             team_listed: bool = False, on_leave: OnLeave | None = None
             ) -> Callable[[Answer], Answer]:
    """Register a kind of decision answered by `ChooseObjects` or `ChooseOption`, with
    the decorated function as its answer."""
    def add(answer: Answer) -> Answer:
        DECISIONS.add(name, DecisionKind(name, answered_by, legal, answer, team_answers,
                                         team_listed, on_leave))
        return answer
    return add


def answered_by_command(name: str, command: type, legal: Legal, *,
                        team_listed: bool = False, on_leave: OnLeave | None = None) -> None:
    """Register a kind of decision answered by a command with a handler of its own."""
    DECISIONS.add(name, DecisionKind(name, command, legal, None, True, team_listed,
                                     on_leave))


def may_answer(s: GameState, d: Decision, player: str, team: bool) -> bool:
    """The player asked, or with shared team turns a teammate when `team` (805.2)."""
    if d.player == player:
        return True
    return team and s.shared_team_turns and d.player in s.players and (
        s.players[d.player].team == s.players[player].team)


def _asked(t: Txn, player: str, marker: int | None, command: type,
           what: str) -> tuple[Marker, Decision, DecisionKind]:
    m = MARKER_FOR.value(t.s, player, marker)
    d = m.pending
    kind = DECISIONS.get(d.kind) if isinstance(d, Decision) else None
    if kind is None or kind.answered_by is not command or kind.answer is None or not (
            isinstance(d, Decision) and may_answer(t.s, d, player, kind.team_answers)):
        raise RuleViolation("117.1", f"{player} is not being asked to {what}")
    return m, d, kind


@handles(ChooseObjects)
def _choose_objects(t: Txn, cmd: ChooseObjects) -> None:
    m, d, kind = _asked(t, cmd.player, cmd.marker, ChooseObjects, "choose")
    assert kind.answer is not None
    kind.answer(t, m, d, cmd)


@handles(ChooseOption)
def _choose_option(t: Txn, cmd: ChooseOption) -> None:
    m, d, kind = _asked(t, cmd.player, cmd.marker, ChooseOption, "choose an option")
    assert kind.answer is not None
    kind.answer(t, m, d, cmd)


def check_choices(d: Decision, cmd: ChooseObjects) -> None:
    """Raise unless `cmd` chooses objects among the decision's options, as many as it
    asks (up to `count`, at least `min_count`), each once; the rule cited is the
    decision's own (608.2d: a choice made while an effect is applied)."""
    rule = d.rule or "608.2d"
    if cmd.players:
        raise RuleViolation(rule, "choose objects, not players")
    low = d.count if d.min_count is None else d.min_count
    if not low <= len(cmd.choices) <= d.count or len(set(cmd.choices)) != len(cmd.choices):
        raise RuleViolation(rule, f"choose exactly {d.count} of the options"
                            if low == d.count else f"choose up to {d.count} of the options")
    if any(c not in d.options for c in cmd.choices):
        raise RuleViolation(rule, "that is not one of the options")


def pending(s: GameState, m: Marker, kind: str, player: str) -> Decision:
    """The decision of `kind` that `player` must make, for a command of its own
    (declaring attackers, 508.1); with shared team turns a teammate may answer for the
    team (805.2, 805.10b, 805.10d). Raise 117.1 otherwise."""
    p = m.pending
    if not (isinstance(p, Decision) and p.kind == kind and may_answer(s, p, player, True)):
        raise RuleViolation("117.1", f"{player} is not being asked to {kind.replace('_', ' ')}")
    return p
