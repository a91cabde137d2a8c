"""Games for the judge console's tests: one written by `arbiter play` (the command
line, as a judge would get it), and a live one played slowly in a thread."""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
from pathlib import Path

from arbiter_runtime.botgame import make_bots, next_action, start_command
from arbiter_runtime.session import GameSession
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


class LiveGame:
    """A bot game played into `store` one action at a time, `pause_s` apart, until it
    has at least `events` events or ends (bounded: a daemon thread, stopped by `stop`)."""

    def __init__(self, store: EventStore, game_id: str, events: int = 400,
                 pause_s: float = 0.05, seed: int = 5) -> None:
        self.store, self.game_id, self.events, self.pause_s = store, game_id, events, pause_s
        self.start_cmd = start_command(game_id, 2, seed, "two_player", deck_size=20)
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True, name="live-game")
        self.session = GameSession(store, game_id)
        self.session.execute(self.start_cmd)

    def start(self) -> LiveGame:
        self.thread.start()
        return self

    def _run(self) -> None:
        bots = make_bots(self.start_cmd)
        s = self.session
        while not self._stop.is_set() and not s.state.game_over \
                and s.state.version < self.events:
            s.run_engine()
            action = next_action(s.state, bots)
            if action is not None and not s.state.game_over:
                s.execute(action)
            self._stop.wait(self.pause_s)

    def stop(self) -> None:
        self._stop.set()
        self.thread.join(10)
