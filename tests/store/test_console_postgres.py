"""The judge console reads PostgreSQL stores as it reads SQLite ones (issue 16): the
games list, the board at an event, a filtered timeline, Why? and the chain status,
through the store's interface only."""

from __future__ import annotations

import time
from collections.abc import Callable

from arbiter_gateway.console.reads import ConsoleReads, Filters, RuleUrl
from arbiter_runtime.play import play_bot_game
from arbiter_store import open_store


def test_the_console_reads_a_postgres_store(pg_schemas: Callable[[], str]) -> None:
    url = pg_schemas()
    with open_store(url, auto_migrate=True) as store:
        played = play_bot_game(store, "pg-console", 2, 4, "two_player")
        reads = ConsoleReads(store)
        (row,) = reads.games(None, None, 10).games
        assert (row.game_id, row.variant, row.status, row.events) == (
            "pg-console", "two_player", "finished", played.events)
        board = reads.board("pg-console", None, None, True)
        assert board.at == played.events and board.view.game_over
        middle = reads.board("pg-console", played.events // 2, "P1", False)
        assert [p.hand is not None for p in middle.view.players] == [
            p.name == "P1" for p in middle.view.players]
        deadline = time.monotonic() + 60
        page = reads.timeline("pg-console", Filters(rule="117"), 0, 50, True)
        while not page.complete and time.monotonic() < deadline:
            time.sleep(0.1)
            page = reads.timeline("pg-console", Filters(rule="117"), 0, 50, True)
        assert page.complete and page.rows
        assert all(r.rule.startswith("117.") and r.summary for r in page.rows)
        why = reads.why("pg-console", played.events, RuleUrl(None))
        assert why.chain[0].version == played.events and why.chain[0].rule == "104.2a"
        assert reads.chain("pg-console").verified
