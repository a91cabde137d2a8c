"""A bot game through the gateway that acts on every turn marker at once (Grand Melee).

`play_through_gateway` mirrors the embedded loop: one action at a time, each after the
engine owes no work anywhere, so a game with one turn marker gives the embedded log.
With several turn markers (Grand Melee, CR 807.5: each marker's turn has its own steps,
priority and stack) that serialises 25 simultaneous turns; this driver instead sends, for
every marker whose player must act and has no command in flight, that player's bot
action, without waiting for the other markers' engine work. The log then depends on the
order the services decide in (as with several stack resolvers), and is checked by
re-deciding it serially (`arbiter_ops.melee.verify_log`), not against the embedded
run.

The driver follows the judge's event feed (long-poll), so it never reads the store. A
command counts as done when an event carries its id; one still unseen after
`CHECK_AFTER_S` is looked up (rejected: the marker's bot acts again on the newer state).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

from arbiter_core.kernel.commands import PlayerCommand, StartGame
from arbiter_core.kernel.shell_loop import owed_marker
from arbiter_core.kernel.state import Decision, GameState, Priority
from arbiter_gateway.client import DistributedGame, GatewayClient, follow
from arbiter_runtime.botgame import make_bots
from arbiter_runtime.play import MAX_TURNS, MAX_TURNS_PER_PLAYER
from arbiter_runtime.projection import GameProjection

CHECK_AFTER_S = 3.0


@dataclass
class InFlight:
    command_id: str
    seat: str
    action: PlayerCommand
    sent: float
JOIN_AT_ONCE = 16


async def play_markers_through_gateway(client: GatewayClient, start: StartGame,
                                       deadline_s: float = 3600,
                                       progress: Any = None,
                                       max_marker_turn: int | None = None) -> DistributedGame:
    """Play `start` to its end; with `max_marker_turn`, no player acts in a marker's
    turn after that one, and the drive ends once the engine owes no work and no marker
    within the bound waits for a player (`within_turns`)."""
    t0 = time.monotonic()
    gid = start.game_id
    start = await client.started(start, t0 + deadline_s)
    judge = await client.staff("judge")
    tokens: dict[str, str] = {}
    names = [p.name for p in start.players]
    for i in range(0, len(names), JOIN_AT_ONCE):
        chunk = names[i:i + JOIN_AT_ONCE]
        for name, token in zip(chunk, await asyncio.gather(
                *(client.join(gid, n) for n in chunk)), strict=True):
            tokens[name] = token
    proj = GameProjection(gid)
    bots = make_bots(start)
    limit = max(MAX_TURNS, MAX_TURNS_PER_PLAYER * len(names))
    in_flight: dict[int, InFlight] = {}
    actions = 0
    seq = 0
    while not proj.state.game_over:
        _deadline(t0, deadline_s)
        if (max_marker_turn is not None and not in_flight and proj.version
                and done_within(proj.state, max_marker_turn)):
            break
        if proj.state.turns_taken > limit:
            raise RuntimeError(f"game {gid} did not end in {limit} turns")
        new = await client.events(gid, judge, proj.version + 1, wait=1)
        await follow(client, judge, proj, new)  # a judge's correction folded too
        done = {e["metadata"].get("command_id") for e in new}
        for marker, f in list(in_flight.items()):
            if f.command_id in done:
                del in_flight[marker]
        if progress is not None and new:
            progress(proj.state)
        if proj.state.game_over:
            break
        await _check_stale(client, gid, tokens, in_flight)
        sends = []
        for m in list(proj.state.markers.values()):
            pending = m.pending
            if not isinstance(pending, Priority | Decision) or m.number in in_flight:
                continue
            if max_marker_turn is not None and m.turn > max_marker_turn:
                continue
            action = bots[pending.player].choose(proj.state, pending.player)
            if action is None:
                continue
            seq += 1
            cid = f"{gid}.{proj.version}.{m.number}.{seq}"
            in_flight[m.number] = InFlight(cid, pending.player, action, time.monotonic())
            sends.append(client.submit(gid, tokens[pending.player], action, cid, wait=0))
        if sends:
            await asyncio.gather(*sends)
            actions += len(sends)
    return DistributedGame(gid, start.seed, judge, tokens, proj, actions,
                           time.monotonic() - t0)


def done_within(state: GameState, max_marker_turn: int) -> bool:
    """The engine owes no work and no marker in a turn up to `max_marker_turn` waits for
    a player: where a drive bounded by marker turns stops (the embedded loop too)."""
    if owed_marker(state) is not None:
        return False
    for m in state.markers.values():
        if isinstance(m.pending, Priority | Decision) and m.turn <= max_marker_turn:
            return False
    return True


async def _check_stale(client: GatewayClient, gid: str, tokens: dict[str, str],
                       in_flight: dict[int, InFlight]) -> None:
    """Forget commands the services rejected (or applied unseen) a while ago; send
    again those still pending (lost with a broker restart? the same id is applied
    once)."""
    now = time.monotonic()
    for marker, f in list(in_flight.items()):
        if now - f.sent < CHECK_AFTER_S:
            continue
        out = await client.status(gid, tokens[f.seat], f.command_id, wait=0)
        if out["status"] != "pending":
            del in_flight[marker]
        else:
            await client.submit(gid, tokens[f.seat], f.action, f.command_id, wait=0)
            f.sent = now


def _deadline(t0: float, deadline_s: float) -> None:
    if time.monotonic() - t0 > deadline_s:
        raise TimeoutError(f"the game did not finish in {deadline_s}s")
