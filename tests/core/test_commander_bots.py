"""Seeded bot games of Commander (issue 15): across them a commander is cast with a tax
of at least {2} (903.8), returns to the command zone by 903.9a (704.6d) and by 903.9b,
and one game ends by 704.6c. The games are tools/same_events.py's (digests committed)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def _tool() -> Any:
    spec = importlib.util.spec_from_file_location("same_events",
                                                  ROOT / "tools" / "same_events.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("same_events", module)
    spec.loader.exec_module(module)
    return module


SAME = _tool()
Game = SAME.Game


def _events(game: Any) -> list[dict[str, object]]:
    return [json.loads(line) for line in SAME.game_events(game)]


def test_the_seeded_commander_games_show_each_rule() -> None:
    """Across the seeded Commander games (the games start as `arbiter play`'s do, with
    the seeded starting player and mulligans, so which game shows what moves with them)."""
    games = [g for g in SAME.GAMES if g.variant == "commander"]
    assert len(games) >= 4
    logs = [_events(g) for g in games]
    events = [e for log in logs for e in log]
    assert any(e["type"] == "CommanderCastFromCommandZone" and int(str(e["tax"])) >= 2
               for e in events)
    moved = {e["rule"] for e in events if e["type"] == "ObjectMoved"
             and e["to_zone"] == "command"}
    assert {"704.6d", "903.9b"} <= moved
    assert any(e["type"] == "PlayerLost" and e["rule"] == "704.6c" for e in events)
    assert all(log[-1]["type"] == "GameEnded" for log in logs)
