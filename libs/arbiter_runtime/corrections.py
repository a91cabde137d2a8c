"""A judge's correction (the tournament rules' "backup", Magic Infraction Procedure Guide
1.4): "back up to event N", appended as one `GameCorrected` event that names the judge
and the reason, signed by the judge, and never edits history.

Why it is not a core event: `evolve(state, event)` makes the next state from the state
at the head, and the state after a backup is the state at event N, which the head does
not hold. So the core has no rule for it: it is a stored event defined here, beside the
shell, whose core applier refuses (an `apply` that meets one was not given the log) and
which the one fold function (`arbiter_runtime.fold.fold`) applies by restoring the state
at N, rebuilt from the log (a snapshot at or below N and the events after it). The pure
core is untouched but for one state field, `rng_shift`: the restored state keeps the
seeded generator of the state at N, so the game's random outcomes after the backup are
those that followed N (nothing is re-rolled).

The event (schema 1): `at` (N, 1 <= N < its own version), `judge` (the judge's login
name), `reason`, `at_hash` (the chain hash of event N: the correction is anchored to the
chain it backs up), `state_hash` (the state hash after event N, checked when it is
folded), `signature` (HMAC-SHA256 over the game, the correction's own version and every
field above, keyed with the judge's credential: the judge's `ARBITER_JUDGES` entry, which
only the gateway and whoever verifies hold; `signature_of`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import fields
from typing import Literal

from arbiter_core.kernel.events.base import EventBase
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import GameState

CORRECTION = "GameCorrected"
BACKUP_RULE = "IPG 1.4"  # the Infraction Procedure Guide's backup, not a CR rule
MAX_REASON = 500


class CorrectionError(ValueError):
    """A correction that cannot be made or folded (bad N, wrong state hash...)."""


class GameCorrected(EventBase):
    """A judge backed the game up to event `at`; the game goes on from the state there."""

    type: Literal["GameCorrected"] = "GameCorrected"
    rule: str = BACKUP_RULE
    at: int  # >= 1 and before the correction (checked where it is made: `fold.correct`)
    judge: str
    reason: str
    at_hash: str
    state_hash: str
    signature: str


def signature_of(key: str, game_id: str, version: int, at: int, at_hash: str,
                 state_hash: str, judge: str, reason: str) -> str:
    """The judge's signature of a correction: HMAC-SHA256 keyed with the judge's
    credential (its `ARBITER_JUDGES` entry) over the correction's fields."""
    message = json.dumps([game_id, version, at, at_hash, state_hash, judge, reason],
                         separators=(",", ":")).encode()
    return hmac.new(key.encode(), message, hashlib.sha256).hexdigest()


def signed_by(key: str, game_id: str, version: int, c: GameCorrected) -> bool:
    expected = signature_of(key, game_id, version, c.at, c.at_hash, c.state_hash,
                            c.judge, c.reason)
    return hmac.compare_digest(expected, c.signature)


def restore(state: GameState, at_n: GameState) -> None:
    """`state` (at the head, in place) becomes the state at N (`at_n`, the caller's own
    copy) one version later: the version continues, and the generator is shifted so that
    its draws are those of the state at N (`GameState.rng_shift`, txn.Rng)."""
    version = state.version + 1
    shift = version - (at_n.version - at_n.rng_shift)
    for f in fields(GameState):
        setattr(state, f.name, getattr(at_n, f.name))
    state.version = version
    state.rng_shift = shift


@applies(GameCorrected)
def _no_core_applier(s: GameState, e: GameCorrected) -> None:
    raise CorrectionError(f"a judge's correction (back up to event {e.at}) is folded with "
                          "the log (arbiter_runtime.fold), not applied to the head alone")


@explains(GameCorrected)
def _line(before: GameState, e: GameCorrected, name: Namer) -> str:
    return f"judge {e.judge} backed the game up to event {e.at}: {e.reason}"
