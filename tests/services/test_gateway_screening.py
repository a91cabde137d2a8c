"""Issue 14: a seat probing object ids it cannot see learns nothing (CR 400.2).

The hole: "Llanowar Elves is not in P2's hand" for a PlayLand naming another player's
card; in about 200 requests a seat rebuilt the other hand and the library. Now every
command naming an unknown or hidden object is "not a legal choice", whatever the id,
and reasons read by a seat name no card it cannot see."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from arbiter_core.kernel.commands import CastSpell, PlayLand
from arbiter_core.kernel.evolve import apply, empty_state
from arbiter_core.views.seat import view
from arbiter_runtime.audit import CommandRejected
from arbiter_runtime.codec import from_stored
from arbiter_runtime.screening import (
    ID_FIELDS,
    NOT_A_LEGAL_CHOICE,
    OTHER_FIELDS,
    referenced_ids,
    render_rejection,
)
from arbiter_store import open_store

from .harness import System, memory_system
from .helpers import auth, new_game, probes, settle


def test_probing_hidden_ids_reveals_no_card() -> None:
    async def scenario(system: System) -> None:
        async with httpx.AsyncClient(base_url=system.base_url, timeout=30) as http:
            judge, seats = await new_game(http, "probed", deck_size=20)
            judged = await settle(http, "probed", judge)
            prober = judged["markers"][0]["pending"]["player"]
            victim = next(s for s in seats if s != prober)
            everyone = {p["name"]: p for p in judged["players"]}
            hidden = [c for c in (everyone[victim]["hand"] + everyone[victim]["library"]
                                  + everyone[prober]["library"])]
            hidden_names = {c["name"] for c in hidden}
            mine = (await http.get("/games/probed/view", headers=auth(seats[prober]))).json()
            hidden_names -= {c["name"] for c in mine["hand"]}
            hidden_names -= {p["name"] for p in mine["battlefield"]}
            assert hidden_names, "the probe needs a card name the prober cannot see"
            top = max(c["id"] for c in hidden)
            answers: list[dict[str, Any]] = []
            n = 0
            for oid in [c["id"] for c in hidden] + [top + 1, top + 1000, -1]:
                for command in probes(prober, oid):
                    n += 1
                    r = await http.post("/games/probed/commands?wait=10",
                                        headers=auth(seats[prober]),
                                        json={"command": command,
                                              "command_id": f"probe-{n:05d}"})
                    assert r.status_code == 202, r.text
                    out = r.json()
                    assert out["status"] == "rejected", out
                    assert out["reason"] == NOT_A_LEGAL_CHOICE, out
                    answers.append(out)
                    again = await http.get(f"/games/probed/commands/probe-{n:05d}",
                                           headers=auth(seats[prober]))
                    answers.append(again.json())
            text = repr(answers)
            assert not [name for name in hidden_names if name in text]
            # an unknown id and a hidden one get the same answer, field for field
            shapes = {(a["code"], a.get("field"), a["reason"]) for a in answers
                      if a["status"] == "rejected"}
            assert len(shapes) == len({a.get("field") for a in answers})
            # judges still read what the rules said
            audit = (await http.get("/games/probed/audit", headers=auth(judge))).json()
            assert len(audit) == n
            # a command about the prober's own card still gets its real reason
            own = mine["hand"][0]
            r = await http.post("/games/probed/commands?wait=10",
                                headers=auth(seats[victim]),
                                json={"command": {"type": "PassPriority", "player": victim},
                                      "command_id": "victim-out-of-turn"})
            assert r.json()["rule"] == "117.1"
            r = await http.post("/games/probed/commands?wait=10", headers=auth(seats[prober]),
                                json={"command": {"type": "CastSpell", "player": prober,
                                                  "card": own["id"], "x": 5}})
            assert r.json()["status"] == "rejected"
            assert r.json()["reason"] != NOT_A_LEGAL_CHOICE
    asyncio.run(_run(scenario))


async def _run(scenario: Any) -> None:
    with open_store(":memory:") as store:
        async with memory_system(store) as system:
            await asyncio.wait_for(scenario(system), 240)


def test_every_command_field_is_classified() -> None:
    """A field the core adds to a player command must be sorted into ids or not here
    (unknown fields are screened as ids, failing closed)."""
    from arbiter_core.kernel.commands import PlayerCommand
    for cls in PlayerCommand.__args__:
        for name in cls.model_fields:
            assert name in ID_FIELDS | OTHER_FIELDS, f"{cls.__name__}.{name}"


def test_referenced_ids_and_rendering() -> None:
    cast = CastSpell(player="P1", card=5, targets=[["o:7", "p:P2"]], x=3, pay=[9])
    assert sorted(referenced_ids(cast)) == [("card", 5), ("pay", 9), ("targets", 7)]
    assert list(referenced_ids(PlayLand(player="P1", card=4, marker=2))) == [("card", 4)]
    with open_store(":memory:") as store:
        from arbiter_runtime.botgame import run_in_process, start_command
        run_in_process(store, start_command("r", 2, 4, deck_size=8))
        state = empty_state()
        for e in store.read_stream("r")[:40]:
            apply(state, from_stored(e))
    p2_hand = {state.objects[i].name for i in state.zones[("P2", "hand")]}
    seen = {c.name for c in view(state, "P1").hand} | {
        state.objects[i].name for i in state.battlefield}
    secret = sorted(p2_hand - seen)
    assert secret
    leak = CommandRejected(command_id="c", seat="P1", command_type="PlayLand",
                           code="rule_violation", rule="305.1",
                           reason=f"{secret[0]} is not in P1's hand")
    assert render_rejection(state, "P1", leak).reason == NOT_A_LEGAL_CHOICE
    assert render_rejection(state, "P2", leak).reason == leak.reason
    assert render_rejection(state, None, leak).reason == leak.reason
