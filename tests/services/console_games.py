"""Games for the judge console's tests: written by `arbiter play` (the command line, as
a judge would get them)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from arbiter_store import EventStore, open_store

#: a two-player game in which a creature dies of lethal damage (704.5g)
PLAYED = ("two_player", 2, 4)


def arbiter_command() -> str:
    found = shutil.which("arbiter") or str(Path(sys.executable).with_name("arbiter"))
    assert Path(found).exists(), "the arbiter command is not installed (make install)"
    return found


def play_game(db: Path, variant: str = PLAYED[0], players: int = PLAYED[1],
              seed: int = PLAYED[2]) -> str:
    """Write a bot game with `arbiter play`; returns its game id."""
    out = subprocess.run([arbiter_command(), "play", "--players", str(players), "--seed",
                          str(seed), "--variant", variant, "--db", str(db)],
                         capture_output=True, text=True, timeout=600, check=False)
    assert out.returncode == 0, out.stderr
    with open_store(str(db), read_only=True) as store:
        (game_id,) = store.stream_ids()
    return game_id


def died_of_lethal_damage(store: EventStore, game_id: str) -> tuple[int, int, str]:
    """The first event where a creature died of lethal damage (704.5g): (version, the
    card's new id in the graveyard, its owner)."""
    for e in store.read_stream(game_id):
        if e.rule == "704.5g" and e.payload.get("to_zone") == "graveyard":
            return e.version, int(e.payload["new_id"]), str(e.payload["to_player"])
    raise AssertionError("no creature died of lethal damage")
