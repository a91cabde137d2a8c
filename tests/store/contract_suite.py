"""The whole contract: every backend's test class inherits :class:`StoreContract`.

It adds one end-to-end scenario that uses the features together, the way a
projection service will: a catch-up subscription from the consumer's tracked
position, writes recorded with tracking, a crash and a resume, idempotent commands,
snapshots, and verification with an anchor.
"""

from __future__ import annotations

import pytest

from arbiter_store import AlreadyProcessed, EventStore, Tracking

from .contract import ContractBase, Opener, ev, positions
from .contract_commands import CommandContract, TrackingContract
from .contract_groups import GroupContract
from .contract_integrity import KEY, IntegrityContract
from .contract_log import LogContract
from .contract_state import SnapshotContract, UpcasterContract
from .contract_subscription import SubscriptionContract
from .contract_tamper import TamperContract

__all__ = ["StoreContract"]


class ScenarioContract(ContractBase):
    def test_an_exactly_once_projector_survives_a_crash(
        self, store: EventStore, open_other: Opener
    ) -> None:
        games = open_other()
        for i in range(12):  # each game move is an idempotent command
            game = f"game-{i % 3}"
            games.append(game, i // 3, [ev(i)], command_id=f"move-{i}")
            games.append(game, 0, [ev(99)], command_id=f"move-{i}")  # a retry: no effect

        def project(limit: int) -> int:
            """Process up to ``limit`` game events after the recorded position."""
            done = 0
            start = store.consumer_position("summary") + 1
            with store.subscribe(start, timeout=0) as subscription:
                for event in subscription:
                    if event.stream_id.startswith("game-"):
                        version = store.stream_version("summary")
                        store.append("summary", version, [ev(event.payload["n"],
                                                              source=event.position)],
                                     tracking=Tracking("summary", event.position))
                        done += 1
                    if done == limit:
                        break  # "crash": the subscription is dropped mid-log
            return done

        assert project(5) == 5 and store.consumer_position("summary") == 5
        with pytest.raises(AlreadyProcessed):  # a redelivered event is refused
            store.append("summary", 5, [ev(4)], tracking=Tracking("summary", 5))
        assert project(100) == 7
        summary = store.read_stream("summary")
        assert [e.payload["source"] for e in summary] == list(range(1, 13))
        assert [e.payload["n"] for e in summary] == list(range(12))
        assert positions(summary) == list(range(13, 25))
        store.save_snapshot("summary", 12, b"twelve moves", "h12")
        snapshot = store.load_snapshot("summary")
        assert snapshot is not None and snapshot.version == 12
        store.anchor("summary", KEY)
        report = store.verify(anchor_key=KEY)
        assert report.ok and (report.streams, report.events, report.anchors) == (4, 24, 1)


class StoreContract(
    LogContract,
    CommandContract,
    TrackingContract,
    SnapshotContract,
    UpcasterContract,
    SubscriptionContract,
    IntegrityContract,
    TamperContract,
    GroupContract,
    ScenarioContract,
):
    """Behaviour every backend must have (fixtures: ``new_store_url``, ``raw``)."""
