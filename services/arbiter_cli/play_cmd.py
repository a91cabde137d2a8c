"""`arbiter play`: the embedded default, a seeded bot game with a SQLite store.

With `ARBITER_ANCHOR_KEY` set the store anchors the game every ANCHOR_EVERY events and
the finished game gets its final anchor before anything about it is printed (so no
printing error can leave a stored game unanchored); every id printed is escaped.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from arbiter_cli import store_cmd
from arbiter_cli.inputs import check_db, check_game_id
from arbiter_core.kernel.errors import ArbiterError
from arbiter_core.kernel.state import GameState
from arbiter_runtime.botgame import seat_names
from arbiter_runtime.play import GameSummary, play_bot_game
from arbiter_store import EventStore, StoreError, open_store
from arbiter_store.anchoring import optional_key_from_env


def _seat_decks(specs: list[str], players: int,
                variant: str) -> dict[str, dict[str, Any]]:
    if not specs:
        return {}
    from arbiter_cli import deck_cmd  # the deck package and its index, only when asked

    return deck_cmd.seat_decks(specs, seat_names(players), variant)


def run(players: int, seed: int, variant: str, db: str, game_id: str | None,
        attack: str | None = None, range_of_influence: int | None = None,
        decks: list[str] | None = None, base: str | None = None,
        single_planar_deck: bool = False) -> int:
    console = Console(highlight=False, soft_wrap=True)
    try:
        check_db(db)
        if game_id is not None:
            check_game_id(game_id)
        gid = check_game_id(game_id or f"{variant}-{players}p-seed{seed}",
                            "the game id (from --variant)")
        own = _seat_decks(decks or [], players, variant)
    except ValueError as e:  # InputError, or a deck list that cannot be used
        console.print(f"[red]{escape(str(e))}[/red]")
        return 2
    try:
        store = open_store(db, anchor_key=optional_key_from_env())
    except (StoreError, ValueError, OSError) as e:
        console.print(f"[red]cannot open store {escape(db)}: {escape(str(e))}[/red]")
        return 2
    with store:
        if store.stream_version(gid):
            if game_id is not None:
                console.print(f"[red]game {escape(repr(gid))} already exists in "
                              f"{escape(db)}[/red]")
                return 2
            n = 2
            while store.stream_version(f"{gid}-run{n}"):
                n += 1
            gid = f"{gid}-run{n}"  # the store is append-only: a replay of the seed is new
        try:
            summary = _play(store, console, gid, players, seed, variant, attack,
                            range_of_influence, own, base, single_planar_deck)
        except ArbiterError as e:
            console.print(f"[red]rejected: {escape(str(e))}[/red]")
            return 2
        try:
            anchored = store_cmd.anchor_head(store, gid)
        except StoreError as e:
            anchored = f"could not anchor the head hash: {e}"
    outcome = ("a draw" if summary.draw
               else "won by " + ", ".join(summary.winners) if summary.winners else "no winner")
    console.print(f"game [bold]{escape(gid)}[/bold]: {escape(outcome)}")
    console.print(escape(f"winner: {', '.join(summary.winners) or '-'}  turns: "
                         f"{summary.turns}  events: {summary.events}  actions: "
                         f"{summary.actions}"))
    console.print(escape(f"state hash {summary.state_hash[:16]}  store {db}"))
    console.print(escape(anchored))
    return 0


def _play(store: EventStore, console: Console, gid: str, players: int, seed: int,
          variant: str, attack: str | None, range_of_influence: int | None,
          lists: dict[str, dict[str, Any]], base: str | None = None,
          single_planar_deck: bool = False) -> GameSummary:
    """`lists`: each listed seat's `PlayerSetup` fields (deck_cmd.seat_decks): its deck
    (the commander first, as `seat_setup` reads it) and its supplementary decks."""
    decks = {seat: [*filter(None, [f.get("commander")]), *f["deck"]]
             for seat, f in lists.items()}
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(),
                  TextColumn("{task.fields[info]}"), TimeElapsedColumn(),
                  console=console, transient=True) as progress:
        task = progress.add_task(escape(gid), total=None, info="")

        def show(s: GameState) -> None:
            if s.version % 200 == 0:
                alive = len(s.in_game())
                progress.update(task, info=f"turn {s.turns_taken}, {s.version} events, "
                                           f"{alive} players in")

        return play_bot_game(store, gid, players, seed, variant, progress=show,
                             attack=attack,  # type: ignore[arg-type]
                             range_of_influence=range_of_influence, decks=decks,
                             base=base, lists=lists, single_planar_deck=single_planar_deck)
