"""One command-id namespace for seats and engine work (issue 14), over HTTP against the
gateway with every service behind it: in memory and, marked `integration`, on Tansu with
every service a process. Each test failed on main before the fix."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
from aiokafka import AIOKafkaProducer  # type: ignore[import-untyped]
from typer.testing import CliRunner

from arbiter_cli.main import app as cli
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import Command, PassPriority, RunEngineWork
from arbiter_core.kernel.decide import decide
from arbiter_core.kernel.evolve import apply
from arbiter_core.kernel.shell_loop import ShellLoop, owed_work
from arbiter_core.kernel.state import GameState
from arbiter_runtime.projection import GameProjection
from arbiter_services.messages import CommandEnvelope
from arbiter_services.topics import TURN, command_key, command_topic
from arbiter_store import open_store

from .conftest import Runner
from .harness import System, memory_system
from .helpers import auth, new_game, settle


def state(system: System, gid: str) -> GameState:
    p = GameProjection(gid)
    p.catch_up(system.store)
    return p.state


def next_work_id(s: GameState, command: Command) -> str | None:
    """The engine work id the game owes once `command` is applied (None: no work): what a
    seat can work out from the rules and the version it sees."""
    scratch = s.clone()
    made = decide(scratch, command)
    for e in made:
        apply(scratch, e)
    owed = next(owed_work(scratch), None)
    return None if owed is None else f"{s.game_id}:{s.version + len(made)}:{owed[1]}:{owed[0]}"


async def passes(http: httpx.AsyncClient, gid: str, seat: str, token: str, cid: str
                 ) -> dict[str, Any]:
    r = await http.post(f"/games/{gid}/commands?wait=10", headers=auth(token),
                        json={"command": {"type": "PassPriority", "player": seat},
                              "command_id": cid})
    assert r.status_code == 202, r.text
    return dict(r.json())


async def publish(system: System, env: CommandEnvelope) -> None:
    """A command put on the broker by a producer that is not the gateway."""
    topic = command_topic(TURN)
    key = command_key(env.game_id, TURN, None)
    if system.kind == "memory":
        await system.extra["runtime"].broker.publish(env, topic=topic, key=key)
        return
    prod = AIOKafkaProducer(bootstrap_servers=system.extra["cluster"].broker.bootstrap)
    await prod.start()
    try:
        await prod.send_and_wait(topic, env.model_dump_json().encode(), key=key)
    finally:
        await prod.stop()


async def audit_of(http: httpx.AsyncClient, gid: str, judge: str, n: int,
                   timeout: float = 30) -> list[dict[str, Any]]:
    """The game's audit stream once it has `n` records (bounded wait)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        seen = (await http.get(f"/games/{gid}/audit", headers=auth(judge))).json()
        if len(seen) >= n or loop.time() > deadline:
            return list(seen)
        await asyncio.sleep(0.2)


def test_an_engine_work_id_from_a_seat_does_not_freeze_the_game(run_on: Runner) -> None:
    """Before: the gateway took `game:version:kind:marker` as a command id; the pass was
    stored under the work's id, the work's append was refused as a duplicate, and the
    owner gave up after 8 conflicts, again and again: the game never moved again."""
    async def scenario(system: System) -> None:
        gid = f"workid-{system.kind}"
        async with httpx.AsyncClient(base_url=system.base_url, timeout=30) as http:
            judge, seats = await new_game(http, gid, logins=system.logins)
            for n in range(40):  # a position where the holder's pass makes engine work
                view = await settle(http, gid, judge)
                holder = view["markers"][0]["pending"]["player"]
                s = state(system, gid)
                hostile = next_work_id(s, PassPriority(player=holder))
                if hostile is not None:
                    break
                await passes(http, gid, holder, seats[holder], f"walk-{n:04d}")
            assert hostile is not None
            r = await http.post(f"/games/{gid}/commands?wait=10", headers=auth(seats[holder]),
                                json={"command": {"type": "PassPriority", "player": holder},
                                      "command_id": hostile})
            assert r.status_code == 422, r.text
            assert "command_id" in r.json()["error"]
            # the same from a producer behind the gateway: a typed rejection
            await publish(system, CommandEnvelope(
                game_id=gid, command_id=hostile, actor=holder,
                command=PassPriority(player=holder).model_dump(mode="json")))
            [rejection] = await audit_of(http, gid, judge, 1)
            assert rejection["field"] == "command_id" and rejection["command_id"] == hostile
            assert system.store.stream_version(gid) == s.version
            # and the game goes on: the pass, then the engine's work at that version
            out = await passes(http, gid, holder, seats[holder], "pass-after-0001")
            assert out["status"] == "applied", out
            after = await settle(http, gid, judge)
            assert after["version"] > out["version"]
    run_on(scenario)


def test_another_seats_next_id_does_not_swallow_its_command(run_on: Runner) -> None:
    """Before: a seat sending a command under the id another seat would use next made
    that seat's command a no-op, reported as the other seat's outcome."""
    async def scenario(system: System) -> None:
        gid = f"theirid-{system.kind}"
        async with httpx.AsyncClient(base_url=system.base_url, timeout=30) as http:
            judge, seats = await new_game(http, gid, logins=system.logins)
            view = await settle(http, gid, judge)
            holder = view["markers"][0]["pending"]["player"]
            other = next(s for s in seats if s != holder)
            taken = await passes(http, gid, other, seats[other], "predictable-0001")
            assert taken["status"] == "rejected" and taken["rule"] == "117.1", taken
            mine = await passes(http, gid, holder, seats[holder], "predictable-0001")
            assert mine["status"] == "applied", mine
            assert system.store.stream_version(gid) > view["version"]
            # each seat reads its own command's outcome under that id
            for seat, status in ((holder, "applied"), (other, "rejected")):
                r = await http.get(f"/games/{gid}/commands/predictable-0001",
                                   headers=auth(seats[seat]))
                assert r.json()["status"] == status, (seat, r.text)
    run_on(scenario)


class BrokenAdvance:
    """An engine whose step advance (CR 500.2) always fails: a defect."""

    def __call__(self, state: GameState, command: Command) -> list[ev.Event]:
        if isinstance(command, RunEngineWork):
            pending = state.markers[command.marker].pending
            if getattr(pending, "kind", None) == "advance_step":
                raise ZeroDivisionError("a defect in the engine")
        return decide(state, command)


def test_work_that_keeps_failing_is_a_dead_letter_a_judge_sees(tmp_path: Path) -> None:
    """Before: the failure went up through the consumer, and the relay's sweep sent the
    work again every few seconds, forever, with nothing for a judge to see."""
    db = tmp_path / "store.sqlite"

    async def go() -> None:
        with open_store(str(db)) as store:
            async with memory_system(store, sweep_s=1) as system:
                system.extra["runtime"].cores[TURN].loop = ShellLoop(BrokenAdvance())
                gid = "deadletter"
                async with httpx.AsyncClient(base_url=system.base_url, timeout=30) as http:
                    judge, seats = await new_game(http, gid, logins=system.logins)
                    letters: list[dict[str, Any]] = []
                    for n in range(40):  # pass until the step must advance
                        letters = (await http.get(f"/games/{gid}/dead-letters",
                                                  headers=auth(judge))).json()
                        if letters:
                            break
                        view = (await http.get(f"/games/{gid}/view",
                                               headers=auth(judge))).json()
                        pending = view["markers"][0]["pending"]
                        if pending["kind"] == "priority":
                            await passes(http, gid, pending["player"],
                                         seats[pending["player"]], f"pass-{n:04d}")
                        else:
                            await asyncio.sleep(0.5)
                    [letter] = letters
                    assert letter["kind"] == "work" and letter["service"] == TURN
                    assert ":advance_step:" in letter["key"] and letter["attempts"] == 3
                    assert "ZeroDivisionError" in letter["reason"]
                    seat = next(iter(seats.values()))
                    forbidden = await http.get(f"/games/{gid}/dead-letters",
                                               headers=auth(seat))
                    assert forbidden.status_code == 403
                    await asyncio.sleep(2.5)  # the relay's sweep sends the work again
                    again = (await http.get(f"/games/{gid}/dead-letters",
                                            headers=auth(judge))).json()
                    assert again == letters  # answered at once, not recorded twice

    asyncio.run(asyncio.wait_for(go(), 300))
    shown = CliRunner().invoke(cli, ["dead-letters", "--db", str(db), "--json"])
    assert shown.exit_code == 0, shown.output
    [row] = json.loads(shown.stdout)
    assert row["game_id"] == "deadletter" and row["kind"] == "work"
    table = CliRunner().invoke(cli, ["dead-letters", "--db", str(db), "--game", "deadletter"])
    assert table.exit_code == 0 and "advance_step" in table.stdout
