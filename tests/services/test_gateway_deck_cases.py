"""The deck-check cases of tests/decks/ (see its README) through the gateway's game
creation (`deck_lists`): each illegal list is refused (422) with each violation it
expects (card and rule), publishing nothing; with each legal list the game starts,
every seat playing it: its Deck section is the library, its commander, planar deck,
scheme deck (the archenemy's) and vanguard are the player's. The same cases run
through `arbiter deck check` in tests/cli/test_deck_cases.py, so every construction rule
a case checks is tested with a legal and an illegal list on the CLI and through the
gateway."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from tests.deck_cases import DeckCase, deck_cases

from arbiter_core.variants.base import get_variant
from arbiter_decks.check import check_text
from arbiter_runtime.decks import BOT_SCHEME_DECK
from arbiter_runtime.play import team_names

from .conftest import Runner
from .harness import System
from .helpers import auth, staff

CASES = Path(__file__).resolve().parents[1] / "decks"


def hero_list(case: DeckCase) -> bool:
    """A legal Archenemy list without a Scheme deck: a hero's (904.2a)."""
    return (case.expect is None and getattr(get_variant(case.variant), "archenemy", False)
            and not check_text(case.path.read_text(encoding="utf-8"), case.variant,
                               case.players).scheme_deck)


def body(case: DeckCase, game_id: str) -> dict[str, Any]:
    """P1 brings the case's list; in a legal case every seat does (P1 is the archenemy
    in Archenemy, 904.2a), but a hero's list, which the heroes bring while the archenemy
    plays the bots' deck and scheme deck (904.3: an archenemy needs one)."""
    text = case.path.read_text(encoding="utf-8")
    n = max(case.players, get_variant(case.variant).min_players)
    teams = team_names(case.variant, n)
    villain = getattr(get_variant(case.variant), "archenemy", False)
    players: list[dict[str, Any]] = [
        {"name": f"P{i + 1}", "team": teams[i],
         **({"archenemy": True} if i == 0 and villain else {})}
        for i in range(n)]
    seats = [p["name"] for p in players]
    listed = seats if case.expect is None else seats[:1]
    if hero_list(case):
        players[0] |= {"deck": ["Island"] * 60, "scheme_deck": list(BOT_SCHEME_DECK)}
        listed = seats[1:]
    if "single_planar_deck" in case.options:  # one communal deck (901.15): P1's list
        listed = seats[:1]
        for p in players[1:]:
            p["deck"] = ["Island"] * 60
    return {"game_id": game_id, "variant": case.variant, "seed": 3, "players": players,
            "deck_lists": {p: text for p in listed}, **{o: True for o in case.options}}


def started(system: System, game_id: str, case: DeckCase) -> None:
    """The zones of the first seat with the list (P1, or P2 for a hero's list) as its
    list gave them."""
    seat = "P2" if hero_list(case) else "P1"
    events = [e for e in system.store.read_stream(game_id) if e.type == "CardsPut"]
    put = {(e.payload["zone"]): sorted(c["name"] for c in e.payload["cards"])
           for e in events if e.payload["player"] == seat}
    if "single_planar_deck" in case.options:  # 901.15b: the communal deck, whoever's
        put["planar_deck"] = sorted(c["name"] for e in events for c in e.payload["cards"]
                                    if e.payload["zone"] == "planar_deck")
    result = check_text(case.path.read_text(encoding="utf-8"), case.variant, case.players)
    assert put["library"] == sorted(result.deck), case.path.name
    for zone, cards in (("planar_deck", result.planar_deck),
                        ("scheme_deck", result.scheme_deck),
                        ("command", (*result.commander, *result.vanguard))):
        assert put.get(zone, []) == sorted(cards), (case.path.name, zone, put.get(zone))


def test_the_deck_cases_through_the_gateway(run_on: Runner) -> None:
    async def scenario(system: System) -> None:
        async with httpx.AsyncClient(base_url=system.base_url, timeout=30) as http:
            organiser, _ = await staff(http, system.logins)
            http.headers.update(auth(organiser))
            for n, case in enumerate(deck_cases()):
                gid = f"case-{n}-{case.path.stem}-{system.kind}"
                r = await http.post("/games?wait=10", json=body(case, gid))
                if case.expect is None:
                    assert r.status_code == 202, (case.path.name, r.text)
                    assert r.json()["outcome"]["status"] == "applied", (case.path.name, r.text)
                    started(system, gid, case)
                    continue
                assert r.status_code == 422, (case.path.name, r.text)
                error = str(r.json()["error"])
                assert error.startswith("deck_lists: P1: "), (case.path.name, error)
                for card, rule in case.expect:
                    assert f"{card}: {rule}: " in error, (case.path.name, card, rule, error)
                assert system.store.stream_version(gid) == 0
    run_on(scenario)


def test_the_gateway_starts_games_as_the_rules_do(run_on: Runner) -> None:
    """103.1: the starting player is chosen with the game's seed and recorded
    (`StartingPlayerChosen`); 103.5: the London mulligan begins with that player's
    declaration (a recorded decision), the default of the gateway's game creation."""
    async def scenario(system: System) -> None:
        async with httpx.AsyncClient(base_url=system.base_url, timeout=30) as http:
            organiser, _ = await staff(http, system.logins)
            http.headers.update(auth(organiser))
            starters = set()
            for seed in range(6):
                gid = f"start-{seed}-{system.kind}"
                text = (CASES / "constructed-legal.txt").read_text(encoding="utf-8")
                r = await http.post("/games?wait=10", json={
                    "game_id": gid, "variant": "free_for_all", "seed": seed,
                    "players": [{"name": p} for p in ("A", "B", "C")],
                    "deck_lists": {p: text for p in ("A", "B", "C")}})
                assert r.status_code == 202 and r.json()["outcome"]["status"] == "applied"
                events = list(system.store.read_stream(gid))
                chosen = [e.payload for e in events if e.type == "StartingPlayerChosen"]
                assert [e.rule for e in events if e.type == "StartingPlayerChosen"] == [
                    "103.1"]
                asked = [e.payload for e in events if e.type == "DecisionRequested"]
                assert asked[0]["kind"] == "mulligan"
                assert asked[0]["player"] == chosen[0]["player"]
                starters.add(chosen[0]["player"])
            assert len(starters) >= 2  # the seed chooses, not the seating
    run_on(scenario)
