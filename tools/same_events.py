"""Check that a change to the core keeps behaviour identical: the same seeded bot games
make the same events.

Usage (from the repository root):

    python tools/same_events.py record --out before.jsonl     # with the old code
    python tools/same_events.py compare before.jsonl          # with the new code
    python tools/same_events.py compare tools/same_events.digests.json   # committed digests

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
import hashlib
import importlib
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import arbiter_core
from arbiter_runtime.bots import RandomBot
from arbiter_runtime.play import seat_setup, team_names, waiting_players

if TYPE_CHECKING:
    from arbiter_core.kernel.commands import Command


def _core(name: str) -> Any:
    """`arbiter_core.kernel.<name>` (the core since issue 11's redesign), else the flat
    `arbiter_core.<name>` of the trees before it (23bc8a9), whichever tree `arbiter_core`
    was imported from."""
    redesigned = (Path(str(arbiter_core.__file__)).parent / "kernel").is_dir()
    return importlib.import_module(f"arbiter_core.{'kernel.' if redesigned else ''}{name}")


PlayerSetup = _core("commands").PlayerSetup
RunEngineWork = _core("commands").RunEngineWork
StartGame = _core("commands").StartGame
decide = _core("decide").decide
apply = _core("evolve").apply
empty_state = _core("evolve").empty_state
Work = _core("state").Work

Attack = Literal["left", "right", "multiple", "any"]


@dataclass(frozen=True)
class Game:
    """One seeded bot game: its variant, seats, seed and StartGame options."""

    variant: str
    players: int
    seed: int
    attack: Attack | None = None
    range_of_influence: int | None = None
    max_events: int = 60_000  # a safety net

    @property
    def key(self) -> str:
        extra = ""
        if self.range_of_influence is not None:
            extra += f"-range{self.range_of_influence}"
        if self.attack is not None:
            extra += f"-attack-{self.attack}"
        return f"{self.variant}-{self.players}p-seed{self.seed}{extra}"


#: A few seeded games of every variant the core implements.
GAMES: tuple[Game, ...] = (
    Game("free_for_all", 4, 1), Game("free_for_all", 4, 2), Game("free_for_all", 4, 3),
    Game("two_headed_giant", 4, 1), Game("two_headed_giant", 4, 2),
    Game("grand_melee", 12, 1), Game("grand_melee", 12, 3),
    Game("two_player", 2, 1), Game("two_player", 2, 2),
    Game("free_for_all", 4, 4, attack="left", range_of_influence=1),
    Game("team_vs_team", 4, 1), Game("emperor", 6, 1), Game("alternating_teams", 4, 1),
    Game("grand_melee", 100, 1, max_events=400_000),
    # issue 15: Commander (903) and Brawl (903.12)
    # (with the seeded starting player and mulligans of issue 13, across these games a
    # commander is cast with tax and returns by 903.9a and 903.9b, and 2p seed 3 ends by
    # 704.6c: tests/core/test_commander_bots.py)
    Game("commander", 4, 1), Game("commander", 4, 2), Game("commander", 4, 3),
    Game("commander", 4, 6), Game("commander", 2, 11), Game("commander", 2, 3),
    Game("brawl", 2, 1),
    Game("brawl", 4, 1),
)


#: The start of the game as `arbiter play` has it since issue 13: a starting player
#: chosen with the seed (103.1), the London mulligan (103.5), players ordering their
#: simultaneous triggers (603.3b). `--without-start-rules` (or a tree before them)
#: plays the games as before, to compare with tools/same_events.before-issue13.json.
START_RULES = ("random_start", "mulligans", "order_triggers")
WITH_START_RULES = [True]


def start_rules() -> dict[str, bool]:
    return {k: True for k in START_RULES
            if WITH_START_RULES[0] and k in StartGame.model_fields}


def game_events(game: Game) -> Iterator[str]:
    """The game's events, one canonical JSON line each."""
    variant, players, seed = game.variant, game.players, game.seed
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
        attack=game.attack, range_of_influence=game.range_of_influence,
        players=[seat_setup(variant, i, n, teams[i], None) for i, n in enumerate(names)],
        **start_rules()))
    bots = {n: RandomBot(seed * 1000 + i) for i, n in enumerate(names)}
    while not s.game_over and s.version < game.max_events:
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


def _selected(only: list[str] | None) -> list[Game]:
    return [g for g in GAMES if not only or any(o in g.key for o in only)]


def record(out: Path, only: list[str] | None = None) -> None:
    """Write each game's events, and beside them (`<out>.digests.json`) each game's
    event count and SHA-256, small enough to commit."""
    digests: dict[str, dict[str, object]] = {}
    with out.open("w", encoding="utf-8") as f:
        for game in _selected(only):
            lines = list(game_events(game))
            f.write(json.dumps({"game": game.key, "events": lines}) + "\n")
            digests[game.key] = {"events": len(lines), "sha256": _digest(lines)}
            print(f"{game.key}: {len(lines)} events", flush=True)
    digest_path = out.with_name(out.name + ".digests.json")
    digest_path.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n",
                           encoding="utf-8")


def _digest(lines: list[str]) -> str:
    h = hashlib.sha256()
    for line in lines:
        h.update(line.encode("utf-8") + b"\n")
    return h.hexdigest()


def _load(before: Path) -> tuple[dict[str, list[str]], dict[str, dict[str, object]]]:
    """A full recording (JSON lines) or a digests file (one JSON object)."""
    text = before.read_text(encoding="utf-8")
    if before.name.endswith(".digests.json"):
        return {}, json.loads(text)
    recorded: dict[str, list[str]] = {}
    for line in text.splitlines():
        item = json.loads(line)
        recorded[item["game"]] = item["events"]
    return recorded, {}


def compare(before: Path, only: list[str] | None = None) -> int:
    recorded, digests = _load(before)
    failures = 0
    for game in _selected(only):
        name = game.key
        old = recorded.get(name)
        if old is None and name not in digests:
            print(f"{name}: not recorded")
            failures += 1
            continue
        new = list(game_events(game))
        if old is None:
            want = digests[name]
            if want == {"events": len(new), "sha256": _digest(new)}:
                print(f"{name}: same {len(new)} events (digest)", flush=True)
            else:
                failures += 1
                print(f"{name}: DIFFERS ({want['events']} before, {len(new)} now; "
                      "compare with the full recording to find the first event)")
            continue
        first = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b),
                     None)
        if first is None and len(old) == len(new):
            print(f"{name}: same {len(new)} events", flush=True)
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
    cmp_ = sub.add_parser("compare", help="play the games and compare with a recording "
                                          "(or with its .digests.json)")
    cmp_.add_argument("before", type=Path)
    for p in (rec, cmp_):
        p.add_argument("--only", action="append", help="games whose key contains this")
        p.add_argument("--without-start-rules", action="store_true",
                       help="no random start, mulligans or trigger ordering (as before "
                            "issue 13)")
    args = parser.parse_args(argv)
    WITH_START_RULES[0] = not args.without_start_rules
    if args.action == "record":
        record(args.out, args.only)
        return 0
    return compare(args.before, args.only)


if __name__ == "__main__":
    sys.exit(main())
