"""`arbiter verify` and `arbiter db upgrade`: the store's tamper evidence and migrations."""

from __future__ import annotations

import os
from pathlib import Path

from rich.console import Console

from arbiter_store import StoreError, open_store
from arbiter_store.integrity import ANCHOR_KEY_ENV
from arbiter_store.migrations import upgrade


def _exists(db: str) -> bool:
    if db.startswith(("postgresql://", "postgres://", "postgresql+psycopg://")):
        return True
    path = db.removeprefix("sqlite:///")
    return db == ":memory:" or Path(path).exists()


def verify(db: str, game: str | None) -> int:
    """Recompute every hash chain (or one game's) and check the signed anchors; report
    the first broken link of each damaged game. Exit 1 when something is broken."""
    console = Console(highlight=False, soft_wrap=True)
    if not _exists(db):
        console.print(f"[red]store not found: {db}[/red]")
        return 2
    key = os.environ.get(ANCHOR_KEY_ENV) or None
    try:
        with open_store(db) as store:
            if game is not None and not store.stream_version(game):
                console.print(f"[red]no game {game!r} in {db}[/red]")
                return 2
            report = store.verify(game, anchor_key=key)
    except StoreError as e:
        console.print(f"[red]{e}[/red]")
        return 2
    scope = f"game {game}" if game else f"{report.streams} game(s)"
    signed = "signatures checked" if key else f"signatures not checked: {ANCHOR_KEY_ENV} unset"
    if report.ok:
        console.print(f"verified: {scope}, {report.events} events, {report.anchors} "
                      f"anchor(s) ({signed})")
        return 0
    console.print(f"[red]BROKEN[/red]: {scope} ({signed})")
    for problem in report.problems:
        console.print(f"  first broken link: {problem}")
    return 1


def db_upgrade(db: str) -> int:
    """Apply the store's versioned schema migrations (PostgreSQL; SQLite too)."""
    console = Console(highlight=False)
    try:
        applied = upgrade(db)
    except StoreError as e:
        console.print(f"[red]{e}[/red]")
        return 2
    except OSError as e:
        console.print(f"[red]cannot reach {db}: {e}[/red]")
        return 2
    console.print(f"applied migrations {applied}" if applied else "already up to date")
    return 0


def anchor_head(store_url: str, game_id: str) -> str:
    """Anchor a finished game's head hash when a key is configured; describe the result."""
    key = os.environ.get(ANCHOR_KEY_ENV)
    with open_store(store_url) as store:
        if not key:
            head = store.verify(game_id)
            return (f"head of {game_id}: {head.events} events "
                    f"(not anchored: set {ANCHOR_KEY_ENV} to sign it)")
        anchor = store.anchor(game_id, key)
    return f"anchored head hash {anchor.head_hash} at event {anchor.version}"
