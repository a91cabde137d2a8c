"""What the judge's audit commands share: opening a store, picking a game, reading its
log up to an event, rebuilding states, naming objects, and reporting errors as one line
on stderr with exit code 2 (never a traceback).

Used by `arbiter replay` (board, `--explain`, `--as-scenario`) and `arbiter diff`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from arbiter_cli.inputs import InputError, check_db, check_game_id
from arbiter_core.kernel.events import Event
from arbiter_core.kernel.evolve import empty_state
from arbiter_core.kernel.state import GameState
from arbiter_runtime.codec import from_stored
from arbiter_runtime.fold import LogStates, StateAt, fold
from arbiter_store import EventStore, NotAStore, StoredEvent, open_store
from arbiter_store.location import parse_location, redact

ENGINE_COMMAND = "RunEngineWork"


class AuditError(Exception):
    """A one-line message for the user; the command exits with code 2."""


def local_path(db: str) -> str | None:
    """The file a store URL names, or None for an in-memory or non-file store."""
    location = parse_location(check_db(db))
    if location.backend != "sqlite" or location.target == ":memory:":
        return None
    return location.target


def open_checked(db: str) -> EventStore:
    """Open an existing store read-only: a missing SQLite file is an error (and is not
    created), a file that is not an Arbiter store is refused and left as it was."""
    path = local_path(db)
    if path is None and parse_location(db).backend == "sqlite":
        raise AuditError(f"{db!r} is an in-memory store: it holds no stored games")
    if path is not None and not Path(path).is_file():
        raise AuditError(f"no event store at {db!r} (file not found)")
    try:
        return open_store(db, read_only=True)
    except NotAStore as e:
        raise AuditError(f"{e}") from e
    except Exception as e:  # StoreError, ValueError, OSError: all reported the same way
        raise AuditError(f"cannot open store {redact(db)!r}: {first_line(e)}") from e


def pick_game(store: EventStore, db: str, game: str | None) -> str:
    if game is not None:
        check_game_id(game)
    ids = store.stream_ids()
    listing = ", ".join(ids[:20]) + (f", ... ({len(ids)} in all)" if len(ids) > 20 else "") \
        if ids else "none"
    if game is None:
        if len(ids) == 1:
            return ids[0]
        if not ids:
            raise AuditError(f"the store {db!r} holds no games")
        raise AuditError(f"the store {db!r} holds {len(ids)} games; pass --game, one of: "
                         f"{listing}")
    if game not in ids:
        raise AuditError(f"no game {game!r} in {db!r}; games: {listing}")
    return game


def check_event_number(n: int, total: int, gid: str, option: str = "--to") -> None:
    if n < 0:
        raise AuditError(f"{option} must be 0 or more, got {n}")
    if n > total:
        raise AuditError(f"{option} {n} is beyond the end: game {gid!r} has {total} events")


@dataclass(frozen=True)
class Log:
    """A game's stored events 1..N (`stored`) and the same as core events (`events`)."""

    game: str
    total: int
    stored: list[StoredEvent]
    events: list[Event]

    @property
    def state_at(self) -> StateAt:
        """The state after event n, for a judge's correction (`arbiter_runtime.fold`)."""
        return LogStates(self.events)

    def fold(self, state: GameState, event: Event) -> None:
        """`fold` with this log's states (the walk's and the replays' hook)."""
        fold(state, event, self.state_at)

    @property
    def engine_made(self) -> list[bool]:
        return [e.metadata.get("command") == ENGINE_COMMAND for e in self.stored]


def decode(stored: StoredEvent) -> Event:
    try:
        return from_stored(stored)
    except Exception as e:  # a log this engine cannot read: report, don't crash
        raise AuditError(f"cannot read event {stored.version} ({stored.type}): "
                         f"{first_line(e)}") from e


def load_log(db: str, game: str | None, to: int | None, option: str = "--to") -> Log:
    """Read a game's events 1..`to` (default: all) from the store at `db`."""
    store = open_checked(db)
    with store:
        gid = pick_game(store, db, game)
        total = store.stream_version(gid)
        n = total if to is None else to
        check_event_number(n, total, gid, option)
        stored = list(store.read_stream(gid, 1, n)) if n > 0 else []
    return Log(gid, total, stored, [decode(s) for s in stored])


def apply_checked(state: GameState, event: Event, state_at: StateAt) -> None:
    """Fold one event (`arbiter_runtime.fold`: a judge's correction restores the state at
    its event from `state_at`)."""
    try:
        fold(state, event, state_at)
    except Exception as e:  # a log this engine cannot replay
        raise AuditError(f"cannot replay event {state.version} ({event.type}): "
                         f"{first_line(e)}") from e


def states_at(events: Sequence[Event], versions: Iterable[int]) -> dict[int, GameState]:
    """The states just after each of `versions` (0 is the empty state before event 1)."""
    wanted = set(versions)
    out: dict[int, GameState] = {}
    state = empty_state()
    if 0 in wanted:
        out[0] = state.clone()
    rebuild = LogStates(events)
    for e in events:
        if len(out) == len(wanted):
            break
        apply_checked(state, e, rebuild)
        if state.version in wanted:
            out[state.version] = state.clone()
    return out


def wide_console() -> Console:
    """stdout; when it is not a terminal (a pipe, a file, a test), 160 columns wide so
    tables are not squeezed to the 80-column default."""
    console = Console()
    if not console.is_terminal:
        console.width = 160
    return console


def first_line(e: BaseException) -> str:
    text = str(e)
    return text.splitlines()[0] if text else type(e).__name__


def guarded(body: Callable[[], int]) -> int:
    """Run a command body; any error becomes one line on stderr and exit code 2."""
    err = Console(stderr=True, highlight=False)
    try:
        return body()
    except (AuditError, InputError) as e:
        err.print(f"[red]error:[/red] {escape(str(e))}", soft_wrap=True, highlight=False)
    except Exception as e:  # the store or a file failed: still one line
        err.print(f"[red]error:[/red] {escape(type(e).__name__)}: {escape(first_line(e))}",
                  soft_wrap=True, highlight=False)
    return 2


