"""`melee.verify_log` (the bench's and the scale test's check that every stored engine
batch is what `decide` returns at its version, CR 807.5 stacks included): it names the
event and the fields where a log differs, and still counts the batches after it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from arbiter_core.kernel.commands import RunEngineWork
from arbiter_core.kernel.shell_loop import owed_marker
from arbiter_core.kernel.state import Work
from arbiter_ops.melee import VARIANT, verify_log
from arbiter_runtime.botgame import make_bots, next_action, start_command
from arbiter_runtime.session import GameSession
from arbiter_services.topics import PER_MARKER_WORK, STACK
from arbiter_store import StoredEvent, open_store

GAME = "verify-melee"


def _played(events: int = 1500) -> list[StoredEvent]:
    """A 12-player Grand Melee (three markers) played by the embedded loop, each engine
    batch stored with the metadata the services write (append id, work id, service)."""
    start = start_command(GAME, 12, 1, VARIANT)
    with open_store(":memory:") as store:
        session = GameSession(store, GAME)
        session.execute(start, {"append_id": "start"})
        bots = make_bots(start)
        n = 0
        while session.state.version < events and not session.state.game_over:
            n += 1
            marker = owed_marker(session.state)
            if marker is None:
                action = next_action(session.state, bots)
                if action is not None:
                    session.execute(action, {"append_id": f"a{n}"})
                continue
            pending = session.state.markers[marker].pending
            assert isinstance(pending, Work)
            meta: dict[str, Any] = {
                "append_id": f"a{n}", "work": pending.kind,
                "work_id": f"{GAME}:{session.state.version}:{pending.kind}:{marker}",
                "service": STACK if pending.kind in PER_MARKER_WORK else "turn-orchestrator"}
            session.execute(RunEngineWork(marker=marker), meta)
        return store.read_stream(GAME)


def test_a_log_as_decided_has_no_divergence() -> None:
    check = verify_log(_played())
    assert check.divergence is None
    assert check.engine_batches > 100


def test_a_changed_engine_event_is_reported_with_its_fields() -> None:
    stored = _played()
    clean = verify_log(stored)
    at = next(i for i, e in enumerate(stored) if e.type == "TurnBegan"
              and e.metadata.get("command") == "RunEngineWork" and e.version > 300)
    changed = stored[at]
    stored[at] = replace(changed, payload={**changed.payload,
                                           "turn": changed.payload["turn"] + 5})
    check = verify_log(stored)
    assert check.divergence is not None
    assert f"event {changed.version} differs in ['turn']" in check.divergence
    assert f"'turn': {changed.payload['turn']}" in check.divergence  # what the engine makes
    # the batches after the divergence are still counted (the bench's resolutions)
    assert check.engine_batches == clean.engine_batches
    assert check.resolutions == clean.resolutions
