"""`arbiter play`: the embedded default, a seeded bot game with a SQLite store."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from arbiter_cli import store_cmd
from arbiter_core.errors import ArbiterError
from arbiter_core.state import GameState
from arbiter_runtime.botgame import seat_names
from arbiter_runtime.play import play_bot_game
from arbiter_store import StoreError, open_store


def _seat_decks(specs: list[str], players: int, variant: str) -> dict[str, list[str]]:
    if not specs:
        return {}
    from arbiter_cli import deck_cmd  # the deck package and its index, only when asked

    return deck_cmd.seat_decks(specs, seat_names(players), variant)


def run(players: int, seed: int, variant: str, db: str, game_id: str | None,
        attack: str | None = None, range_of_influence: int | None = None,
        decks: list[str] | None = None) -> int:
    console = Console()
    try:
        own = _seat_decks(decks or [], players, variant)
    except ValueError as e:
        console.print(f"[red]{escape(str(e))}[/red]", highlight=False, soft_wrap=True)
        return 2
    gid = game_id or f"{variant}-{players}p-seed{seed}"
    try:
        store = open_store(db)
    except StoreError as e:
        console.print(f"[red]cannot open store {db}: {e}[/red]")
        return 2
    with store:
        if store.stream_version(gid):
            if game_id is not None:
                console.print(f"[red]game {gid!r} already exists in {db}[/red]")
                return 2
            n = 2
            while store.stream_version(f"{gid}-run{n}"):
                n += 1
            gid = f"{gid}-run{n}"  # the store is append-only: a replay of the seed is new
        with Progress(TextColumn("[bold]{task.description}"), BarColumn(),
                      TextColumn("{task.fields[info]}"), TimeElapsedColumn(),
                      console=console, transient=True) as progress:
            task = progress.add_task(f"{gid}", total=None, info="")

            def show(s: GameState) -> None:
                if s.version % 200 == 0:
                    alive = len(s.in_game())
                    progress.update(task, info=f"turn {s.turns_taken}, {s.version} events, "
                                               f"{alive} players in")

            try:
                summary = play_bot_game(store, gid, players, seed, variant, progress=show,
                                        attack=attack,  # type: ignore[arg-type]
                                        range_of_influence=range_of_influence,
                                        decks=own)
            except ArbiterError as e:
                console.print(f"[red]rejected: {e}[/red]")
                return 2
    outcome = ("a draw" if summary.draw
               else "won by " + ", ".join(summary.winners) if summary.winners else "no winner")
    console.print(f"game [bold]{gid}[/bold]: {outcome}")
    console.print(f"winner: {', '.join(summary.winners) or '-'}  turns: {summary.turns}  "
                  f"events: {summary.events}  actions: {summary.actions}")
    console.print(f"state hash {summary.state_hash[:16]}  store {db}")
    try:
        console.print(store_cmd.anchor_head(db, gid))
    except StoreError as e:
        console.print(f"[red]could not anchor the head hash: {e}[/red]")
    return 0
