"""`arbiter replay`: rebuild a game's state from its stored events and print the board.

`--to N` stops just after the game's N-th event. The board is the judge's view (hands
and libraries included); `--json` prints it as one JSON object on stdout.
`--explain` lists the events 1..N (or `--from` N `--to` M) instead (explain_cmd.py);
`--as-scenario` writes the position at N as a scenario file (scenario_export.py), to
`--out FILE` or stdout;
`--check` re-decides the log with the current engine and reports the first divergence
(check_cmd.py).
Every error is one line on stderr and exit code 2.
"""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from arbiter_cli import check_cmd, explain_cmd
from arbiter_cli.audit import AuditError, apply_checked, guarded, load_log
from arbiter_cli.board import board_json, render_board
from arbiter_cli.scenario_export import ExportError, export_scenario
from arbiter_core.kernel.events import Event
from arbiter_core.kernel.evolve import empty_state
from arbiter_core.kernel.hashing import state_hash
from arbiter_core.kernel.state import GameState
from arbiter_runtime.fold import LogStates

PROGRESS_THRESHOLD = 2000

ReplayError = AuditError  # the name this module used before the audit commands


def _rebuild(events: list[Event], err: Console) -> GameState:
    state = empty_state()
    rebuild = LogStates(events)
    if len(events) <= PROGRESS_THRESHOLD:
        for e in events:
            apply_checked(state, e, rebuild)
        return state
    with Progress(TextColumn("[bold]replaying"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=err, transient=True) as progress:
        task = progress.add_task("replay", total=len(events))
        for i, e in enumerate(events, 1):
            apply_checked(state, e, rebuild)
            if i % 500 == 0 or i == len(events):
                progress.update(task, completed=i)
    return state


def run(db: str, game: str | None, to: int | None, as_json: bool, explain: bool = False,
        as_scenario: bool = False, out: Path | None = None, check: bool = False,
        from_: int | None = None) -> int:
    if sum((explain, as_scenario, check)) > 1:
        return _refuse("--explain, --as-scenario and --check cannot be used together")
    if from_ is not None and not explain:
        return _refuse("--from is for --explain")
    if check:
        return check_cmd.run(db=db, game=game, to=to, as_json=as_json)
    if out is not None and not as_scenario:
        return _refuse("--out is for --as-scenario")
    if explain:
        return explain_cmd.run(db=db, game=game, to=to, as_json=as_json, first=from_)
    if as_scenario:
        if as_json:
            return _refuse("--as-scenario writes YAML; --json does not apply")
        return guarded(lambda: _scenario(db, game, to, out))
    return guarded(lambda: _board(db, game, to, as_json))


def _refuse(message: str) -> int:
    def body() -> int:
        raise AuditError(message)

    return guarded(body)


def _board(db: str, game: str | None, to: int | None, as_json: bool) -> int:
    log = load_log(db, game, to)
    state = _rebuild(log.events, Console(stderr=True))
    n = len(log.events)
    digest = state_hash(state)
    if as_json:
        print(json.dumps({"game": log.game, "event": n, "total": log.total,
                          "state_hash": digest, "state": board_json(state)}))
        return 0
    out = Console()
    out.print(f"game [bold]{escape(log.game)}[/bold]  event {n} of {log.total}  "
              f"state hash {digest}", soft_wrap=True, highlight=False)
    out.print(render_board(state))
    return 0


def _scenario(db: str, game: str | None, to: int | None, out: Path | None) -> int:
    log = load_log(db, game, to)
    state = _rebuild(log.events, Console(stderr=True))
    n = len(log.events)
    try:
        exported = export_scenario(state, f"{log.game} at event {n}")
    except ExportError as e:
        raise AuditError(f"cannot export event {n} as a scenario: {e}") from e
    err = Console(stderr=True)
    for w in exported.warnings:
        err.print(f"[yellow]warning:[/yellow] {escape(w)}", soft_wrap=True, highlight=False)
    text = exported.text()
    if out is None:
        print(text, end="")
        return 0
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as e:
        raise AuditError(f"cannot write {str(out)!r}: {e.strerror or e}") from e
    err.print(f"scenario written to {escape(str(out))} (position after event {n} of "
              f"{log.total})", soft_wrap=True, highlight=False)
    return 0
