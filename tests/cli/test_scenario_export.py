"""A stored game's position written as a scenario file (`arbiter replay --as-scenario`)
round-trips: the scenario runner sets up the same position and the file passes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml

from arbiter_cli.scenario_export import ExportError, export_scenario
from arbiter_core.kernel.evolve import apply, empty_state
from arbiter_core.kernel.state import MAIN_STEPS, Delayed, GameState, Priority
from arbiter_runtime.codec import from_stored
from arbiter_runtime.play import play_bot_game
from arbiter_scenarios.model import load
from arbiter_scenarios.runner import _setup, run_scenario
from arbiter_store import open_store


def position(s: GameState) -> dict[str, Any]:
    """What a scenario position must reproduce, by card name (ids and card numbers are
    renumbered by the setup): life, poison, every zone's cards (libraries in order) and
    every permanent's state, per player still in the game. Tokens are not set up."""
    out: dict[str, Any] = {}
    for p in s.seats:
        pl = s.players[p]
        if pl.left:
            continue
        zones = {z: [s.objects[i].name for i in s.zones.get((p, z), [])]
                 for z in ("hand", "graveyard", "exile", "library", "command")}
        perms = Counter(
            (o.name, o.controller, o.tapped, o.damage, o.counters, o.sick, o.face_down,
             s.objects[o.attached_to].name if o.attached_to is not None else "")
            for o in s.permanents() if o.owner == p and o.token is None)
        out[p] = {"life": pl.life, "poison": pl.poison, "zones": zones,
                  "battlefield": perms}
    return out


def exportable(s: GameState) -> bool:
    """The active player holds priority in a main phase with an empty stack: the
    position a scenario starts from (and nothing it cannot set up)."""
    m = s.markers.get(1)
    return (m is not None and len(s.markers) == 1 and not s.game_over
            and isinstance(m.pending, Priority) and m.pending.player == m.holder
            and m.step in MAIN_STEPS and not m.stack and not s.effects
            and all(o.token is None for o in s.objects.values()))


def round_trip(state: GameState, path: Path) -> GameState:
    """Export, run the file as a scenario (it must pass), return the state it set up."""
    exported = export_scenario(state, path.stem)
    path.write_text(exported.text(), encoding="utf-8")
    result = run_scenario(path)
    assert result.passed, (result.failures, path.read_text())
    return _setup(load(path)).state


@pytest.fixture(scope="module")
def game_states(tmp_path_factory: pytest.TempPathFactory) -> dict[int, GameState]:
    """Every exportable position of a 4-player bot game, by event number."""
    db = tmp_path_factory.mktemp("export") / "game.sqlite"
    with open_store(db) as store:
        play_bot_game(store, "g", 4, 7)
        stored = store.read_stream("g")
    state = empty_state()
    out: dict[int, GameState] = {}
    for e in stored:
        apply(state, from_stored(e))
        if exportable(state):
            out[state.version] = state.clone()
    return out


def _pick(states: dict[int, GameState]) -> list[int]:
    """Spread-out positions, plus the first with an attachment, with damage marked on a
    permanent, with a tapped permanent, in a postcombat main phase, with a graveyard."""
    ns = sorted(states)
    picked = set(ns[:: max(1, len(ns) // 5)])
    wants: list[Callable[[GameState], bool]] = [
        lambda s: any(o.attached_to is not None for o in s.permanents()),
        lambda s: any(o.damage for o in s.permanents()),
        lambda s: any(o.tapped for o in s.permanents()),
        lambda s: s.markers[1].step.value == "postcombat_main",
        lambda s: any(s.zones.get((p, "graveyard")) for p in s.seats),
    ]
    for want in wants:
        found = next((n for n in ns if want(states[n])), None)
        assert found is not None, "the test game should have such a position"
        picked.add(found)
    return sorted(picked)


def test_bot_game_positions_round_trip(game_states: dict[int, GameState],
                                       tmp_path: Path) -> None:
    assert len(game_states) > 20
    for n in _pick(game_states):
        original = game_states[n]
        rebuilt = round_trip(original, tmp_path / f"at-{n}.yaml")
        assert position(rebuilt) == position(original), f"position after event {n}"
        m, r = original.markers[1], rebuilt.markers[1]
        assert (r.turn, r.holder, r.step) == (m.turn, m.holder, m.step)
        assert r.pending == Priority(m.holder)


def test_file_lists_zones_top_first_and_expects_life(game_states: dict[int, GameState],
                                                     tmp_path: Path) -> None:
    n = max(game_states)
    s = game_states[n]
    data = yaml.safe_load(export_scenario(s, "x").text())
    assert data["variant"] == s.variant and data["seed"] == s.seed
    m = s.markers[1]
    assert data["start"] == {"turn": m.turn, "active": m.holder, "step": m.step.value}
    listed = [p["name"] for p in data["players"]]
    assert listed == [p for p in s.seats if not s.players[p].left]
    assert data["expect"] == [{"life": {p: s.players[p].life for p in listed}}]
    spec = yaml.safe_load(export_scenario(s, "x").text())["players"][0]
    library = [s.objects[i].name for i in s.zones.get((spec["name"], "library"), [])]
    expanded: list[str] = []
    for entry in spec.get("library", []):
        name, _, count = str(entry).rpartition(" x ")
        expanded.extend([name] * int(count) if name and count.isdigit() else [entry])
    assert expanded == library  # top first


POSITION = """
name: repeated names
variant: free_for_all
start: {turn: 2, active: A, step: postcombat_main}
players:
  - name: A
    battlefield: [Grizzly Bears, {card: Grizzly Bears, tapped: true, damage: 1}, Mountain,
                  {card: Bonesplitter, attached_to: "Grizzly Bears#2"}]
    hand: [Shock]
    library: ["Mountain x 3", Shock]
  - name: B
    life: 7
    battlefield: [{card: Grizzly Bears, summoning_sick: true},
                  {card: Holy Strength, attached_to: "Grizzly Bears#3"},
                  {card: Pacifism, attached_to: "Grizzly Bears#1", controller: A}]
    graveyard: [Grizzly Bears]
  - name: C
    poison: 3
    battlefield: [{card: Mountain, controller: B}]
expect:
  - {life: {B: 7}}
"""


def test_repeated_host_names_are_numbered_in_setup_order(tmp_path: Path) -> None:
    src = tmp_path / "position.yaml"
    src.write_text(POSITION, encoding="utf-8")
    assert run_scenario(src).passed
    state = _setup(load(src)).state
    exported = export_scenario(state, "again")
    by_player = {p["name"]: p for p in exported.data["players"]}
    a_bf, b_bf = by_player["A"]["battlefield"], by_player["B"]["battlefield"]
    assert a_bf[3] == {"card": "Bonesplitter", "attached_to": "Grizzly Bears#2"}
    assert b_bf[1] == {"card": "Holy Strength", "attached_to": "Grizzly Bears#3"}
    # Pacifism is owned by B (listed under B) and controlled by A
    assert b_bf[2] == {"card": "Pacifism", "attached_to": "Grizzly Bears#1", "controller": "A"}
    assert by_player["C"]["poison"] == 3
    assert by_player["C"]["battlefield"] == [{"card": "Mountain", "controller": "B"}]
    assert exported.warnings == []
    rebuilt = round_trip(state, tmp_path / "again.yaml")
    assert position(rebuilt) == position(state)


def test_host_numbering_counts_copies_in_other_zones(tmp_path: Path) -> None:
    src = tmp_path / "hand-copy.yaml"
    src.write_text("""
name: a copy in a hand comes first
variant: two_player
start: {turn: 2, active: A, step: precombat_main}
players:
  - name: A
    hand: [Grizzly Bears]
  - name: B
    battlefield: [Grizzly Bears, {card: Holy Strength, attached_to: "Grizzly Bears#2"}]
expect:
  - {life: {A: 20}}
""", encoding="utf-8")
    result = run_scenario(src)
    assert result.passed, result.failures


def test_what_a_position_cannot_say_is_warned(game_states: dict[int, GameState]) -> None:
    s = next(iter(game_states.values())).clone()
    m = s.markers[1]
    s.players[m.holder] = replace(s.players[m.holder], mana="RR")
    exported = export_scenario(s, "with mana")
    assert any("mana pool (RR)" in w for w in exported.warnings)
    assert exported.text().startswith("# warning: ")
    assert yaml.safe_load(exported.text())["name"] == "with mana"


def test_a_waiting_delayed_ability_is_warned(game_states: dict[int, GameState]) -> None:
    """CR 603.7: a delayed triggered ability the position can't say (Maddening Imp's)."""
    s = next(iter(game_states.values())).clone()
    s.delayed.append(Delayed(card=1, owner=s.seats[0], controller=s.seats[0],
                             source_name="Maddening Imp", kind="destroy_unless_attacked"))
    exported = export_scenario(s, "with a delayed ability")
    assert any("1 delayed triggered abilit(ies) left out (Maddening Imp)" in w
               for w in exported.warnings)


def test_a_game_not_started_cannot_be_exported() -> None:
    with pytest.raises(ExportError, match="not started"):
        export_scenario(empty_state(), "nothing")


def test_a_face_down_permanent_round_trips(tmp_path: Path) -> None:
    """708.2a: a face-down permanent is written `face_down: true` and set up so."""
    text = """name: face down
variant: two_player
seed: 1
start: {turn: 3, active: Alice, step: precombat_main}
players:
  - name: Alice
    battlefield: [{card: Battering Craghorn, face_down: true}, Mountain]
    library: ["Plains x 3"]
  - {name: Bob, library: ["Forest x 3"]}
expect:
  - {life: {Alice: 20}}
"""
    source = tmp_path / "source.yaml"
    source.write_text(text, encoding="utf-8")
    original = _setup(load(source)).state
    assert [o.face_down for o in original.permanents()] == [True, False]
    rebuilt = round_trip(original, tmp_path / "again.yaml")
    assert position(rebuilt) == position(original)
    assert "face_down: true" in (tmp_path / "again.yaml").read_text()


def test_a_commander_position_round_trips(tmp_path: Path) -> None:
    """Issue 15: the commander keys are written (variant, base, each `commander`, the
    commander damage taken), the tax is a warning, and the file sets up the same
    commanders and damage."""
    db = tmp_path / "commander.sqlite"
    with open_store(db) as store:
        play_bot_game(store, "c", 2, 3, "commander")
        stored = store.read_stream("c")
    state = empty_state()
    picked: GameState | None = None
    for e in stored:
        apply(state, from_stored(e))
        c = state.commander
        if exportable(state) and c is not None and c.damage and any(n for _, n in c.casts):
            picked = state.clone()
            break
    assert picked is not None and picked.commander is not None
    exported = export_scenario(picked, "commander")
    assert exported.data["variant"] == "commander"
    assert exported.data["options"]["base"] == "two_player"
    assert all("commander" in p for p in exported.data["players"])
    assert any("commander tax" in w for w in exported.warnings)
    again = round_trip(picked, tmp_path / "commander.yaml")
    assert again.commander is not None
    assert sorted(t for _, _, t in again.commander.damage) == sorted(
        t for _, _, t in picked.commander.damage)


def test_casual_options_and_notes_are_warned_about() -> None:
    """Issue 17: the single planar deck option (901.15), Archenemy Commander (904.13: the
    variant is written as archenemy with {commander: true}) and what casual cards
    remember are not positions a file can set up: each is a warning."""
    root = Path(__file__).resolve().parents[2] / "tests" / "scenarios"
    single = _setup(load(root / "planechase" / "single-deck-leaving.yaml")).state
    warned = export_scenario(single, "single").warnings
    assert any("single planar deck option (901.15)" in w for w in warned)
    commander = _setup(load(root / "archenemy" / "commander-shared-life-own-poison.yaml"))
    exported = export_scenario(commander.state, "ac")
    assert exported.data["variant"] == "archenemy"
    assert exported.data["options"]["commander"] is True
    assert any("Archenemy Commander (904.13)" in w for w in exported.warnings)
    noted = replace(single, casual_notes=(("extra_combat", "Alice", 20),))
    assert any("extra_combat of Alice" in w for w in export_scenario(noted, "n").warnings)
