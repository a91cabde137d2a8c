"""Check that a change to the core keeps behaviour identical: the same seeded bot games
make the same events.

Usage (from the repository root):

    python tools/same_events.py record --out before.jsonl     # with the old code
    python tools/same_events.py compare before.jsonl          # with the new code

Each game is the loop of `arbiter_runtime.play.play_bot_game` run on the pure core
(`decide` then `apply`, no store), so the log depends on the core alone. Every event is
written as its sorted-key JSON; `StateCheckpointed`'s `state_hash` and `algorithm` are
left out (a change of hash format changes only them), and so is `GameStarted`'s
`card_data_hash` (cards added to the pool change it, not the games). `compare` replays
the same games and reports the first event that differs in each game, and exits 1 if
any does.

To compare two source trees, run `record` with `PYTHONPATH=<old tree>/libs` (a path on
PYTHONPATH comes before the editable install).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

from arbiter_core.commands import Command, PlayerSetup, RunEngineWork, StartGame
from arbiter_core.decide import decide
from arbiter_core.evolve import apply, empty_state
from arbiter_core.state import Work
from arbiter_runtime.bots import RandomBot
from arbiter_runtime.decks import deck_for_seat
from arbiter_runtime.play import team_names, waiting_players

#: (variant, players, seed): a few seeded games of several variants.
GAMES: tuple[tuple[str, int, int], ...] = (
    ("free_for_all", 4, 1), ("free_for_all", 4, 2), ("free_for_all", 4, 3),
    ("two_headed_giant", 4, 1), ("two_headed_giant", 4, 2),
    ("grand_melee", 12, 1), ("grand_melee", 12, 3),
)
MAX_EVENTS = 60_000  # a safety net


def game_events(variant: str, players: int, seed: int) -> Iterator[str]:
    """The game's events, one canonical JSON line each."""
    names = [f"P{i + 1}" for i in range(players)]
    teams = team_names(variant, players)
    s = empty_state()

    def run(command: Command) -> Iterator[str]:
        for e in decide(s, command):
            apply(s, e)
            data = e.model_dump(mode="json")
            if data["type"] == "StateCheckpointed":
                data.pop("state_hash", None)
                data.pop("algorithm", None)
            data.pop("card_data_hash", None)  # GameStarted: the card pool's, not behaviour
            yield json.dumps(data, sort_keys=True, separators=(",", ":"))

    yield from run(StartGame(
        game_id="same", variant=variant, seed=seed, random_seating=True,
        players=[PlayerSetup(name=n, team=teams[i], deck=deck_for_seat(i))
                 for i, n in enumerate(names)]))
    bots = {n: RandomBot(seed * 1000 + i) for i, n in enumerate(names)}
    while not s.game_over and s.version < MAX_EVENTS:
        marker = next((m.number for m in s.markers.values() if isinstance(m.pending, Work)),
                      None)
        if marker is not None:
            yield from run(RunEngineWork(marker=marker))
            continue
        for player in waiting_players(s):
            action = bots[player].choose(s, player)
            if action is not None:
                yield from run(action)
                break
        else:
            return


def key(variant: str, players: int, seed: int) -> str:
    return f"{variant}-{players}p-seed{seed}"


def record(out: Path) -> None:
    with out.open("w", encoding="utf-8") as f:
        for variant, players, seed in GAMES:
            lines = list(game_events(variant, players, seed))
            f.write(json.dumps({"game": key(variant, players, seed), "events": lines}) + "\n")
            print(f"{key(variant, players, seed)}: {len(lines)} events")


def compare(before: Path) -> int:
    recorded: dict[str, list[str]] = {}
    for line in before.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        recorded[item["game"]] = item["events"]
    failures = 0
    for variant, players, seed in GAMES:
        name = key(variant, players, seed)
        old = recorded.get(name)
        if old is None:
            print(f"{name}: not recorded")
            failures += 1
            continue
        new = list(game_events(variant, players, seed))
        first = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b),
                     None)
        if first is None and len(old) == len(new):
            print(f"{name}: same {len(new)} events")
            continue
        failures += 1
        at = first if first is not None else min(len(old), len(new))
        print(f"{name}: DIFFERS at event {at + 1} ({len(old)} before, {len(new)} now)")
        print(f"  before: {old[at][:400] if at < len(old) else '(end)'}")
        print(f"  now:    {new[at][:400] if at < len(new) else '(end)'}")
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="action", required=True)
    rec = sub.add_parser("record", help="play the games and write their events")
    rec.add_argument("--out", type=Path, required=True)
    cmp_ = sub.add_parser("compare", help="play the games and compare with a recording")
    cmp_.add_argument("before", type=Path)
    args = parser.parse_args(argv)
    if args.action == "record":
        record(args.out)
        return 0
    return compare(args.before)


if __name__ == "__main__":
    sys.exit(main())
