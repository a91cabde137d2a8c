"""The gateway's bot client follows a judge's correction (issue 16): a judge backs up the
game the client is playing (`play_through_gateway`) to an earlier event, as the client is
about to act; the client's command is refused as stale, the client folds the correction
from the judge's feed (the log up to N read back through the gateway), and plays on to the
end from the state at N. Its final state is the one the store folds, and the correction
checks (signed by the judge, anchored, the state at N as recorded)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from arbiter_core.kernel.commands import PlayerCommand
from arbiter_core.kernel.hashing import state_hash
from arbiter_gateway.client import GatewayClient, play_through_gateway
from arbiter_gateway.passwords import parse_credentials
from arbiter_runtime.botgame import start_command
from arbiter_runtime.correction_check import check_corrections
from arbiter_runtime.fold import StoreStates
from arbiter_store import open_store

from .harness import LOGINS, memory_system, security

CORRECT_AT_ACTION = 12  # the client's 12th action is preceded by the judge's backup
BACK_BY = 6  # to the state the client acted on six actions earlier


class CorrectedWhilePlaying(GatewayClient):
    """The bot client, with a judge who backs the game up before one of its actions."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        super().__init__(http, LOGINS)
        self.acted_at: list[int] = []  # the versions the client acted on (engine idle)
        self.made: dict[str, Any] = {}
        self.stale = 0

    async def submit(self, game_id: str, token: str, command: PlayerCommand,
                     command_id: str, expected_version: int | None = None,
                     wait: float = 10) -> dict[str, Any]:
        assert expected_version is not None
        if expected_version not in self.acted_at:
            self.acted_at.append(expected_version)
        if len(self.acted_at) == CORRECT_AT_ACTION and not self.made:
            at = self.acted_at[-1 - BACK_BY]
            self.made = await self.call(
                "POST", f"/console/api/games/{game_id}/corrections",
                await self.staff("judge"),
                json={"at": at, "reason": "a missed trigger, backed up"})
        out = await super().submit(game_id, token, command, command_id,
                                   expected_version, wait)
        if out.get("code") == "stale_version":
            self.stale += 1
        return out


def test_the_gateway_bot_client_plays_on_after_a_correction() -> None:
    gid = "corrected-bot-game"
    settings = security()

    async def go() -> None:
        with open_store(":memory:") as store:
            async with memory_system(store, settings=settings) as system, \
                    httpx.AsyncClient(base_url=system.base_url, timeout=60) as http:
                client = CorrectedWhilePlaying(http)
                start = start_command(gid, 2, 7, deck_size=10)
                game = await asyncio.wait_for(
                    play_through_gateway(client, start, deadline_s=240), 300)
            made = client.made
            assert made, "the game ended before the judge's correction"
            corrected_at, at = made["version"], made["at"]
            assert at == client.acted_at[CORRECT_AT_ACTION - 1 - BACK_BY]
            assert client.stale == 1  # the command the correction overtook
            state = game.projection.state
            assert state.game_over
            head = store.stream_version(gid)
            assert head > corrected_at + 1  # played on after the correction
            assert state.version == head
            assert state_hash(state) == state_hash(StoreStates(store, gid)(head))
            kinds = [e.type for e in store.read_stream(gid)]
            assert kinds.count("GameCorrected") == 1
            assert kinds[corrected_at - 1] == "GameCorrected"
            found, problem = check_corrections(store, gid,
                                               parse_credentials(settings.judges))
            assert problem is None, problem
            assert [(c.version, c.at, c.judge, c.signed) for c in found] == [
                (corrected_at, at, LOGINS.judge.name, True)]

    asyncio.run(go())
