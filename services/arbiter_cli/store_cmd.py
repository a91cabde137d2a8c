"""`arbiter db upgrade` (the store's migrations) and anchoring a finished game's head.
`arbiter verify` is verify_cmd.py."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from arbiter_cli.inputs import InputError, check_db
from arbiter_store import EventStore, StoreError
from arbiter_store.anchoring import ANCHOR_KEY_ENV, optional_key_from_env
from arbiter_store.location import redact
from arbiter_store.migrations import upgrade


def db_upgrade(db: str) -> int:
    """Apply the store's versioned schema migrations (PostgreSQL; SQLite too)."""
    console = Console(highlight=False, soft_wrap=True)
    try:
        applied = upgrade(check_db(db))
    except (StoreError, InputError) as e:
        console.print(f"[red]{escape(str(e))}[/red]")
        return 2
    except OSError as e:
        console.print(f"[red]cannot reach {escape(redact(db))}: {escape(str(e))}[/red]")
        return 2
    console.print(f"applied migrations {applied}" if applied else "already up to date")
    return 0


def anchor_head(store: EventStore, game_id: str) -> str:
    """Anchor a finished game's head hash as its final anchor when a key is configured
    (`ARBITER_ANCHOR_KEY`); describe the result (plain text: print it escaped)."""
    key = optional_key_from_env()
    if key is None:
        version = store.stream_version(game_id)
        return (f"head of {game_id}: {version} events (not anchored: set {ANCHOR_KEY_ENV} "
                "to sign it)")
    anchor = store.anchor(game_id, key, final=True)
    return f"anchored head hash {anchor.head_hash} at event {anchor.version} (final)"
