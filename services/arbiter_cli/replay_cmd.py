"""`arbiter replay`: rebuild a game's state from its stored events and print the board.

`--to N` stops just after the game's N-th event. The board is the judge's view (hands
and libraries included); `--json` prints it as one JSON object on stdout. Every error
is one line on stderr and exit code 2.
"""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from arbiter_cli.board import board_json, render_board
from arbiter_core.evolve import apply, empty_state
from arbiter_core.hashing import state_hash
from arbiter_core.state import GameState
from arbiter_runtime.codec import from_stored
from arbiter_store import EventStore, StoredEvent, open_store

PROGRESS_THRESHOLD = 2000


class ReplayError(Exception):
    """A one-line message for the user; the command exits with code 2."""


def _local_path(db: str) -> str | None:
    """The file a store URL names, or None for an in-memory or non-file store."""
    if db in (":memory:", "sqlite://", "sqlite:///:memory:"):
        return None
    if db.lower().startswith("sqlite:///"):
        return db[len("sqlite:///"):]
    if "://" in db:
        return None
    return db


def _open(db: str) -> EventStore:
    path = _local_path(db)
    if path is not None and not Path(path).is_file():
        raise ReplayError(f"no event store at {db!r} (file not found)")
    try:
        return open_store(db)
    except Exception as e:  # StoreError, ValueError, OSError: all reported the same way
        raise ReplayError(f"cannot open store {db!r}: {e}") from e


def _pick_game(store: EventStore, db: str, game: str | None) -> str:
    ids = store.stream_ids()
    listing = ", ".join(ids) if ids else "none"
    if game is None:
        if len(ids) == 1:
            return ids[0]
        if not ids:
            raise ReplayError(f"the store {db!r} holds no games")
        raise ReplayError(f"the store {db!r} holds {len(ids)} games; pass --game, one of: "
                          f"{listing}")
    if game not in ids:
        raise ReplayError(f"no game {game!r} in {db!r}; games: {listing}")
    return game


def _rebuild(events: list[StoredEvent], err: Console) -> GameState:
    state = empty_state()
    if len(events) <= PROGRESS_THRESHOLD:
        for stored in events:
            _apply(state, stored)
        return state
    with Progress(TextColumn("[bold]replaying"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=err, transient=True) as progress:
        task = progress.add_task("replay", total=len(events))
        for i, stored in enumerate(events, 1):
            _apply(state, stored)
            if i % 500 == 0 or i == len(events):
                progress.update(task, completed=i)
    return state


def _apply(state: GameState, stored: StoredEvent) -> None:
    try:
        apply(state, from_stored(stored))
    except Exception as e:  # a log this engine cannot replay: report, don't crash
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise ReplayError(f"cannot replay event {stored.version} ({stored.type}): "
                          f"{first}") from e


def run(db: str, game: str | None, to: int | None, as_json: bool) -> int:
    out = Console()
    err = Console(stderr=True)
    try:
        store = _open(db)
        with store:
            gid = _pick_game(store, db, game)
            total = store.stream_version(gid)
            n = total if to is None else to
            if n < 0:
                raise ReplayError(f"--to must be 0 or more, got {n}")
            if n > total:
                raise ReplayError(f"--to {n} is beyond the end: game {gid!r} has "
                                  f"{total} events")
            events = store.read_stream(gid, 1, n) if n > 0 else []
            state = _rebuild(events, err)
    except ReplayError as e:
        err.print(f"[red]error:[/red] {escape(str(e))}", soft_wrap=True, highlight=False)
        return 2
    except Exception as e:  # the store failed while reading: still one line
        err.print(f"[red]error:[/red] {escape(type(e).__name__)}: {escape(str(e))}",
                  soft_wrap=True, highlight=False)
        return 2
    digest = state_hash(state)
    if as_json:
        print(json.dumps({"game": gid, "event": n, "total": total, "state_hash": digest,
                          "state": board_json(state)}))
        return 0
    out.print(f"game [bold]{escape(gid)}[/bold]  event {n} of {total}  state hash {digest}",
              soft_wrap=True, highlight=False)
    out.print(render_board(state))
    return 0
