"""A game played by seats over HTTP and WebSocket: nothing a seat receives names a card
that was only ever in another seat's hand or in any library."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
import websockets

from arbiter_core.evolve import apply
from arbiter_core.evolve import empty_state as new_state
from arbiter_core.state import GameState
from arbiter_runtime.codec import from_stored
from arbiter_store import EventStore

from .conftest import Runner
from .harness import System
from .helpers import auth, new_game, settle

ID_KEYS = frozenset({"id", "obj", "source", "new_id", "card", "item"})


def ids_in(data: Any) -> set[int]:
    """Every object id in a JSON document (values of id-like keys, and id lists)."""
    out: set[int] = set()
    if isinstance(data, dict):
        for k, v in data.items():
            if k in ID_KEYS and isinstance(v, int):
                out.add(v)
            out |= ids_in(v)
    elif isinstance(data, list):
        for v in data:
            out |= ids_in(v)
    return out


def visibility(store: EventStore, game_id: str, seat: str) -> tuple[set[int], set[int]]:
    """(ids the seat could ever see, ids that existed at some point)."""
    state: GameState = new_state()
    seen: set[int] = set()
    every: set[int] = set()
    for e in store.read_stream(game_id):
        apply(state, from_stored(e))
        for oid, o in state.objects.items():
            every.add(oid)
            if o.zone not in ("hand", "library") or (o.zone == "hand" and o.owner == seat):
                seen.add(oid)
    return seen, every


def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    by_type: dict[str, list[dict[str, Any]]] = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append(a)
    for kind in ("PlayLand", "DeclareBlockers", "AssignCombatDamage", "ChooseObjects",
                 "DeclareAttackers"):
        if kind in by_type:
            return rng.choice(by_type[kind])
    if "CastSpell" in by_type and rng.random() < 0.5:
        return rng.choice(by_type["CastSpell"])
    return by_type.get("PassPriority", legal)[0]


async def listen(url: str, token: str, inbox: list[Any], stop: asyncio.Event) -> None:
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({"token": token}))
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                continue
            inbox.append(json.loads(raw))


def test_no_seat_sees_hidden_cards(run_on: Runner) -> None:
    async def scenario(system: System) -> None:
        gid = f"hidden-{system.kind}"
        rng = random.Random(11)
        received: dict[str, list[Any]] = {}
        async with httpx.AsyncClient(base_url=system.base_url, timeout=30) as http:
            judge, seats = await new_game(http, gid, seed=4, deck_size=10)
            stop = asyncio.Event()
            ws_url = system.base_url.replace("http", "ws") + f"/games/{gid}/stream"
            inboxes: dict[str, list[Any]] = {s: [] for s in seats}
            listeners = [asyncio.create_task(listen(ws_url, t, inboxes[s], stop))
                         for s, t in seats.items()]
            received = {s: [] for s in seats}
            for _ in range(2000):
                view = await settle(http, gid, judge)
                if view["game_over"]:
                    break
                seat = next(m["pending"]["player"] for m in view["markers"]
                            if m["pending"]["kind"] in ("priority", "decision"))
                h = auth(seats[seat])
                mine = (await http.get(f"/games/{gid}/view", headers=h)).json()
                legal = (await http.get(f"/games/{gid}/legal", headers=h)).json()
                summary = (await http.get(f"/games/{gid}/events?from_version=1",
                                          headers=h)).json()
                received[seat] += [mine, legal, summary]
                r = await http.post(f"/games/{gid}/commands?wait=10", headers=h,
                                    json={"command": choose(legal, rng)})
                received[seat].append(r.json())
                assert r.json()["status"] == "applied", r.json()
            else:
                raise AssertionError("the game did not end")
            for _ in range(400):  # bounded: until every listener saw the end
                if all(any(m["kind"] == "update" and m["view"]["game_over"] for m in box)
                       for box in inboxes.values()):
                    break
                await asyncio.sleep(0.05)
            stop.set()
            await asyncio.gather(*listeners)
        for seat in seats:
            msgs = inboxes[seat]
            updates = [m for m in msgs if m["kind"] == "update"]
            assert updates and updates[-1]["view"]["game_over"]
            assert all(set(e) == {"version", "type", "rule"}
                       for m in updates for e in m["events"])
            for m in updates:
                assert m["view"]["seat"] == seat and m["view"]["seed"] is None
                for p in m["view"]["players"]:
                    assert p["library"] is None
                    assert p["hand"] is None or p["name"] == seat
            seen, every = visibility(system.store, gid, seat)
            leaked = ids_in(msgs + received[seat]) & (every - seen)
            assert not leaked, f"{seat} received hidden object ids {sorted(leaked)}"
    run_on(scenario)
