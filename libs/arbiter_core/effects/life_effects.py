"""What the life effects of the card model do as they resolve (CR 608.2c, 119): gain and
lose life, doubling, setting and exchanging life totals (701.12), redistributing them
(119.5, with a player's decision), every total becoming the lowest (810.9d: a Two-Headed
Giant team chooses the member affected), and poison counters (122.1f, 810.10). The
rules for life itself are in `life`."""

from __future__ import annotations

from arbiter_core.cards.model import (
    CantGetPoison,
    DoubleLife,
    ExchangeLifeTotals,
    GainLife,
    GainLifePerLifeLost,
    GivePoison,
    LifeBecomesLowest,
    LifeCantChange,
    LoseAllPoison,
    LoseLife,
    NoMinusCountersOnYourCreatures,
    RedistributeLifeTotals,
    SetLifeTotal,
)
from arbiter_core.effects import life
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseOption, PlayerCommand
from arbiter_core.kernel.decisions import decision
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.state import Decision, GameState, Marker, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.multiplayer.influence import player_in_range
from arbiter_core.multiplayer.seating import apnap_order, team_representative
from arbiter_core.stack.items import (
    Legal,
    amount,
    effect,
    group,
    player_of,
    players_of,
    static_effect,
)
from arbiter_core.stack.resolve import resume

static_effect(LifeCantChange, CantGetPoison, NoMinusCountersOnYourCreatures)  # `life`


@effect(GainLife)
def _gain_life(t: Txn, m: Marker, item: StackItem, eff: GainLife, legal: Legal,
               index: int) -> bool:
    life.gain(t, item.controller, amount(t, item, eff.amount), "119.6")
    return False


@effect(LoseLife)
def _lose_life(t: Txn, m: Marker, item: StackItem, eff: LoseLife, legal: Legal,
               index: int) -> bool:
    """The attacking player fixed on triggering loses life (805.10c), within range
    (801.10)."""
    who = item.that_player
    if who is not None and player_in_range(t.s, item.controller, who):
        life.lose(t, who, amount(t, item, eff.amount),
                  "805.10c" if t.s.shared_team_turns else "119.3")
    return False


@effect(GainLifePerLifeLost)
def _gain_per_life_lost(t: Txn, m: Marker, item: StackItem, eff: GainLifePerLifeLost,
                        legal: Legal, index: int) -> bool:
    if item.amount > 0:
        life.gain(t, item.controller, eff.per_point * item.amount, "119.6")
    return False


@effect(DoubleLife)
def _double_life(t: Txn, m: Marker, item: StackItem, eff: DoubleLife, legal: Legal,
                 index: int) -> bool:
    for who in players_of(group(legal, eff.target)):
        gained = max(0, t.s.players[who].life)  # 810.9a: a 2HG team's total
        if gained:
            life.gain(t, who, gained, "119.5")
    return False


@effect(SetLifeTotal)
def _set_life_total(t: Txn, m: Marker, item: StackItem, eff: SetLifeTotal, legal: Legal,
                    index: int) -> bool:
    for who in players_of(group(legal, eff.target)):
        life.set_total(t, who, eff.amount)
    return False


@effect(ExchangeLifeTotals)
def _exchange(t: Txn, m: Marker, item: StackItem, eff: ExchangeLifeTotals, legal: Legal,
              index: int) -> bool:
    players = players_of(group(legal, eff.target))
    if len(players) == 2:  # 701.12a: with one target gone, no exchange
        life.exchange(t, players[0], players[1])
    return False


@effect(GivePoison)
def _give_poison(t: Txn, m: Marker, item: StackItem, eff: GivePoison, legal: Legal,
                 index: int) -> bool:
    who = player_of(item, eff.who, legal)
    if who is not None:
        life.give_poison(t, who, eff.count)
    return False


@effect(LoseAllPoison)
def _lose_all_poison(t: Txn, m: Marker, item: StackItem, eff: LoseAllPoison, legal: Legal,
                     index: int) -> bool:
    for who in players_of(group(legal, eff.target)):
        life.lose_all_poison(t, who)
    return False


# ------------------------------------------------------------------ redistribution


@effect(RedistributeLifeTotals)
def _ask_redistribution(t: Txn, m: Marker, item: StackItem, eff: RedistributeLifeTotals,
                        legal: Legal, index: int) -> bool:
    """"Redistribute any number of players' life totals": the controller chooses the
    players and which of their totals each gets - a choice of players, so among those
    within range (801.5a). Answered as "P=Q,..." (P's life total becomes Q's)."""
    s = t.s
    if s.players[item.controller].left:
        return False
    players = [p for p in s.in_game() if player_in_range(s, item.controller, p)]
    t.emit(ev.ResolutionPaused(item=item.id, resume_at=index + 1, rule="608.2d"))
    t.emit(ev.DecisionRequested(marker=m.number, kind="redistribute", player=item.controller,
                                choices=players, count=len(players), min_count=0,
                                stack_item=item.id, rule="119.5"))
    return True


def parse_redistribution(s: GameState, option: str, offered: tuple[str, ...]
                         ) -> dict[str, str] | tuple[str, str]:
    """The mapping player -> whose previous life total they get, or (rule, reason) when
    it isn't a redistribution: every player named once on each side, each offered
    (801.5a), and in Two-Headed Giant at most one member of a team (810.9f)."""
    pairs = [part.split("=") for part in option.replace(" ", "").split(",") if part]
    if any(len(p) != 2 for p in pairs):
        return ("119.5", "write the redistribution as P=Q,... (P gets Q's life total)")
    mapping = {p: q for p, q in pairs}
    if len(mapping) != len(pairs) or set(mapping) != set(mapping.values()):
        return ("119.5", "each chosen player gets exactly one of the chosen life totals")
    outside = [p for p in mapping if p not in offered]
    if outside:
        in_game = outside[0] in s.players and not s.players[outside[0]].left
        return ("801.5a" if in_game else "119.5", f"{outside[0]} can't be chosen")
    teams = [s.players[p].team for p in mapping]
    if s.shared_life and len(set(teams)) != len(teams):
        return ("810.9f", "at most one member of each team can be affected")
    return mapping


def redistribute(t: Txn, mapping: dict[str, str]) -> None:
    """Each chosen player gains or loses life to get the chosen previous total (119.5,
    at once); a player whose life can't change keeps theirs (119.7-119.8)."""
    before = {p: t.s.players[p].life for p in mapping}
    rule = "810.9f" if t.s.shared_life else "119.5"
    for p, q in mapping.items():
        delta = before[q] - before[p]
        if delta > 0:
            life.gain(t, p, delta, rule)
        elif delta < 0:
            life.lose(t, p, -delta, rule)


def _redistribution_answers(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    return [ChooseOption(player=d.player, option="", marker=m.number)]  # nobody


@decision("redistribute", ChooseOption, _redistribution_answers)
def _redistributed(t: Txn, m: Marker, d: Decision, cmd: ChooseOption) -> None:
    mapping = parse_redistribution(t.s, cmd.option, d.choices)
    if isinstance(mapping, tuple):
        raise RuleViolation(*mapping)
    assert d.stack_item is not None
    redistribute(t, mapping)
    resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])


# ------------------------------------------------------------------ the lowest total


@effect(LifeBecomesLowest)
def _become_lowest(t: Txn, m: Marker, item: StackItem, eff: LifeBecomesLowest, legal: Legal,
                   index: int) -> bool:
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
            life.gain(t, p, delta, "810.9d" if s.shared_life else "119.5")
        elif delta < 0:
            life.lose(t, p, -delta, "810.9d" if s.shared_life else "119.5")
    return False


def _members(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    return [ChooseOption(player=d.player, option=c, marker=m.number) for c in d.choices]


@decision("choose_team_member", ChooseOption, _members, team_answers=True)
def _member_chosen(t: Txn, m: Marker, d: Decision, cmd: ChooseOption) -> None:
    """810.9d: the team's choice, made by any of its players (805.2)."""
    if cmd.option not in d.choices:
        raise RuleViolation(d.rule, f"{cmd.option!r} is not one of {list(d.choices)}")
    assert d.stack_item is not None
    t.emit(ev.TeamMemberChosen(item=d.stack_item, player=cmd.option, rule="810.9d"))
    resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])
