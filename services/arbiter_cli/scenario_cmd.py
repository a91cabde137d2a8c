"""`arbiter scenario run FILE_OR_FOLDER... [--json]` (docs/scenarios.md)."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console

from arbiter_scenarios.runner import Result, run_scenario


def collect(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            files.extend(sorted(p.rglob("*.yaml")))
        else:
            files.append(p)
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
        r: Result = run_scenario(f)
        expected_fail = f.name in xfail
        if as_json:
            print(json.dumps({**r.as_json(), **({"expected_failure": True}
                                                if expected_fail else {})}))
        elif r.passed and expected_fail:
            console.print(f"XPASS {r.name} (remove {f.name} from the expected failures)")
        elif r.passed:
            console.print(f"PASS {r.name}")
        elif expected_fail:
            console.print(f"XFAIL {r.name}: {r.failures[0]}")
        else:
            console.print(f"[red]FAIL[/red] {r.name}: {r.failures[0]}")
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
