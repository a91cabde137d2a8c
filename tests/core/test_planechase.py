"""Planechase (CR 901) in-process: the planar die's distribution (901.3a) over 60,000
seeded rolls, its typed rejections, the hidden planar deck order (views), the runner's
Planechase keys failing on wrong values, and games that don't use the new state fields
keeping their state hashes."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from arbiter_core.kernel.commands import PlayerSetup, RollPlanarDie, StartGame
from arbiter_core.kernel.decide import decide
from arbiter_core.kernel.errors import ArbiterError
from arbiter_core.kernel.evolve import apply, empty_state
from arbiter_core.kernel.hashing import state_hash
from arbiter_core.kernel.rng import Rng
from arbiter_core.kernel.state import GameState
from arbiter_core.variants.planar_die import FACES
from arbiter_core.views.seat import view
from arbiter_scenarios.runner import run_scenario

PLANES = ["Krosa", "Sokenzan", "Academy at Tolaria West", "Chaotic Aether"]
CHAOS_SCENARIO = Path(__file__).resolve().parents[1] / "scenarios" / "planechase" / \
    "chaos-and-planeswalk.yaml"


def _start(variant: str, planar: list[str]) -> GameState:
    s = empty_state()
    cmd = StartGame(game_id="g", variant=variant, seed=7, players=[
        PlayerSetup(name=n, deck=["Plains"] * 20, planar_deck=planar) for n in ("A", "B")])
    for e in decide(s, cmd):
        apply(s, e)
    return s


def test_planar_die_distribution_60000_rolls() -> None:
    """901.3a: one Planeswalker face, one chaos face, four blank. Pearson's chi-square
    over 60,000 rolls from the seeded generator (one per state version, as the engine
    draws them) with 2 degrees of freedom: below 13.82, the 0.001 significance level
    (a fair die fails this test once in a thousand seeds)."""
    counts: Counter[str] = Counter(Rng(12345, version).choice(FACES) for version in range(60_000))
    expected = {"planeswalker": 10_000, "chaos": 10_000, "blank": 40_000}
    chi2 = sum((counts[k] - n) ** 2 / n for k, n in expected.items())
    assert set(counts) == set(expected)
    assert chi2 < 13.82, (counts, chi2)


def test_rolling_is_refused_outside_planechase_and_off_turn() -> None:
    s = _start("two_player", [])
    with pytest.raises(ArbiterError) as e:
        decide(s, RollPlanarDie(player="A"))
    assert "901" in str(e.value) or "117.1" in str(e.value)


def test_planar_deck_order_is_hidden_from_every_seat() -> None:
    s = _start("planechase", PLANES)
    deck = s.zone("A", "planar_deck")
    assert deck
    for seat in ("A", "B"):
        shown = view(s, seat).model_dump_json()
        for oid in deck:
            assert f'"id":{oid},' not in shown
    assert len(s.zone("A", "command")) + len(s.zone("B", "command")) == 1


def test_state_hash_of_a_game_without_planechase_is_unchanged_by_the_new_fields() -> None:
    """GameState.planar_die and casual_options are hashed only when set (HASHED_WHEN_SET)."""
    s = _start("two_player", [])
    before = state_hash(s)
    s.planar_die = ("chaos",)
    assert state_hash(s) != before
    s.planar_die = ()
    assert state_hash(s) == before


@pytest.mark.parametrize("wrong", [
    ("{plane: Krosa}", "{plane: Sokenzan}"),
    ("{plane: Krosa}", "{plane: none}"),
    ("{planar_deck_top: {player: Bob, is: Chaotic Aether}}",
     "{planar_deck_top: {player: Bob, is: Naya}}"),
    ("planar_die: [chaos, planeswalker]", "planar_die: [blank, planeswalker]"),
    ("  - {player: Alice, roll_planar_die: true}\n  - {check: [{stack_size: 1}, "
     "{hand_size: {Alice: 2}}]}", "  - {player: Alice, pass: true}\n  - {check: "
     "[{stack_size: 1}, {hand_size: {Alice: 2}}]}"),
    ("options: {planar_die_rolls_free: true}", "options: {planar_die_rolls_free: false}"),
])
def test_a_wrong_planechase_value_fails_the_scenario(tmp_path: Path,
                                                     wrong: tuple[str, str]) -> None:
    text = CHAOS_SCENARIO.read_text(encoding="utf-8")
    assert run_scenario(CHAOS_SCENARIO).passed
    old, new = wrong
    assert old in text
    path = tmp_path / "wrong.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    assert not run_scenario(path).passed


def test_base_option_and_wrong_base() -> None:
    s = _start("planechase", PLANES)
    assert s.variant == "planechase" and s.composed == ("planechase", "two_player")
    with pytest.raises(ArbiterError):
        decide(empty_state(), StartGame(game_id="g", variant="planechase", seed=1,
                                        base_variant="nope",
                                        players=[PlayerSetup(name="A"), PlayerSetup(name="B")]))
