"""The services with `ARBITER_ANCHOR_KEY` (issue 14): a game played through them is
anchored every ANCHOR_EVERY events and closed with a final anchor when it ends, so
`verify --strict` passes; `close_game` does nothing for a store without a key."""

from __future__ import annotations

import asyncio

import httpx

from arbiter_gateway.client import GatewayClient, play_through_gateway
from arbiter_runtime.botgame import start_command
from arbiter_services.stores import close_game
from arbiter_store import NewEvent, open_store
from arbiter_store.anchoring import ANCHOR_EVERY

from .harness import memory_system

KEY = b"services signing key"


def test_a_game_through_the_services_is_anchored_and_closed() -> None:
    gid = "signed-game"

    async def go() -> None:
        with open_store(":memory:", anchor_key=KEY) as store:
            async with memory_system(store) as system:
                start = start_command(gid, 2, 3, deck_size=10)
                async with httpx.AsyncClient(base_url=system.base_url, timeout=30) as http:
                    game = await asyncio.wait_for(
                        play_through_gateway(GatewayClient(http, system.logins), start,
                                             deadline_s=240), 300)
                assert game.projection.state.game_over
            version = store.stream_version(gid)
            assert version > ANCHOR_EVERY  # so the periodic anchors are tested too
            anchors = store.anchors(gid)
            assert [a.version for a in anchors if not a.final] == list(
                range(ANCHOR_EVERY, version + 1, ANCHOR_EVERY))
            assert [a.version for a in anchors if a.final] == [version]
            report = store.verify(gid, anchor_key=KEY)
            assert report.strict_ok, report

    asyncio.run(go())


def test_close_game_needs_a_signing_store() -> None:
    with open_store(":memory:") as plain:
        plain.append("g", 0, [NewEvent("Happened", 1, {})])
        close_game(plain, "g")
        assert plain.anchors("g") == [] and not plain.signs
