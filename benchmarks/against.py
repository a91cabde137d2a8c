"""`python -m benchmarks.engine --against REV`: this tree's pure core against REV's.

REV's `libs` are exported with `git archive` into a temporary directory. Each round runs
the same workload (`benchmarks/engine_workload.py`, this tree's file: seeded bot games on
the pure core) twice, in a fresh subprocess each, once with this tree's `libs` on
PYTHONPATH and once with REV's, the order alternating from round to round so that a
drift in the machine's load favours neither. A round's ratio is this tree's events per
second over REV's; the median of the rounds' ratios is the figure (issue 11: at least
0.95).

Events per second are per CPU second of the playing process (`time.process_time`),
which other processes on a shared machine disturb far less than the wall clock; the
wall-clock ratio is printed beside it. Both trees must play the same games (the same
event count per seed), or the ratio would compare different work: the run stops.
"""

from __future__ import annotations

import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
WORKLOAD = Path(__file__).resolve().with_name("engine_workload.py")


@dataclass(frozen=True)
class Run:
    """One workload run in one tree."""

    events: int
    seconds: float
    cpu_seconds: float
    games: dict[str, int]

    @property
    def per_cpu_second(self) -> float:
        return self.events / self.cpu_seconds if self.cpu_seconds > 0 else 0.0

    @property
    def per_second(self) -> float:
        return self.events / self.seconds if self.seconds > 0 else 0.0


def resolve(rev: str) -> str:
    """REV's commit id (an error names REV if git does not know it)."""
    done = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet",
                           f"{rev}^{{commit}}"], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"--against: git knows no commit {rev!r}")
    return done.stdout.strip()


def export_libs(commit: str, into: Path) -> Path:
    """REV's `libs` tree, written under `into` (`git archive`); returns its libs dir."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit,
                              "libs"], capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "libs"


def run_workload(libs: Path, games: int, players: int, seed: int,
                 max_permanents: int) -> Run:
    """The workload in a subprocess whose `arbiter_*` packages come from `libs`."""
    env = {**os.environ, "PYTHONPATH": str(libs)}
    done = subprocess.run(
        [sys.executable, str(WORKLOAD), "--games", str(games), "--players", str(players),
         "--seed", str(seed), "--max-permanents", str(max_permanents)],
        env=env, capture_output=True, text=True, cwd=libs.parent)
    if done.returncode != 0:
        raise SystemExit(f"the workload failed with {libs} on PYTHONPATH:\n"
                         f"{done.stderr[-2000:]}")
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    where = Path(out["arbiter_core"]).resolve()
    if libs.resolve() not in where.parents:
        raise SystemExit(f"the workload imported arbiter_core from {where}, not {libs}")
    return Run(out["events"], out["seconds"], out["cpu_seconds"], out["games"])


def main(rev: str, rounds: int, games: int, players: int, seed: int, max_permanents: int,
         min_ratio: float | None, console: Console) -> int:
    commit = resolve(rev)
    load_before = os.getloadavg()
    rows: list[tuple[int, Run, Run]] = []
    with tempfile.TemporaryDirectory(prefix="arbiter-against-") as tmp:
        theirs = export_libs(commit, Path(tmp))
        ours = ROOT / "libs"
        for r in range(rounds):
            order = (ours, theirs) if r % 2 == 0 else (theirs, ours)
            done = {libs: run_workload(libs, games, players, seed, max_permanents)
                    for libs in order}
            mine, other = done[ours], done[theirs]
            if mine.games != other.games:
                console.print(f"[red]the trees played different games (events per seed: "
                              f"this tree {mine.games}, {rev} {other.games})[/red]")
                return 1
            rows.append((r + 1, mine, other))
            console.print(f"round {r + 1}: this tree {mine.per_cpu_second:,.0f} events/CPU s,"
                          f" {rev} {other.per_cpu_second:,.0f}", style="dim", highlight=False)
    ratio = statistics.median(m.per_cpu_second / o.per_cpu_second for _, m, o in rows)
    wall = statistics.median(m.per_second / o.per_second for _, m, o in rows)
    report(rows, rev, commit, games, players, ratio, wall, console)
    load_after = os.getloadavg()
    console.print(f"load average (1, 5, 15 min) before {_load(load_before)}, after "
                  f"{_load(load_after)}", highlight=False)
    if min_ratio is not None and ratio < min_ratio:
        console.print(f"[red]median ratio {ratio:.3f} is below {min_ratio}[/red]")
        return 1
    return 0


def report(rows: list[tuple[int, Run, Run]], rev: str, commit: str, games: int,
           players: int, ratio: float, wall: float, console: Console) -> None:
    table = Table(title=f"Arbiter engine: this tree against {rev} ({commit[:10]}), "
                        f"{games} seeded {players}-player pure-core games a run",
                  caption="events/s per CPU second of the playing process; ratio = this "
                          "tree / REV")
    for name in ("round", "events", "this tree events/s", "REV events/s", "ratio",
                 "wall ratio"):
        table.add_column(name, justify="right")
    for n, mine, other in rows:
        table.add_row(str(n), f"{mine.events:,}", f"{mine.per_cpu_second:,.0f}",
                      f"{other.per_cpu_second:,.0f}",
                      f"{mine.per_cpu_second / other.per_cpu_second:.3f}",
                      f"{mine.per_second / other.per_second:.3f}")
    table.add_row("median", "", "", "", f"{ratio:.3f}", f"{wall:.3f}", style="bold")
    console.print(table)


def _load(avg: tuple[float, float, float]) -> str:
    return ", ".join(f"{x:.2f}" for x in avg)
