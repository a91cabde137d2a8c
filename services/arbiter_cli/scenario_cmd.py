"""`arbiter scenario run FILE_OR_FOLDER... [--json]` (docs/scenarios.md).

Every file gets its line, whatever it holds: a file that cannot be read or run is a FAIL
naming the file and the problem, and the batch goes on. A scenario that runs longer than
SCENARIO_SECONDS is stopped and fails (the file's parsing is bounded by
`arbiter_scenarios.loading`). Names and reasons are printed as plain text (rich markup in
a scenario name is shown, not interpreted).
"""

from __future__ import annotations

import json
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

from rich.console import Console
from rich.markup import escape

from arbiter_scenarios.runner import Result, run_scenario

SCENARIO_SECONDS = 60.0


class ScenarioTimeout(BaseException):
    """Raised in the main thread when a scenario runs past its time (a BaseException, so
    the runner's own error handling does not turn it into an ordinary failure)."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Interrupt the block after ``seconds`` (main thread only; elsewhere: no limit)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(
            signal, "setitimer"):
        yield
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        raise ScenarioTimeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_one(path: Path, seconds: float = SCENARIO_SECONDS) -> Result:
    """The result of one file, never an exception."""
    try:
        with time_limit(seconds):
            return run_scenario(path)
    except ScenarioTimeout:
        return Result(str(path), path.stem, False,
                      [f"{path}: stopped after {seconds:g} s (a scenario's time is bounded)"])
    except (Exception, RecursionError, MemoryError) as e:
        return Result(str(path), path.stem, False,
                      [f"{path}: cannot run it: {type(e).__name__}: {str(e)[:300]}"])


def collect(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for p in paths:
        try:
            files.extend(sorted(p.rglob("*.yaml")) if p.is_dir() else [p])
        except OSError:
            files.append(p)  # reported as a file that cannot be read
    return files


def _expected_failures(path: Path | None) -> set[str]:
    if path is None or not path.exists():
        return set()
    lines = path.read_text(encoding="utf-8").splitlines()
    return {ln.split("#")[0].strip() for ln in lines if ln.split("#")[0].strip()}


def run(paths: list[Path], as_json: bool = False, expected_failures: Path | None = None) -> int:
    console = Console(highlight=False, soft_wrap=True)
    xfail = _expected_failures(expected_failures)
    files = collect(paths)
    if not files:
        console.print("no scenario files found")
        return 2
    ok = True
    passed = failed = xfailed = 0
    for f in files:
        r: Result = run_one(f)
        expected_fail = f.name in xfail
        if as_json:
            print(json.dumps({**r.as_json(), **({"expected_failure": True}
                                                if expected_fail else {})}))
        elif r.passed and expected_fail:
            console.print(escape(f"XPASS {r.name} (remove {f.name} from the expected "
                                 "failures)"))
        elif r.passed:
            console.print(escape(f"PASS {r.name}"))
        elif expected_fail:
            console.print(escape(f"XFAIL {r.name}: {r.failures[0]}"))
        else:
            console.print(f"[red]FAIL[/red] {escape(r.name)}: {escape(r.failures[0])}")
        if r.passed and not expected_fail:
            passed += 1
        elif not r.passed and expected_fail:
            xfailed += 1
        else:
            failed += 1
            ok = False
    if not as_json:
        tail = f", {xfailed} expected failures" if xfailed else ""
        console.print(f"scenarios: {passed} passed, {failed} failed{tail}")
    return 0 if ok else 1
