"""The start of the game (CR 103) in the pure core: the starting player chosen with the
game's seed and recorded (103.1), the London mulligan in seeded bot games (103.5, with
the free first mulligan of 103.5c), the variant hooks other variants override (103.5a
Vanguard's hand size, Brawl's free mulligan), and games started without these options
(scenarios, games stored before them) starting exactly as before."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from arbiter_core.game.mulligan import CardsPutOnBottom, MulliganDeclared, MulliganTaken
from arbiter_core.game.start import StartingPlayerChosen
from arbiter_core.kernel.commands import (
    ChooseObjects,
    ChooseOption,
    Concede,
    PlayerSetup,
    RunEngineWork,
    StartGame,
)
from arbiter_core.kernel.decide import decide
from arbiter_core.kernel.errors import RuleViolation
from arbiter_core.kernel.events import Event
from arbiter_core.kernel.evolve import apply, empty_state
from arbiter_core.kernel.shell_loop import owed_marker
from arbiter_core.kernel.state import Decision, GameState, Work
from arbiter_core.variants.base import VARIANTS, Variant
from arbiter_core.views.legal import legal_actions
from arbiter_runtime.bots import RandomBot
from arbiter_runtime.decks import deck_for_seat
from arbiter_runtime.play import team_names, waiting_players

MAX_EVENTS = 3000  # the start of a game is all these tests look at


def start(variant: str, players: int, seed: int, **options: bool) -> StartGame:
    teams = team_names(variant, players)
    return StartGame(game_id="g", variant=variant, seed=seed, random_seating=True,
                     players=[PlayerSetup(name=f"P{i + 1}", team=teams[i],
                                          deck=deck_for_seat(i)) for i in range(players)],
                     **options)


def run(s: GameState, command: object) -> list[Event]:
    events = decide(s, command)  # type: ignore[arg-type]
    for e in events:
        apply(s, e)
    return events


def bot_game(variant: str, players: int, seed: int, **options: bool
             ) -> Iterator[tuple[GameState, Event]]:
    """The loop of `play_bot_game` on the pure core, up to MAX_EVENTS events."""
    s = empty_state()
    cmd = start(variant, players, seed, **options)
    for e in run(s, cmd):
        yield s, e
    bots = {p.name: RandomBot(seed * 1000 + i) for i, p in enumerate(cmd.players)}
    while not s.game_over and s.version < MAX_EVENTS:
        marker = owed_marker(s)
        if marker is not None:
            for e in run(s, RunEngineWork(marker=marker)):
                yield s, e
            continue
        player = waiting_players(s)[0]
        action = bots[player].choose(s, player)
        assert action is not None
        for e in run(s, action):
            yield s, e


ON = {"random_start": True, "mulligans": True, "order_triggers": True}


def test_the_starting_player_is_chosen_with_the_seed_and_recorded() -> None:
    """103.1: one StartingPlayerChosen, the same for the same seed; over seeds every
    seat starts some game; the first marker goes to the chosen player."""
    chosen = {}
    for seed in range(12):
        s = empty_state()
        events = run(s, start("free_for_all", 4, seed, random_start=True))
        picks = [e for e in events if isinstance(e, StartingPlayerChosen)]
        assert len(picks) == 1 and picks[0].rule == "103.1"
        assert s.markers[1].holder == picks[0].player
        again = run(empty_state(), start("free_for_all", 4, seed, random_start=True))
        assert again == events
        chosen[seed] = picks[0].player
    assert set(chosen.values()) == {"P1", "P2", "P3", "P4"}


def test_without_the_options_the_game_starts_as_before() -> None:
    """Scenarios and stored games: the first seat starts, hands are kept, no new event."""
    s = empty_state()
    events = run(s, start("two_player", 2, 1))
    new = (StartingPlayerChosen, MulliganDeclared, MulliganTaken, CardsPutOnBottom)
    assert not [e for e in events if isinstance(e, new)]
    assert s.markers[1].holder == s.seats[0]
    assert s.markers[1].pending == Work("turn_based_actions")
    assert not s.order_triggers


@pytest.mark.parametrize(("variant", "players"), [
    ("two_player", 2), ("free_for_all", 4), ("two_headed_giant", 4), ("emperor", 6)])
def test_seeded_bot_games_mulligan(variant: str, players: int) -> None:
    """Across seeded bot games players mulligan, some more than once; a bottom choice
    puts as many cards as the mulligans that count (none for the free first one in
    multiplayer, 103.5c); every hand ends kept before the first turn begins."""
    taken: Counter[tuple[int, str]] = Counter()
    bottoms: list[tuple[int, str, int]] = []
    for seed in range(1, 9):
        for s, e in bot_game(variant, players, seed, **ON):
            if isinstance(e, MulliganTaken):
                taken[(seed, e.player)] += 1
                free = players > 2
                assert e.bottom == taken[(seed, e.player)] - (1 if free else 0)
                assert len(s.zone(e.player, "hand")) == 7
            elif isinstance(e, CardsPutOnBottom):
                bottoms.append((seed, e.player, len(e.cards)))
                assert len(s.zone(e.player, "hand")) == 7 - len(e.cards)
            elif e.type == "TurnBegan":
                assert all(p.kept for p in s.players.values())
                break
    assert taken, "nobody took a mulligan"
    assert max(taken.values()) >= 2, "nobody took two mulligans"
    assert bottoms


def test_mulligan_decisions_are_checked() -> None:
    s = empty_state()
    run(s, start("two_player", 2, 3, mulligans=True))
    first, second = s.seats
    d = s.markers[1].pending
    assert isinstance(d, Decision) and d.kind == "mulligan" and d.player == first
    with pytest.raises(RuleViolation):
        run(s, ChooseOption(player=second, option="keep"))  # 103.5: the first declares first
    with pytest.raises(RuleViolation):
        run(s, ChooseOption(player=first, option="maybe"))
    run(s, ChooseOption(player=first, option="mulligan"))
    run(s, ChooseOption(player=second, option="keep"))
    d = s.markers[1].pending
    assert isinstance(d, Decision) and d.kind == "mulligan_bottom" and d.count == 1
    with pytest.raises(RuleViolation):
        run(s, ChooseObjects(player=first, choices=list(d.options[:2])))
    card = s.objects[d.options[0]].card
    run(s, ChooseObjects(player=first, choices=[d.options[0]]))
    bottom = s.zone(first, "library")[-1]
    assert bottom not in d.options and s.objects[bottom].card == card  # 400.7, the bottom
    assert len(s.zone(first, "hand")) == 6


class _BigHands(Variant):
    """A variant overriding the start's hooks, as Vanguard (103.5a) and Brawl (103.5c)
    do."""

    name = "test_big_hands"

    def starting_hand_size(self, s: GameState, player: str) -> int:
        return 9 if player == s.seats[0] else 5

    def free_first_mulligan(self, s: GameState) -> bool:
        return True


def test_the_variant_hooks_set_hand_size_and_the_free_mulligan() -> None:
    VARIANTS.add(_BigHands.name, _BigHands())
    try:
        s = empty_state()
        run(s, start(_BigHands.name, 2, 3, mulligans=True))
        first, second = s.seats
        assert len(s.zone(first, "hand")) == 9 and len(s.zone(second, "hand")) == 5
        run(s, ChooseOption(player=first, option="mulligan"))
        run(s, ChooseOption(player=second, option="keep"))
        # the first mulligan is free: nine new cards, none to the bottom, asked again
        assert len(s.zone(first, "hand")) == 9
        d = s.markers[1].pending
        assert isinstance(d, Decision) and d.kind == "mulligan"
    finally:
        VARIANTS.table.pop(_BigHands.name)


def test_no_mulligan_once_the_hand_would_be_empty() -> None:
    """103.5: mulligans until the opening hand would be zero cards, then it is kept."""
    s = empty_state()
    run(s, start("two_player", 2, 5, mulligans=True))
    first, second = s.seats
    run(s, ChooseOption(player=first, option="keep"))
    for n in range(1, 8):
        run(s, ChooseOption(player=second, option="mulligan"))
        d = s.markers[1].pending
        assert isinstance(d, Decision) and d.kind == "mulligan_bottom" and d.count == n
        run(s, ChooseObjects(player=second, choices=list(d.options[:n])))
    assert len(s.zone(second, "hand")) == 0 and s.players[second].kept
    assert s.markers[1].pending == Work("turn_based_actions")


def test_a_player_who_concedes_during_the_mulligans_owes_nothing() -> None:
    """800.4a: the procedure goes on without them; the first turn begins for the others
    (the next player in turn order starts if the starting player left)."""
    s = empty_state()
    run(s, start("free_for_all", 3, 2, mulligans=True))
    first, second, third = s.seats
    run(s, Concede(player=first))
    d = s.markers[1].pending
    assert isinstance(d, Decision) and d.kind == "mulligan" and d.player == second
    run(s, ChooseOption(player=second, option="keep"))
    run(s, ChooseOption(player=third, option="keep"))
    assert s.markers[1].holder == second and not s.game_over
    assert s.markers[1].pending == Work("turn_based_actions")


def _leyline_2hg() -> GameState:
    s = empty_state()
    run(s, StartGame(game_id="g", variant="two_headed_giant", seed=1, players=[
        PlayerSetup(name=n, team=n[0], deck=["Leyline of Sanctity"] * 20)
        for n in ("A1", "A2", "B1", "B2")]))
    return s


def test_the_starting_team_chooses_who_takes_opening_hand_actions_first() -> None:
    """103.6c, 805.3b: with shared team turns the starting team's players act in the
    order the team likes: the team is asked who acts next (a teammate may answer, 805.2;
    the other team may not), the answer is recorded, and that player is asked; the bots'
    answers are the listed ones, so their seeded generator picks the order."""
    s = _leyline_2hg()
    d = s.markers[1].pending
    assert isinstance(d, Decision) and d.kind == "opening_hand_order"
    assert (d.player, d.choices) == ("A1", ("A1", "A2"))
    assert {a.option for a in legal_actions(s, "A1") if isinstance(a, ChooseOption)} == {
        "A1", "A2"}
    picks = {RandomBot(seed).choose(s, "A1") for seed in range(20)}
    assert {p.option for p in picks if isinstance(p, ChooseOption)} == {"A1", "A2"}
    for wrong in (ChooseOption(player="B1", option="A1"),
                  ChooseOption(player="A2", option="B1")):
        with pytest.raises(RuleViolation):
            run(s, wrong)
    events = run(s, ChooseOption(player="A2", option="A2"))
    assert [e.type for e in events][:1] == ["OpeningHandOrderChosen"]
    d = s.markers[1].pending
    assert isinstance(d, Decision) and (d.kind, d.player) == ("opening_hand", "A2")
    run(s, ChooseObjects(player="A2", choices=[d.options[0]]))
    d = s.markers[1].pending  # A1 is the last of the team: asked without a choice of order
    assert isinstance(d, Decision) and (d.kind, d.player) == ("opening_hand", "A1")
    run(s, ChooseObjects(player="A1", choices=[]))
    d = s.markers[1].pending  # the other team in turn order
    assert isinstance(d, Decision) and (d.kind, d.player) == ("opening_hand", "B1")


def test_a_teammate_who_leaves_while_the_team_chooses_is_not_chosen() -> None:
    """800.4a: a player who leaves owes nothing; the team chooses among those still in
    the game, and when the player asked leaves, the team is asked again."""
    s = empty_state()
    run(s, StartGame(game_id="g", variant="team_vs_team", seed=1, shared_team_turns=True,
                     players=[PlayerSetup(name=n, team=n[0],
                                          deck=["Leyline of Sanctity"] * 20)
                              for n in ("A1", "A2", "A3", "B1", "B2", "B3")]))
    d = s.markers[1].pending
    assert isinstance(d, Decision) and d.kind == "opening_hand_order"
    asked, *others = d.choices
    run(s, Concede(player=others[0]))
    assert {a.option for a in legal_actions(s, asked)
            if isinstance(a, ChooseOption)} == {asked, others[1]}
    with pytest.raises(RuleViolation):
        run(s, ChooseOption(player=asked, option=others[0]))
    run(s, Concede(player=asked))
    d = s.markers[1].pending  # one player of the team left to act: asked directly
    assert isinstance(d, Decision) and (d.kind, d.player) == ("opening_hand", others[1])
