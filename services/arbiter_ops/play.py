"""`arbiter play --distributed` (`python -m arbiter_ops play`): a bot game through a
gateway, and with several turn markers the stored log re-decided serially."""

from __future__ import annotations

import time
from typing import Any

import httpx

from arbiter_gateway.client import GatewayClient, play_through_gateway, several_markers
from arbiter_gateway.logins import StaffLogins
from arbiter_gateway.markers import play_markers_through_gateway
from arbiter_ops.melee import check_stored
from arbiter_runtime.botgame import start_command


async def play_cli(gateway: str, players: int, seed: int, variant: str,
                   game_id: str | None, logins: StaffLogins,
                   store_url: str | None = None) -> int:
    """`arbiter play --distributed`: the embedded default's bot game, through a gateway,
    as its organiser and a judge (`logins`). With several turn markers every marker's
    player acts as soon as it may (`markers.play_markers_through_gateway`); `store_url`
    then lets the stored log be re-decided serially."""
    from arbiter_core.kernel.hashing import state_hash
    gid = game_id or f"{variant}-{players}p-seed{seed}-{int(time.time())}"
    start = start_command(gid, players, seed, variant, start_rules=True)  # as `arbiter play`
    async with httpx.AsyncClient(base_url=gateway, timeout=60) as http:
        client = GatewayClient(http, logins)
        if several_markers(variant, players):
            game = await play_markers_through_gateway(client, start, progress=_progress())
        else:
            game = await play_through_gateway(client, start)
    s = game.projection.state
    winners = [p for p in s.seats if s.players[p].won]
    print(f"game {gid}: " + (f"won by {', '.join(winners)}" if winners else "no winner"))
    print(f"client seed {seed}; the game's seed (derived by the gateway) {game.seed}")
    print(f"winner: {', '.join(winners) or '-'}  turns: {s.turns_taken}  events: "
          f"{s.version}  actions: {game.actions}  ({game.seconds:.1f}s through {gateway}"
          f" = {s.version / max(game.seconds, 1e-9):.0f} events/s)")
    print(f"state hash {state_hash(s)[:16]}")
    if several_markers(variant, players) and store_url is not None:
        print(check_stored(store_url, gid, state_hash(s)))
    return 0


def _progress() -> Any:
    last = [time.monotonic()]

    def show(s: Any) -> None:
        if time.monotonic() - last[0] >= 30:
            last[0] = time.monotonic()
            print(f"  ... turn {s.turns_taken}, {s.version} events, "
                  f"{len(s.in_game())} players in", flush=True)
    return show
