"""One command-id namespace for seats and engine work (issue 14).

A client names its command with a `command_id` so that a retry is applied once. Ids are
the client's own business: they are scoped per actor (the authenticated seat, or the
organiser), so one seat can never make another seat's command a duplicate, whatever id
it picks. Engine work is named by the services `game:version:kind:marker` (its
`work_id`) and lives in a namespace of its own. The store's per-stream `command_id`
(which refuses a second append of the same thing) and every projection's applied ids use
the keys made here:

| who | key |
| --- | --- |
| a seat's or the organiser's command | `c/<actor>/<command id>` |
| engine work | `w/<game>:<version>:<kind>:<marker>` |

Each stored event records its batch's key as metadata `command_key`. A client's id may
not contain `/` (it keeps the keys unambiguous: the command id is what
follows the last `/`) and may not have the shape of an engine work id: both are refused
with a typed rejection naming `command_id` (`reserved_reason`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

#: `game:version:kind:marker`, the shape of `WorkItem.work_id`
WORK_ID = re.compile(r"^[^:]*:\d+:[^:]*:\d+$")
COMMAND_PREFIX = "c/"
WORK_PREFIX = "w/"


def reserved_reason(command_id: str) -> str | None:
    """Why a client may not use this id (None: it may)."""
    if "/" in command_id:
        return "a command id may not contain '/'"
    if WORK_ID.match(command_id):
        return "game:version:kind:marker is the shape of engine work ids, reserved"
    return None


def command_key(actor: str, command_id: str) -> str:
    """The key of `actor`'s command `command_id`."""
    return f"{COMMAND_PREFIX}{actor}/{command_id}"


def work_key(work_id: str) -> str:
    """The key of the engine work `work_id` (`game:version:kind:marker`)."""
    return WORK_PREFIX + work_id


def key_of(metadata: Mapping[str, Any]) -> str | None:
    """The command key a stored event's metadata names, or None for engine work and
    embedded play. The services record it as `command_key` (the store's `command_id` of
    the append); events stored before issue 14 have `command_id` and `actor` only."""
    key = metadata.get("command_key")
    if isinstance(key, str):
        return key if key.startswith(COMMAND_PREFIX) else None
    cid = metadata.get("command_id")
    if not isinstance(cid, str):
        return None
    actor = metadata.get("actor")
    return command_key(actor if isinstance(actor, str) else "", cid)


def command_id_of(key: str) -> str:
    """The client's command id in a command key (what follows the last '/')."""
    return key.rsplit("/", 1)[-1]
