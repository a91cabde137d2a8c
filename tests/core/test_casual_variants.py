"""Vanguard and Archenemy in-process (CR 902, 904): typed rejections of games the rules
don't allow, what the views show (scheme decks hidden, Squee's revealed hands), and the
hooks other parts use (the opening hand size, 103.5a)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbiter_core.kernel.commands import ChooseObjects, PlayerSetup, StartGame
from arbiter_core.kernel.decide import decide
from arbiter_core.kernel.errors import ArbiterError
from arbiter_core.kernel.events import CardRevealed
from arbiter_core.kernel.evolve import apply, empty_state
from arbiter_core.kernel.state import GameState
from arbiter_core.variants.base import get_variant
from arbiter_core.views.seat import view
from arbiter_runtime.decks import BOT_SCHEME_DECK
from arbiter_runtime.screening import screen
from arbiter_scenarios import actions as act
from arbiter_scenarios.model import load
from arbiter_scenarios.runner import _setup, run_scenario

DECK = ["Plains"] * 30


def _start(variant: str, players: list[PlayerSetup], **options: object) -> GameState:
    s = empty_state()
    for e in decide(s, StartGame(game_id="g", variant=variant, seed=3, players=players,
                                 **options)):
        apply(s, e)
    return s


def _archenemy(n: int = 4) -> list[PlayerSetup]:
    return [PlayerSetup(name="V", team="villain", deck=DECK, archenemy=True,
                        scheme_deck=list(BOT_SCHEME_DECK)),
            *(PlayerSetup(name=f"H{i}", team="heroes", deck=DECK) for i in range(1, n))]


def test_archenemy_needs_one_player_against_one_team() -> None:
    """904.2, 904.2a: two teams, one of a single player."""
    two_and_two = [PlayerSetup(name=n, team=t, deck=DECK)
                   for n, t in (("A", "x"), ("B", "x"), ("C", "y"), ("D", "y"))]
    with pytest.raises(ArbiterError) as e:
        _start("archenemy", two_and_two)
    assert "904.2" in str(e.value)
    with pytest.raises(ArbiterError):  # 904.12a: Free-for-All only as Supervillain Rumble
        _start("archenemy", _archenemy(), base_variant="free_for_all")
    with pytest.raises(ArbiterError):
        _start("archenemy", _archenemy(), supervillain_rumble=True)


def test_archenemy_game_start() -> None:
    s = _start("archenemy", _archenemy())
    assert s.players["V"].life == 40 and s.players["H1"].life == 20  # 904.5
    assert next(iter(s.markers.values())).holder == "V"  # 904.6
    assert s.shared_team_turns  # 904.2
    deck = s.zone("V", "scheme_deck")
    assert len(deck) == 20
    for seat in ("V", "H1"):  # scheme deck order is hidden from everyone
        shown = view(s, seat).model_dump_json()
        assert not any(f'"id":{oid},' in shown for oid in deck)


def test_vanguard_needs_a_vanguard_card_each() -> None:
    with pytest.raises(ArbiterError) as e:
        _start("vanguard", [PlayerSetup(name="A", deck=DECK, vanguard="Gerrard"),
                            PlayerSetup(name="B", deck=DECK)])
    assert "902.3" in str(e.value)
    with pytest.raises(ArbiterError):
        _start("vanguard", [PlayerSetup(name="A", deck=DECK, vanguard="Gerrard"),
                            PlayerSetup(name="B", deck=DECK, vanguard="Grizzly Bears")])


def test_squee_reveals_the_opponents_hands_to_every_seat() -> None:
    s = _start("vanguard", [PlayerSetup(name="A", deck=DECK, vanguard="Squee"),
                            PlayerSetup(name="B", deck=DECK, vanguard="Gerrard"),
                            PlayerSetup(name="C", deck=DECK, vanguard="Ertai")],
               base_variant="free_for_all")
    for seat, owner in (("A", "B"), ("C", "B"), ("B", "C")):
        p = next(p for p in view(s, seat).players if p.name == owner)
        assert p.hand is not None, (seat, owner)
    p = next(p for p in view(s, "B").players if p.name == "A")
    assert p.hand is None  # Squee's controller's own hand stays hidden


def test_starting_hand_size_hook() -> None:
    """103.5a, 902.5: the hook the opening hands and the mulligan procedure draw with
    reads each player's vanguard in the command zone."""
    s = _start("vanguard", [PlayerSetup(name="A", deck=DECK, vanguard="Squee"),
                            PlayerSetup(name="B", deck=DECK, vanguard="Gerrard")])
    v = get_variant("vanguard", None, 2)
    assert v.starting_hand_size(s, "A") == 10
    assert v.starting_hand_size(s, "B") == 3
    assert len(s.zone("A", "hand")) == 10 and len(s.zone("B", "hand")) == 3
    assert get_variant("two_player").starting_hand_size(s, "A") == 7


SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


@pytest.mark.parametrize(("file", "old", "new"), [
    ("archenemy/set-in-motion.yaml", "{scheme_in_motion: Roots of All Evil}",
     "{scheme_in_motion: Mortal Flesh Is Weak}"),
    ("archenemy/set-in-motion.yaml", "{scheme_in_motion: none}",
     "{scheme_in_motion: Roots of All Evil}"),
    ("archenemy/set-in-motion.yaml", "{scheme_deck_bottom: {player: Villain, is: Roots",
     "{scheme_deck_bottom: {player: Villain, is: Mortal Flesh Is Weak}}\n#"),
    ("archenemy/set-in-motion.yaml", "scheme_deck: [Roots of All Evil, Mortal Flesh Is Weak]",
     "scheme_deck: [Mortal Flesh Is Weak, Roots of All Evil]"),
    ("archenemy/archenemy-start.yaml", "    archenemy: true\n", "    archenemy: false\n"),
    ("archenemy/supervillain-rumble.yaml", "options: {supervillain_rumble: true}",
     "options: {supervillain_rumble: false}"),
    ("vanguard/modifiers.yaml", "vanguard: Ertai", "vanguard: Gerrard"),
    ("planechase/two-headed-giant.yaml", "options: {base: two_headed_giant}",
     "options: {base: free_for_all}"),
    ("archenemy/commander-start.yaml", "options: {commander: true}",
     "options: {commander: false}"),
    ("planechase/single-deck-leaving.yaml", "single_planar_deck: true",
     "single_planar_deck: false"),
    ("planechase/single-deck-start.yaml", "{planar_deck_top: {player: Alice, is: null}}",
     "{planar_deck_top: {player: Alice, is: The Eon Fog}}"),
])
def test_a_wrong_casual_value_fails_the_scenario(tmp_path: Path, file: str, old: str,
                                                 new: str) -> None:
    """Each key of the casual variants (../shared/spec/scenarios.md) is checked: the
    scenario passes as written and fails with one value changed."""
    path = SCENARIOS / file
    assert run_scenario(path).passed
    text = path.read_text(encoding="utf-8")
    assert old in text
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(text.replace(old, new, 1), encoding="utf-8")
    assert not run_scenario(wrong).passed


@pytest.mark.parametrize(("variant", "setup"), [
    ("planechase", {"planar_deck": ["No Such Plane"]}),
    ("planechase", {"planar_deck": ["Grizzly Bears"]}),
    ("archenemy", {"scheme_deck": ["Krosa"], "archenemy": True, "team": "v"}),
    ("vanguard", {"vanguard": "Nobody"}),
])
def test_hostile_supplementary_decks_are_typed_rejections(variant: str,
                                                         setup: dict[str, object]) -> None:
    players = [PlayerSetup(name="A", deck=DECK, **setup),
               PlayerSetup(name="B", deck=DECK, team="h", vanguard="Gerrard")]
    with pytest.raises(ArbiterError):
        _start(variant, players)


def test_a_searching_player_sees_the_cards_offered_and_no_one_else() -> None:
    """701.19: I Call on the Ancient Magics - H1, searching, sees its library's cards in
    its decision (and may name them: `screening`); H2 and the archenemy don't."""
    sc = load(SCENARIOS / "archenemy" / "ancient-magics.yaml")
    run = _setup(sc)
    for i, action in enumerate(sc.actions[:4]):  # up to H1's pending search
        if "check" not in action:
            act.perform(run, action, f"actions[{i}]")
    mine = view(run.state, "H1").markers[0].pending
    theirs = view(run.state, "H2").markers[0].pending
    assert mine.decision == "search_to_hand" and len(mine.options) == 6
    assert "Lightning Bolt" in {c.name for c in mine.options}
    assert theirs.options == () and theirs.hidden_options == 6
    bolt = next(c.id for c in mine.options if c.name == "Lightning Bolt")
    screen(run.state, "H1", ChooseObjects(player="H1", choices=[bolt]))
    with pytest.raises(ArbiterError):
        screen(run.state, "H2", ChooseObjects(player="H2", choices=[bolt]))


def test_ancient_magics_reveals_each_other_players_card_to_everyone() -> None:
    """I Call on the Ancient Magics: "each other player searches their library for a
    card, reveals it" - a `CardRevealed` event names each hero's card (701.20a: shown
    to all players, in words any seat's history reads); the archenemy's two cards are
    not revealed. Afterwards the hands stay hidden from the other team (808.5: the heroes
    see each other's): the archenemy's view shows H1's hand size only, and H1's the
    archenemy's."""
    sc = load(SCENARIOS / "archenemy" / "ancient-magics.yaml")
    run = _setup(sc)
    for i, action in enumerate(sc.actions):
        if "check" not in action and not action.get("expect_rejected"):
            act.perform(run, action, f"actions[{i}]")
    reveals = [e for e in run.log if isinstance(e, CardRevealed)]
    assert [(e.player, e.name, e.rule) for e in reveals] == [
        ("H1", "Lightning Bolt", "701.20a"), ("H2", "Giant Growth", "701.20a")]
    h1 = next(p for p in view(run.state, "Villain").players if p.name == "H1")
    villain = next(p for p in view(run.state, "H1").players if p.name == "Villain")
    assert h1.hand is None and h1.hand_size == 1
    assert villain.hand is None and villain.hand_size == 3  # and its draw
    assert [c.name for c in view(run.state, "H1").hand] == ["Lightning Bolt"]
