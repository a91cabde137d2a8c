"""`arbiter replay --explain`: one row per event 1..N (`--from` N `--to` M: a range, like
the judge console's timeline), for a judge reading a game's log.

Each row has the version, the event type, a short summary in words ("P2 casts Shock
targeting P3", "Grizzly Bears (#41) dealt 2 damage by Shock (#147)": the line each rule
registers for its events, `arbiter_core.kernel.explain`), what caused it --
the player's command (the store's metadata "command"/"actor") or the engine's work
("engine: resolve_top", found by re-deciding the log, see `arbiter_core.kernel.divergence`) --,
the actor and the CR rule the event cites. `--json` prints the rows as a JSON list.
"""

from __future__ import annotations

import json
from typing import Any

from rich.markup import escape
from rich.table import Table

from arbiter_cli.audit import AuditError, Log, apply_checked, guarded, load_log, wide_console
from arbiter_core.kernel.divergence import walk
from arbiter_core.kernel.evolve import empty_state
from arbiter_core.kernel.explain import Namer, explain
from arbiter_core.kernel.shell_loop import owed_work
from arbiter_core.kernel.state import GameState


def explain_rows(log: Log) -> list[dict[str, Any]]:
    """One row per event of the log (see the module docstring)."""
    engine_made = log.engine_made
    try:
        batches, _ = walk(log.events, engine_made, fold=log.fold)
    except Exception:  # an engine that cannot re-decide this log: label from the state
        batches = []
    work: dict[int, str] = {}
    for b in batches:
        if b.work is not None:
            work.update(dict.fromkeys(range(b.start, b.end), b.work))
    name = Namer()
    state = empty_state()
    rows: list[dict[str, Any]] = []
    for i, (stored, e) in enumerate(zip(log.stored, log.events, strict=True)):
        before = state.clone()
        apply_checked(state, e, log.state_at)
        name.learn(state)
        command = str(stored.metadata.get("command", ""))
        actor = stored.metadata.get("actor")
        if engine_made[i]:
            kind = work.get(i) or _pending_work(before)
            cause = f"engine: {kind}" if kind else f"engine (CR {e.rule})"
            actor = "engine"
        else:
            cause = command or "-"
        rows.append({"version": stored.version, "type": e.type,
                     "summary": explain(before, e, name), "cause": cause,
                     "command": command or None, "actor": actor, "rule": e.rule})
    return rows


def _pending_work(state: GameState) -> str | None:
    """The engine work the state owes (used past a divergence, where batches are not
    known)."""
    return next((kind for _, kind in owed_work(state)), None)


def render_rows(rows: list[dict[str, Any]], title: str) -> Table:
    table = Table(title=title, title_justify="left")
    for col, style in (("#", "dim"), ("event", "bold"), ("what happened", ""),
                       ("cause", "cyan"), ("actor", ""), ("CR", "green")):
        table.add_column(col, style=style or None, justify="right" if col == "#" else "left")
    for r in rows:
        table.add_row(str(r["version"]), r["type"], escape(r["summary"]), escape(r["cause"]),
                      escape(str(r["actor"] or "-")), r["rule"])
    return table


def run(db: str, game: str | None, to: int | None, as_json: bool,
        first: int | None = None) -> int:
    """`first`: list from that event on (`--from`; the log is still replayed from event 1,
    each line needs the state before its event)."""
    def body() -> int:
        log = load_log(db, game, to)
        n = len(log.stored)
        start = 1 if first is None else first
        if start < 1 or start > max(n, 1):
            raise AuditError(f"--from must be between 1 and {max(n, 1)} (--to), got {start}")
        rows = [r for r in explain_rows(log) if r["version"] >= start]
        if as_json:
            print(json.dumps(rows))
            return 0
        wide_console().print(render_rows(rows, f"game {log.game}: events {start}-{n} of "
                                               f"{log.total}"), soft_wrap=False)
        return 0

    return guarded(body)
