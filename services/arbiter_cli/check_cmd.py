"""`arbiter replay --check`: re-decide a stored game with the engine installed now and
report the first event where it would have ruled differently.

The game's first event records the engine version, the rules edition and a hash of the
card data it was played with; those are printed next to the current ones. Then every
engine batch of the log (the store's metadata marks what `RunEngineWork` made) is
decided again on the state rebuilt from the events before it, and each state-hash
checkpoint is compared with the rebuilt state (`arbiter_core.kernel.divergence.walk`). Player
commands are not in the log, so their events are applied as stored.

Exit code 0 when the engine makes the same log, 1 at a divergence, 2 on an error (one
line on stderr, as every audit command).
"""

from __future__ import annotations

import json
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from arbiter_cli.audit import Log, guarded, load_log, wide_console
from arbiter_core.cards.fingerprint import card_data_hash
from arbiter_core.kernel.divergence import Divergence, walk
from arbiter_core.kernel.events import GameStarted
from arbiter_core.kernel.rules_index import CR_EDITION
from arbiter_core.kernel.version import ENGINE_VERSION


def provenance(log: Log) -> list[dict[str, Any]]:
    """Engine version, rules edition and card-data hash: recorded (first event) vs now."""
    first = log.events[0] if log.events else None
    recorded: dict[str, str | None] = {"engine version": None, "rules edition": None,
                                       "card data hash": None}
    if isinstance(first, GameStarted):
        recorded = {"engine version": first.engine_version,
                    "rules edition": first.rules_edition,
                    "card data hash": first.card_data_hash}
    current = {"engine version": ENGINE_VERSION, "rules edition": CR_EDITION,
               "card data hash": card_data_hash()}
    return [{"what": k, "recorded": recorded[k], "current": current[k],
             "same": recorded[k] == current[k]} for k in current]


def check(log: Log) -> dict[str, Any]:
    """The report as plain data (what `--json` prints)."""
    batches, divergence = walk(log.events, log.engine_made, fold=log.fold)
    engine_batches = sum(1 for b in batches if b.work is not None)
    return {"game": log.game, "events": len(log.events), "total": log.total,
            "provenance": provenance(log), "engine_batches_checked": engine_batches,
            "divergence": _divergence(divergence)}


def _divergence(d: Divergence | None) -> dict[str, Any] | None:
    if d is None:
        return None
    return {"event": d.version, "work": d.work, "marker": d.marker, "reason": d.reason,
            "stored": d.expected, "engine": d.actual}


def run(db: str, game: str | None, to: int | None, as_json: bool) -> int:
    def body() -> int:
        log = load_log(db, game, to)
        report = check(log)
        if as_json:
            print(json.dumps(report))
        else:
            _render(report, wide_console())
        return 0 if report["divergence"] is None else 1

    return guarded(body)


def _render(report: dict[str, Any], out: Console) -> None:
    table = Table(title=f"game {report['game']}: provenance", title_justify="left")
    for col in ("", "recorded", "now"):
        table.add_column(col)
    for row in report["provenance"]:
        style = "" if row["same"] else "yellow"
        table.add_row(row["what"], escape(str(row["recorded"] or "-")),
                      escape(str(row["current"])), style=style)
    out.print(table)
    d = report["divergence"]
    checked = (f"{report['engine_batches_checked']} engine batches re-decided over events "
               f"1-{report['events']} of {report['total']}")
    if d is None:
        out.print(f"[green]no divergence[/green]: the current engine makes the same log "
                  f"({checked})", soft_wrap=True, highlight=False)
        return
    where = f"work {d['work']} on marker {d['marker']}" if d["work"] else "a stored event"
    out.print(f"[red]diverges at event {d['event']}[/red] ({escape(where)}): "
              f"{escape(d['reason'])}", soft_wrap=True, highlight=False)
    out.print(f"checked before it: {checked}", soft_wrap=True, highlight=False)
    side = Table(title=f"event {d['event']}", title_justify="left")
    side.add_column("stored in the log")
    side.add_column("made by the current engine")
    side.add_row(escape(_show(d["stored"])), escape(_show(d["engine"])))
    out.print(side)


def _show(event: dict[str, Any] | None) -> str:
    if event is None:
        return "(none)"
    return "\n".join(f"{k}: {json.dumps(v)}" for k, v in event.items())
