"""The deck-check cases of tests/decks/, each run through `arbiter deck check --json`:
the violations (card and rule, in order), the exit status and the last line."""

from __future__ import annotations

import json

import pytest
from tests.deck_cases import DeckCase, deck_cases
from typer.testing import CliRunner

from arbiter_cli.main import app

runner = CliRunner()


@pytest.mark.parametrize("case", deck_cases(), ids=lambda c: c.path.stem)
def test_deck_case(case: DeckCase) -> None:
    result = runner.invoke(app, ["deck", "check", "--variant", case.variant, "--players",
                                 str(case.players), "--json", str(case.path),
                                 *("--" + o.replace("_", "-") for o in case.options)])
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    got = [(r["card"], r["rule"]) for r in rows[:-1]]
    assert got == list(case.expect or []), [r["reason"] for r in rows[:-1]]
    because = [tuple(r.get("because", ())) for r in rows[:-1]]
    assert because == list(case.because or [() for _ in because]), because
    assert result.exit_code == (0 if case.expect is None else 1)
    assert rows[-1]["legal"] is (case.expect is None)


def test_there_are_legal_and_illegal_cases() -> None:
    cases = deck_cases()
    assert any(c.expect is None for c in cases) and any(c.expect for c in cases)
