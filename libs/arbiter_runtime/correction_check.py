"""Checking a game's judge's corrections (`arbiter verify`, the console's chain status).

The hash chain already covers each correction like any event (an edited one breaks the
chain at it). On top of that, each correction must:

- be signed by the judge it names (with `judges`, name -> credential, the
  `ARBITER_JUDGES` entries; without them the signatures are not checked);
- name the chain hash of the event it backs up to (`at_hash`: re-anchored on the chain);
- record the state hash the log makes at that event: the game is folded from event 1
  (`arbiter_runtime.fold`), which refuses a correction whose state differs.

The first problem is reported at the correction's version.
"""

from __future__ import annotations

from arbiter_core.kernel.events import Event
from arbiter_core.kernel.evolve import empty_state
from arbiter_runtime.codec import from_bodies
from arbiter_runtime.corrections import CORRECTION, CorrectionError, GameCorrected
from arbiter_runtime.fold import Correction, LogStates, fold, signed_by
from arbiter_store import ChainBreak, EventStore

__all__ = ["check_corrections"]


def check_corrections(store: EventStore, game_id: str, judges: dict[str, str] | None
                      ) -> tuple[list[Correction], ChainBreak | None]:
    """The game's corrections, and the first problem with them (None: none)."""
    bodies = store.read_bodies(game_id)
    if not any(body[0] == CORRECTION for body in bodies):
        return [], None
    events: list[Event] = list(from_bodies(bodies, where=game_id))
    found: list[Correction] = []
    problem: ChainBreak | None = None
    for version, e in enumerate(events, 1):
        if not isinstance(e, GameCorrected):
            continue
        signed = None
        if judges is not None:
            key = judges.get(e.judge)
            signed = key is not None and signed_by(key, game_id, version, e)
        found.append(Correction(version, e.at, e.judge, e.reason, signed))
        if problem is not None:
            continue
        if signed is False:
            problem = ChainBreak(game_id, version, None, (
                f"the correction's signature is not judge {e.judge}'s (forged or altered, "
                "or no such judge)"))
        elif e.at >= version or store.event_hash(game_id, e.at) != e.at_hash:
            problem = ChainBreak(game_id, version, None, (
                f"the correction names event {e.at} with a hash the chain does not have "
                "there"))
    if problem is None:
        problem = _fold_problem(game_id, events)
    return found, problem


def _fold_problem(game_id: str, events: list[Event]) -> ChainBreak | None:
    state, rebuild = empty_state(), LogStates(events)
    try:
        for e in events:
            fold(state, e, rebuild)
    except CorrectionError as err:
        return ChainBreak(game_id, state.version + 1, None, str(err))
    except Exception as err:  # a log this engine cannot replay
        return ChainBreak(game_id, state.version + 1, None, f"cannot replay: {err}")
    return None
