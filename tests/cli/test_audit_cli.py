"""The judge's audit of a stored game: `replay --explain`, `diff`, `replay --as-scenario`,
and re-deciding a log with the current engine (`arbiter_core.kernel.divergence`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from arbiter_cli.main import app
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.divergence import redecide, walk
from arbiter_core.kernel.evolve import apply, empty_state
from arbiter_core.kernel.state import MAIN_STEPS, GameState, Priority
from arbiter_runtime.codec import from_stored
from arbiter_scenarios.model import load
from arbiter_scenarios.runner import _setup, run_scenario
from arbiter_store import StoredEvent, open_store

GAME = "free_for_all-3p-seed4"
runner = CliRunner()


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("audit") / "game.sqlite"
    result = runner.invoke(app, ["play", "--players", "3", "--seed", "4", "--db", str(path)])
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture(scope="module")
def stored(db: Path) -> list[StoredEvent]:
    with open_store(db) as store:
        return list(store.read_stream(GAME))


def state_after(stored: list[StoredEvent], n: int) -> GameState:
    state = empty_state()
    for e in stored[:n]:
        apply(state, from_stored(e))
    return state


def invoke(*args: str) -> Any:
    return runner.invoke(app, list(args))


# ------------------------------------------------------------------ replay --explain


def test_explain_to_60_shows_rules_and_causes(db: Path, stored: list[StoredEvent]) -> None:
    result = invoke("replay", "--db", str(db), "--game", GAME, "--to", "60", "--explain")
    assert result.exit_code == 0, result.output
    out = result.stdout
    for e in stored[:60]:
        assert e.rule is not None and e.rule in out
    assert "engine: check_sba" in out and "engine: turn_based_actions" in out
    assert "PassPriority" in out and "StartGame" in out
    assert "receives priority" in out and "passes priority" in out
    assert "events 1-60" in out


def test_explain_json_rows(db: Path, stored: list[StoredEvent]) -> None:
    result = invoke("replay", "--db", str(db), "--to", "60", "--explain", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [r["version"] for r in rows] == list(range(1, 61))
    for r, e in zip(rows, stored, strict=False):
        assert (r["type"], r["rule"], r["command"]) == (e.type, e.rule, e.metadata["command"])
        if e.metadata["command"] == "RunEngineWork":
            assert r["cause"].startswith("engine: ") and r["actor"] == "engine"
        else:
            assert r["cause"] == e.metadata["command"]
            assert r["actor"] == e.metadata.get("actor")
    # the engine work named is the work the log queued just before
    for prev, r, e in zip(stored, rows[1:], stored[1:], strict=False):
        if (prev.type == "WorkQueued" and prev.metadata["command"] != "RunEngineWork"
                and e.metadata["command"] == "RunEngineWork"):
            assert r["cause"] == f"engine: {prev.payload['kind']}"
    assert rows[0]["summary"].startswith("free_for_all game starts")
    passed = [r for r in rows if r["type"] == "PriorityPassed"]
    assert passed and all(r["summary"] == f"{r['actor']} passes priority" for r in passed)


def test_explain_names_cards_with_ids(db: Path, stored: list[StoredEvent]) -> None:
    result = invoke("replay", "--db", str(db), "--explain", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert len(rows) == len(stored)
    state = empty_state()
    checked = 0
    for r, e in zip(rows, stored, strict=True):
        event = from_stored(e)
        before = state.clone()
        apply(state, event)
        if isinstance(event, ev.SpellCast):
            name = state.objects[event.new_id].name
            assert r["summary"].startswith(f"{event.player} casts {name}")
            checked += 1
        elif isinstance(event, ev.DamageDealt):
            src = before.objects.get(event.source) or state.objects.get(event.source)
            if src is not None:
                assert f"dealt {event.amount}" in r["summary"]
                assert f"by {src.name} (#{event.source})" in r["summary"]
                checked += 1
        elif isinstance(event, ev.PlayerLost):
            assert r["summary"] == f"{event.player} loses the game"
        elif isinstance(event, ev.GameEnded):
            assert r["summary"] == f"the game ends: {', '.join(event.winners)} wins"
    assert checked > 5


# ------------------------------------------------------------------ diff


def test_diff_40_to_150_reports_the_changes(db: Path, stored: list[StoredEvent]) -> None:
    result = invoke("diff", "--db", str(db), "--from", "40", "--to", "150", "--json")
    assert result.exit_code == 0, result.output
    d = json.loads(result.stdout)
    assert (d["game"], d["from"], d["to"]) == (GAME, 40, 150)
    a, b = state_after(stored, 40), state_after(stored, 150)
    by_card_a = {o.card: o for o in a.objects.values()}
    by_card_b = {o.card: o for o in b.objects.values()}
    moved = {c: (by_card_a[c].zone, by_card_b[c].zone) for c in by_card_b
             if c in by_card_a and by_card_a[c].id != by_card_b[c].id}
    assert moved, "the test game changes zones between events 40 and 150"
    reported = {r["card"]: (r["moved"]["from"]["zone"], r["moved"]["to"]["zone"])
                for r in d["objects"] if "moved" in r and r["moved"]["from"]}
    assert reported == moved
    assert ("hand", "battlefield") in moved.values()  # a land was played
    assert any(m["marker"] == 1 for m in d["markers"])  # the turn began in between
    lands = {p: (a.players[p].lands_played, b.players[p].lands_played) for p in b.seats}
    for row in d["players"]:
        if "lands_played" in row["changes"]:
            c = row["changes"]["lands_played"]
            assert (c["from"], c["to"]) == lands[row["player"]]
    text = invoke("diff", "--db", str(db), "--game", GAME, "--from", "40", "--to", "150")
    assert text.exit_code == 0, text.output
    card, (src, dst) = next(iter(sorted(moved.items())))
    assert by_card_b[card].name in text.stdout
    assert f"{src} #{by_card_a[card].id} -> {dst} #{by_card_b[card].id}" in text.stdout


def test_diff_reports_life_and_tapped(db: Path, stored: list[StoredEvent]) -> None:
    n = len(stored)
    a, b = state_after(stored, n // 2), state_after(stored, n)
    result = invoke("diff", "--db", str(db), "--from", str(n // 2), "--to", str(n), "--json")
    assert result.exit_code == 0, result.output
    d = json.loads(result.stdout)
    life = {r["player"]: r["changes"]["life"] for r in d["players"] if "life" in r["changes"]}
    expected = {p: {"from": a.players[p].life, "to": b.players[p].life} for p in a.seats
                if a.players[p].life != b.players[p].life}
    assert life == expected and life
    assert d["general"]["game_over"] == {"from": False, "to": True}


def test_diff_errors_are_one_line(db: Path) -> None:
    result = invoke("diff", "--db", str(db), "--from", "10", "--to", "999999")
    assert result.exit_code == 2
    assert "--to 999999 is outside the game" in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1


# ------------------------------------------------------------------ --as-scenario


def _exportable(stored: list[StoredEvent]) -> list[int]:
    state = empty_state()
    out = []
    for e in stored:
        apply(state, from_stored(e))
        m = state.markers.get(1)
        if (m is not None and isinstance(m.pending, Priority) and m.pending.player == m.holder
                and m.step in MAIN_STEPS and not m.stack and not state.game_over
                and not state.effects and all(o.token is None for o in state.objects.values())):
            out.append(state.version)
    return out


def _position(s: GameState) -> dict[str, Any]:
    return {p: (s.players[p].life,
                {z: sorted(s.objects[i].name for i in s.zones.get((p, z), []))
                 for z in ("hand", "graveyard", "exile", "library")},
                sorted((o.name, o.tapped, o.damage) for o in s.permanents() if o.owner == p))
            for p in s.seats if not s.players[p].left}


def test_as_scenario_round_trips(db: Path, stored: list[StoredEvent], tmp_path: Path) -> None:
    candidates = _exportable(stored)
    assert len(candidates) > 10
    for n in candidates[:: len(candidates) // 4]:
        out = tmp_path / f"at-{n}.yaml"
        result = invoke("replay", "--db", str(db), "--to", str(n), "--as-scenario",
                        "--out", str(out))
        assert result.exit_code == 0, result.output
        assert run_scenario(out).passed, run_scenario(out).failures
        original = state_after(stored, n)
        rebuilt = _setup(load(out)).state
        assert _position(rebuilt) == _position(original)


def test_as_scenario_to_stdout_warns_on_stderr(db: Path) -> None:
    result = invoke("replay", "--db", str(db), "--to", "60", "--as-scenario")
    assert result.exit_code == 0, result.output
    assert "name: free_for_all-3p-seed4 at event 60" in result.stdout
    assert "players:" in result.stdout and "expect:" in result.stdout


@pytest.mark.parametrize("args, message", [
    (["--to", "0", "--as-scenario"], "not started"),
    (["--explain", "--as-scenario"], "cannot be used together"),
    (["--out", "x.yaml"], "--out is for --as-scenario"),
    (["--to", "-1", "--explain"], "--to must be 0 or more"),
])
def test_replay_option_errors(db: Path, args: list[str], message: str) -> None:
    result = invoke("replay", "--db", str(db), *args)
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


# ------------------------------------------------------------------ re-deciding a log


def test_bot_game_log_redecides_without_divergence(stored: list[StoredEvent]) -> None:
    events = [from_stored(e) for e in stored]
    made = [e.metadata["command"] == "RunEngineWork" for e in stored]
    batches, divergence = walk(events, made)
    assert divergence is None
    assert redecide(events) is None
    engine = [i for b in batches if b.work is not None for i in range(b.start, b.end)]
    assert engine == [i for i, m in enumerate(made) if m]


def test_tampered_engine_event_is_reported_at_its_version(stored: list[StoredEvent]) -> None:
    events = [from_stored(e) for e in stored]
    made = [e.metadata["command"] == "RunEngineWork" for e in stored]
    i = next(k for k, e in enumerate(events) if isinstance(e, ev.DamageDealt) and made[k])
    original = events[i]
    assert isinstance(original, ev.DamageDealt)
    events[i] = original.model_copy(update={"amount": original.amount + 1})
    for flags in (made, None):
        d = redecide(events, flags)
        assert d is not None
        assert d.version == stored[i].version == i + 1
        assert d.expected is not None and d.actual is not None
        assert d.expected["amount"] == original.amount + 1
        assert d.actual["amount"] == original.amount
        assert "DamageDealt" in d.describe()


def test_stored_engine_event_without_owed_work_diverges(stored: list[StoredEvent]) -> None:
    events = [from_stored(e) for e in stored]
    made = [e.metadata["command"] == "RunEngineWork" for e in stored]
    k = next(k for k in range(1, len(made)) if not made[k] and made[k - 1])
    made[k] = True  # claim a player's event came from the engine
    d = redecide(events, made)
    assert d is not None and d.version == k + 1
