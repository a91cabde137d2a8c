"""The gateway's game creation accepts deck lists (`deck_lists`: player name -> the text
of `../shared/spec/decks.md`), checked with the variant's construction rules: a legal
list becomes that player's library, an illegal or unreadable one is refused (422) with
the rule or the line, and nothing is published."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from .conftest import Runner
from .harness import System
from .helpers import auth, staff

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "decks"
BOROS = (EXAMPLES / "boros-burn.txt").read_text(encoding="utf-8")
GREEN = (EXAMPLES / "green-stompy.txt").read_text(encoding="utf-8")


def body(game_id: str, lists: dict[str, str], **players: list[str]) -> dict[str, Any]:
    return {"game_id": game_id, "variant": "two_player", "seed": 5,
            "players": [{"name": "A", "deck": players.get("A", [])},
                        {"name": "B", "deck": players.get("B", [])}],
            "deck_lists": lists}


def libraries(system: System, game_id: str) -> dict[str, list[str]]:
    return {e.payload["player"]: [c["name"] for c in e.payload["cards"]]
            for e in system.store.read_stream(game_id) if e.type == "CardsPut"}


async def refused(http: httpx.AsyncClient, data: dict[str, Any]) -> str:
    r = await http.post("/games?wait=5", json=data)
    assert r.status_code == 422, r.text
    return str(r.json()["error"])


def test_game_creation_with_deck_lists(run_on: Runner) -> None:
    async def scenario(system: System) -> None:
        gid = f"decks-{system.kind}"
        async with httpx.AsyncClient(base_url=system.base_url, timeout=30) as http:
            organiser, _ = await staff(http, system.logins)  # games need an organiser
            http.headers.update(auth(organiser))
            r = await http.post("/games?wait=10", json=body(gid, {"A": BOROS, "B": GREEN}))
            assert r.status_code == 202, r.text
            assert r.json()["outcome"]["status"] == "applied", r.text
            libs = libraries(system, gid)
            assert len(libs["A"]) == len(libs["B"]) == 60
            assert libs["A"].count("Lightning Bolt") == 4 and "Act of Treason" not in libs["A"]
            assert libs["B"].count("Forest") == 22

            # one seat's list, the other's explicit deck
            gid2 = f"{gid}-2"
            r = await http.post("/games?wait=10",
                                json=body(gid2, {"B": GREEN}, A=["Mountain"] * 30))
            assert r.status_code == 202, r.text
            assert libraries(system, gid2)["A"] == ["Mountain"] * 30

            # refused: each construction rule, an unreadable list, a bad name
            short = await refused(http, body(f"{gid}-3", {"A": "59 Mountain\n", "B": GREEN}))
            assert "A:" in short and "deck: 100.2a: 59 cards" in short
            five = await refused(http, body(f"{gid}-3", {"A": BOROS.replace("4 Shock",
                                                                              "5 Shock")}))
            assert "Shock: 100.2a: 5 copies" in five
            side = await refused(http, body(f"{gid}-3", {"A": BOROS + "11 Island\n"}))
            assert "100.4a" in side
            rules = {"100.2": "Lightnig Bolt: 100.2: no Magic card has this name",
                     "100.4a": "Shock: 100.4a: 5 copies in the deck and sideboard",
                     "108.2a": "Akoum: 108.2a: a plane is not a traditional Magic card",
                     "103.2b": "deck: 103.2b: 2 cards in the Companion section"}
            extra = {"100.2": "Deck\n1 Lightnig Bolt\n", "100.4a": "Sideboard\n1 Shock\n",
                     "108.2a": "Deck\n1 Akoum\n",
                     "103.2b": "Companion\n1 Lurrus of the Dream-Den\n1 Jegantha, the "
                               "Wellspring\n"}
            for rule, says in rules.items():
                reason = await refused(http, body(f"{gid}-3", {"A": BOROS + extra[rule]}))
                assert says in reason, (rule, reason)
            goyf = await refused(http, body(f"{gid}-3", {"A": BOROS + "Deck\n1 Tarmogoyf\n"}))
            assert "Tarmogoyf: engine: not implemented" in goyf
            line = await refused(http, body(f"{gid}-3", {"A": "4 Shock\nfour Fog\n"}))
            assert "A: line 2:" in line
            assert "no player named 'C'" in await refused(http, body(f"{gid}-3", {"C": GREEN}))
            both = await refused(http, body(f"{gid}-3", {"A": BOROS}, A=["Mountain"]))
            assert "not both" in both
            huge = await http.post("/games", json=body(f"{gid}-3", {"A": "1 Island\n" * 9000}))
            assert huge.status_code == 422
            assert system.store.stream_version(f"{gid}-3") == 0
    run_on(scenario)


def test_the_gateway_bounds_a_list_as_the_parser_does() -> None:
    from arbiter_decks.parser import MAX_BYTES
    from arbiter_gateway.models import MAX_DECK_LIST

    assert MAX_DECK_LIST == MAX_BYTES


COMMANDER = EXAMPLES / "commander"


def test_a_commander_game_from_deck_lists(run_on: Runner) -> None:
    """Issue 15: each list's Commander section is the seat's commander, put into the
    command zone (903.6); the rest is the library; `base_variant` picks the base."""
    async def scenario(system: System) -> None:
        gid = f"commander-{system.kind}"
        async with httpx.AsyncClient(base_url=system.base_url, timeout=30) as http:
            organiser, _ = await staff(http, system.logins)
            http.headers.update(auth(organiser))
            lists = {"A": (COMMANDER / "isamaru.txt").read_text(encoding="utf-8"),
                     "B": (COMMANDER / "krenko.txt").read_text(encoding="utf-8")}
            data = {**body(gid, lists), "variant": "commander", "base_variant": "two_player"}
            r = await http.post("/games?wait=10", json=data)
            assert r.status_code == 202, r.text
            assert r.json()["outcome"]["status"] == "applied", r.text
            put = [(e.payload["player"], e.payload["zone"], len(e.payload["cards"]))
                   for e in system.store.read_stream(gid) if e.type == "CardsPut"]
            assert ("A", "command", 1) in put and ("B", "command", 1) in put
            assert ("A", "library", 99) in put
            bad = {**data, "game_id": f"{gid}-2",
                   "deck_lists": {"A": lists["A"].replace("87 Plains", "88 Plains")}}
            assert "903.5a" in await refused(http, bad)

    run_on(scenario)
