"""Cards from outside the game in a Commander game (CR 903.11, 903.11a) on the pure core.

903.11: only an effect that specifically brings cards into Commander games may bring one
in; no card of the engine's pool is such an effect (Burning Wish finds nothing there:
scenario outside/burning-wish-in-commander). Where one may, 903.11a forbids a card with
the name of a card the player owns in the game and a card with a color outside the
commander's color identity: `game.outside.commander_may_bring`, checked here on a
Commander position with Krenko, Mob Boss (red) as Alice's commander.
"""

from __future__ import annotations

from arbiter_core.game.outside import commander_identity, commander_may_bring
from arbiter_core.kernel.commands import Command, PositionPlayer, RunEngineWork, SetUpPosition
from arbiter_core.kernel.decide import decide
from arbiter_core.kernel.events import CardSetup
from arbiter_core.kernel.evolve import apply, empty_state
from arbiter_core.kernel.shell_loop import owed_marker
from arbiter_core.kernel.state import GameState


def _do(s: GameState, command: Command) -> None:
    for e in decide(s, command):
        apply(s, e)
    while (m := owed_marker(s)) is not None:
        for e in decide(s, RunEngineWork(marker=m)):
            apply(s, e)


def _commander_game() -> GameState:
    s = empty_state()
    alice = {"battlefield": [CardSetup(name="Krenko, Mob Boss"), CardSetup(name="Mountain")],
             "hand": [CardSetup(name="Shock")],
             "library": [CardSetup(name="Mountain") for _ in range(5)]}
    bob = {"library": [CardSetup(name="Island") for _ in range(5)],
           "hand": [CardSetup(name="Lava Axe")]}
    _do(s, SetUpPosition(
        game_id="t", variant="commander", seed=1, turn=3, active="Alice",
        step="precombat_main",
        players=[PositionPlayer(name="Alice", zones=alice, commander="Krenko, Mob Boss",
                                outside=["Lightning Bolt", "Shock", "Doom Blade"]),
                 PositionPlayer(name="Bob", zones=bob)]))
    return s


def test_the_commanders_color_identity_is_known() -> None:
    s = _commander_game()
    assert commander_identity(s, "Alice") == "R"
    assert s.players["Alice"].outside == ("Lightning Bolt", "Shock", "Doom Blade")


def test_903_11a_a_card_within_the_identity_and_not_owned_may_come_in() -> None:
    s = _commander_game()
    assert commander_may_bring(s, "Alice", "Lightning Bolt")
    assert commander_may_bring(s, "Alice", "Lava Axe")  # Bob's copy isn't Alice's


def test_903_11a_not_the_name_of_a_card_the_player_owns_in_the_game() -> None:
    s = _commander_game()
    assert not commander_may_bring(s, "Alice", "Shock")  # in her hand
    assert not commander_may_bring(s, "Alice", "Mountain")  # in her library (starting deck)


def test_903_11a_not_a_color_outside_the_commanders_identity() -> None:
    s = _commander_game()
    assert not commander_may_bring(s, "Alice", "Doom Blade")  # black
    assert not commander_may_bring(s, "Alice", "Wort, Boggart Auntie")  # black and red


def test_replay_as_scenario_writes_the_cards_outside_the_game() -> None:
    from arbiter_scenarios.export import export_scenario

    data = export_scenario(_commander_game(), "outside").data
    alice = next(p for p in data["players"] if p["name"] == "Alice")
    assert alice["outside"] == ["Lightning Bolt", "Shock", "Doom Blade"]
    assert "outside" not in next(p for p in data["players"] if p["name"] == "Bob")
