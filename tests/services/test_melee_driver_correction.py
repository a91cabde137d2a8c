"""The Grand Melee gateway driver (`play_markers_through_gateway`, several turn markers
acting at once) follows a judge's correction (issue 16): a judge backs the game up while
the driver has commands in flight on several markers; the driver folds the correction
from the judge's feed and plays on, its state the one the store folds."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from arbiter_core.kernel.commands import PlayerCommand
from arbiter_core.kernel.hashing import state_hash
from arbiter_core.kernel.shell_loop import owed_marker
from arbiter_gateway.client import GatewayClient, GatewayError
from arbiter_gateway.markers import play_markers_through_gateway
from arbiter_gateway.passwords import parse_credentials
from arbiter_runtime.botgame import start_command
from arbiter_runtime.correction_check import check_corrections
from arbiter_runtime.fold import StoreStates
from arbiter_store import EventStore, open_store

from .harness import LOGINS, memory_system, security

CORRECT_AT_SUBMIT = 40


class CorrectedMelee(GatewayClient):
    """The driver's client, with a judge who backs the game up before one submission to
    the last event (at least 20 back) after which no marker owed the engine work."""

    def __init__(self, http: httpx.AsyncClient, store: EventStore) -> None:
        super().__init__(http, LOGINS)
        self.store = store
        self.submits = 0
        self.made: dict[str, Any] = {}

    async def submit(self, game_id: str, token: str, command: PlayerCommand,
                     command_id: str, expected_version: int | None = None,
                     wait: float = 10) -> dict[str, Any]:
        self.submits += 1
        if self.submits == CORRECT_AT_SUBMIT and not self.made:
            await self.correct(game_id)
        return await super().submit(game_id, token, command, command_id,
                                    expected_version, wait)


    async def correct(self, game_id: str) -> None:
        for _ in range(50):  # the markers' services append meanwhile: "moved on" (409)
            states = StoreStates(self.store, game_id)
            n = self.store.stream_version(game_id) - 20
            while owed_marker(states(n)) is not None:
                n -= 1
            try:
                self.made = await self.call(
                    "POST", f"/console/api/games/{game_id}/corrections",
                    await self.staff("judge"), json={"at": n, "reason": "melee backup"})
                return
            except GatewayError as e:
                if "moved on" not in str(e):
                    raise
                await asyncio.sleep(0.01)
        raise AssertionError("the game never stood still long enough to back it up")


def test_the_melee_driver_plays_on_after_a_correction() -> None:
    gid = "corrected-melee"
    settings = security()

    async def go() -> None:
        with open_store(":memory:") as store:
            async with memory_system(store, settings=settings) as system, \
                    httpx.AsyncClient(base_url=system.base_url, timeout=60) as http:
                client = CorrectedMelee(http, store)
                start = start_command(gid, 8, 3, "grand_melee", deck_size=10)
                game = await asyncio.wait_for(play_markers_through_gateway(
                    client, start, deadline_s=240, max_marker_turn=3), 300)
            assert client.made, "the drive ended before the judge's correction"
            corrected_at = client.made["version"]
            state = game.projection.state
            assert state.version > corrected_at + 1  # played on after it
            assert state_hash(state) == state_hash(StoreStates(store, gid)(state.version))
            found, problem = check_corrections(store, gid,
                                               parse_credentials(settings.judges))
            assert problem is None, problem
            assert [(c.version, c.at, c.signed) for c in found] == [
                (corrected_at, client.made["at"], True)]

    asyncio.run(go())
