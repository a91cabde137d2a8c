"""A service's dead-letter box: which consumed messages are set aside (issue 14).

`ServiceCore` handles a game's messages together; when that fails with `MessageFailed`
(the engine raised something other than a rules violation, or the append met a newer
version `MAX_TRIES` times in a row), it handles them one at a time, and a message that
fails `DEAD_LETTER_AFTER` times in a row is recorded in the store
(`arbiter_runtime.deadletters`) and answered `dead_letter` from then on, by every
instance, without being decided again: the relay's sweep and the clients' resends of it
cost a lookup, not a retry that cannot succeed.
"""

from __future__ import annotations

import time
from collections import OrderedDict

from arbiter_runtime.command_ids import command_key, work_key
from arbiter_runtime.deadletters import (
    DEAD_LETTER_AFTER,
    DeadLetter,
    dead_letters,
    record_dead_letter,
)
from arbiter_services.messages import CommandEnvelope, WorkItem
from arbiter_store import EventStore

Message = CommandEnvelope | WorkItem
MAX_GAMES = 2000  # games whose dead letters are kept in memory (least recent dropped)

__all__ = ["DEAD_LETTER_AFTER", "DeadLetterBox", "MessageFailed", "message_key"]


class MessageFailed(Exception):
    """Handling a message failed for a reason that is not a rules violation."""


def message_key(msg: Message) -> str:
    """The message's key (`command_ids`): a command's is scoped to its actor; a work
    item's names the version it was sent for."""
    if isinstance(msg, CommandEnvelope):
        return command_key(msg.actor, msg.command_id)
    return work_key(msg.work_id)


class DeadLetterBox:
    """The keys of the messages set aside, per game, read from the store once."""

    def __init__(self, store: EventStore, service: str) -> None:
        self.store = store
        self.service = service
        self._games: OrderedDict[str, set[str]] = OrderedDict()

    def _keys(self, game_id: str) -> set[str]:
        keys = self._games.get(game_id)
        if keys is None:
            keys = {d.key for d in dead_letters(self.store, game_id)}
            self._games[game_id] = keys
            while len(self._games) > MAX_GAMES:
                self._games.popitem(last=False)
        else:
            self._games.move_to_end(game_id)
        return keys

    def is_dead(self, msg: Message) -> bool:
        return message_key(msg) in self._keys(msg.game_id)

    def set_aside(self, msg: Message, reason: str, attempts: int, version: int) -> None:
        """Record the message in the store (once) and answer it `dead_letter` from now."""
        key = message_key(msg)
        letter = DeadLetter(
            key=key, kind="command" if isinstance(msg, CommandEnvelope) else "work",
            game_id=msg.game_id, service=self.service,
            actor=msg.actor if isinstance(msg, CommandEnvelope) else None,
            message=msg.model_dump(mode="json"), reason=reason, attempts=attempts,
            at_version=version, recorded_at=time.time())
        record_dead_letter(self.store, letter)
        self._keys(msg.game_id).add(key)
