"""`arbiter db upgrade` (the store's migrations) and anchoring a finished game's head.
`arbiter verify` is verify_cmd.py.

`arbiter db upgrade` is also the deployed migration job (compose's `migrate`, the k8s
Job `arbiter-migrate`), whose output a log shipper reads: with `ARBITER_LOG_FORMAT=json`
(which both set) every line it writes is one JSON object on stderr, through the services'
structlog processors (`arbiter_services.logs`, so the database driver's and Python's
warnings are JSON too); otherwise it prints text for a person at a terminal.
"""

from __future__ import annotations

import os
from typing import Any

from rich.console import Console
from rich.markup import escape

from arbiter_cli.inputs import InputError, check_db
from arbiter_store import EventStore, StoreError
from arbiter_store.anchoring import ANCHOR_KEY_ENV, optional_key_from_env
from arbiter_store.location import redact
from arbiter_store.migrations import upgrade

#: `json` (the deployed migration job) or `text` (the default: a terminal)
LOG_FORMAT_ENV = "ARBITER_LOG_FORMAT"
LOG_FORMATS = ("text", "json")


def _migrate(db: str) -> tuple[int, str, dict[str, Any]]:
    """(exit code, what happened, its fields)."""
    try:
        applied = upgrade(check_db(db))
    except (StoreError, InputError) as e:
        return 2, redact(str(e)), {}
    except OSError as e:
        return 2, f"cannot reach {redact(db)}: {e}", {}
    if applied:
        return 0, "applied migrations", {"migrations": applied}
    return 0, "already up to date", {}


def db_upgrade(db: str) -> int:
    """Apply the store's versioned schema migrations (PostgreSQL; SQLite too)."""
    fmt = (os.environ.get(LOG_FORMAT_ENV) or "text").lower()
    if fmt == "json":
        return _db_upgrade_json(db)
    console = Console(highlight=False, soft_wrap=True)
    if fmt not in LOG_FORMATS:
        console.print(f"[red]{LOG_FORMAT_ENV}={escape(fmt)}: one of "
                      f"{', '.join(LOG_FORMATS)}[/red]")
        return 2
    code, what, fields = _migrate(db)
    if code:
        console.print(f"[red]{escape(what)}[/red]")
    else:
        console.print(f"{what} {fields['migrations']}" if fields else what)
    return code


def _db_upgrade_json(db: str) -> int:
    import structlog

    from arbiter_services.logs import setup_logging
    setup_logging("migrate", os.environ.get("ARBITER_LOG_LEVEL") or "INFO")
    log = structlog.get_logger()
    log.info("migrating the event store", store=redact(db))
    code, what, fields = _migrate(db)
    (log.error if code else log.info)(what, store=redact(db), **fields)
    return code


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
