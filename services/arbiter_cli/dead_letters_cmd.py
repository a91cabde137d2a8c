"""`arbiter dead-letters`: the messages the services set aside because handling them
kept failing (issue 14; `arbiter_runtime.deadletters`), for a judge to rule on.

Every game's records (or `--game ID`'s), oldest first: the game, the message (a seat's
command by its actor and id, or engine work by its work id), the service, the attempts,
the version the game was at, and the last failure. `--json` prints them as a JSON list.
"""

from __future__ import annotations

import json

from rich.markup import escape
from rich.table import Table

from arbiter_cli.audit import AuditError, guarded, open_checked, wide_console
from arbiter_runtime.audit import valid_game_id
from arbiter_runtime.command_ids import command_id_of
from arbiter_runtime.deadletters import DeadLetter, all_dead_letters, dead_letters


def run(db: str, game: str | None, as_json: bool) -> int:
    def body() -> int:
        if game is not None and not valid_game_id(game):
            raise AuditError("--game: not a game id (letters, digits, '_', '.', '-'; at "
                             "most 80)")
        with open_checked(db) as store:
            letters = all_dead_letters(store) if game is None else dead_letters(store, game)
        if as_json:
            print(json.dumps([d.model_dump(mode="json") for d in letters]))
            return 0
        console = wide_console()
        if not letters:
            console.print("no dead letters" + (f" for game {escape(game)}" if game else ""),
                          highlight=False)
            return 0
        console.print(render(letters))
        return 0
    return guarded(body)


def render(letters: list[DeadLetter]) -> Table:
    table = Table(title="messages set aside (dead letters)", title_justify="left")
    for col in ("game", "message", "service", "attempts", "at version", "last failure"):
        table.add_column(col, justify="right" if col in ("attempts", "at version") else
                         "left")
    for d in letters:
        what = (f"{d.actor}'s command {command_id_of(d.key)}" if d.kind == "command"
                else f"work {d.key.removeprefix('w/')}")
        table.add_row(escape(d.game_id), escape(what), escape(d.service), str(d.attempts),
                      str(d.at_version), escape(d.reason))
    return table
