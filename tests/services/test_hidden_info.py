"""The hidden-information check (issue 14): whole bot games of every implemented variant,
played through the gateway by the seats' own tokens, watched by every seat and a
spectator over HTTP and WebSocket, with seats probing ids they cannot see. Every object
id and card name in every message a seat or spectator receives (views, legal actions,
event summaries, command outcomes and rejection reasons, stream messages) must be in
that reader's `view` at that version (for a reply: at some version between the request
and the reply; for a stream message: between the updates around it). And each view must
show what the rules let that reader see, no more and no less: its own hand, a teammate's
where the variant allows it (808.5, 809.7, 810.5, 811.5), no library, no seed, and for
a spectator no hand at all. Every deck holds morph cards and Soul Summons (manifest),
cast face down, manifested and turned face up by the bots: a face-down spell or
permanent shows its name to its controller only (708.5) - to every other reader it is a
"face-down card" wherever the view names it."""

from __future__ import annotations

import asyncio
import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
import websockets
from pydantic import ValidationError

from arbiter_core.kernel.commands import (
    COMMAND_ADAPTER,
    PlayerSetup,
    PositionPlayer,
    SetUpPosition,
    StartGame,
)
from arbiter_core.kernel.decide import decide
from arbiter_core.kernel.events import CardSetup
from arbiter_core.kernel.evolve import apply, empty_state
from arbiter_core.kernel.state import GameState
from arbiter_core.views import seat as seat_views
from arbiter_core.views.seat import FACE_DOWN_NAME, SPECTATOR, sees_hand, spectator_view, view
from arbiter_runtime.codec import from_stored
from arbiter_runtime.decks import deck_for_seat
from arbiter_runtime.play import seat_setup, supplements, team_names
from arbiter_runtime.screening import referenced_ids
from arbiter_store import EventStore, open_store

from .harness import System, memory_system
from .helpers import auth, probes, staff

VARIANTS = [("two_player", 2), ("free_for_all", 3), ("two_headed_giant", 4),
            ("team_vs_team", 4), ("emperor", 6), ("alternating_teams", 4),
            ("grand_melee", 8),
            # Commander (903) and the casual variants (901, 902, 904): planar and scheme
            # deck order, vanguards and commanders in the command zone
            ("commander", 4), ("planechase", 4), ("vanguard", 3), ("archenemy", 4)]
DECK = 10  # seven in the opening hand, three draws: short games
#: with the seat's basic lands, cards with morph (702.37) and a manifest spell (701.40):
#: face-down spells and permanents
MORPHS = ["Battering Craghorn", "Branchsnap Lorian", "Battering Craghorn",
          "Branchsnap Lorian", "Soul Summons"]
ID_KEYS = frozenset({"id", "obj", "source", "new_id", "card", "item", "attached_to"})
PAIR_KEYS = frozenset({"attacks", "blocks"})  # (id, player) and (id, id) pairs


@dataclass
class Received:
    """A message a reader got, and the versions it may have been made at."""

    reader: str  # a seat, or SPECTATOR
    message: Any
    low: int
    high: int
    exact_view: bool = False  # a view: made at exactly `low`


@dataclass
class Game:
    gid: str
    start: StartGame
    tokens: dict[str, str]
    judge: str
    got: list[Received] = field(default_factory=list)
    inboxes: dict[str, list[Any]] = field(default_factory=dict)
    face_down_views: int = 0  # views checked with a face-down object hidden from its reader


def ids_in(data: Any, key: str = "") -> set[int]:
    """Every object id in a JSON document (id-like keys, attack and block pairs)."""
    out: set[int] = set()
    if isinstance(data, dict):
        for k, v in data.items():
            if k in ID_KEYS and isinstance(v, int) and not isinstance(v, bool):
                out.add(v)
            out |= ids_in(v, k)
    elif isinstance(data, list):
        for v in data:
            if key in PAIR_KEYS and isinstance(v, list):
                out |= {x for x in v if isinstance(x, int)}
            out |= ids_in(v, key)
    return out


def actions_ids(legal: dict[str, Any]) -> set[int]:
    out: set[int] = set()
    for a in legal["actions"]:
        out |= {oid for _, oid in referenced_ids(COMMAND_ADAPTER.validate_python(a))}
    return out


def strings_in(data: Any) -> list[str]:
    if isinstance(data, dict):
        return [s for v in data.values() for s in strings_in(v)]
    if isinstance(data, list):
        return [s for v in data for s in strings_in(v)]
    return [data] if isinstance(data, str) else []


def name_pattern(pool: set[str]) -> re.Pattern[str]:
    names = sorted(pool, key=len, reverse=True)  # the longest name first
    return re.compile(r"(?<!\w)(" + "|".join(re.escape(n) for n in names) + r")(?!\w)")


def names_in(data: Any, pattern: re.Pattern[str]) -> set[str]:
    return set(pattern.findall("\n".join(strings_in(data))))


def deck_of(seat: int) -> list[str]:
    return [*deck_for_seat(seat)[:DECK - len(MORPHS)], *MORPHS]


def start_of(gid: str, variant: str, players: int, seed: int) -> StartGame:
    teams = team_names(variant, players)
    return StartGame(game_id=gid, variant=variant, seed=seed, random_seating=True,
                     players=[_seat(variant, players, i, teams[i]) for i in range(players)])


def _seat(variant: str, players: int, i: int, team: str | None) -> PlayerSetup:
    """The seat's short deck with the morph cards; a commander (903.3) and the casual
    variants' planar deck, scheme deck or vanguard as `arbiter play` gives them."""
    setup = seat_setup(variant, i, f"P{i + 1}", team, None)
    return setup.model_copy(update={"deck": deck_of(i), **supplements(variant, players, i)})


# ---------------------------------------------------------------------- playing


async def listen(url: str, token: str, inbox: list[Any], stop: asyncio.Event) -> None:
    async with websockets.connect(url, max_size=2**24) as ws:
        await ws.send(json.dumps({"token": token}))
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                continue
            inbox.append(json.loads(raw))


def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    by_type: dict[str, list[dict[str, Any]]] = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append(a)
    for kind in ("PlayLand", "DeclareBlockers", "AssignCombatDamage", "ChooseObjects",
                 "ChooseOption", "DeclareAttackers"):
        if kind in by_type:
            return rng.choice(by_type[kind])
    for kind, p in (("CastFaceDown", 0.8), ("TurnFaceUp", 0.3)):
        if kind in by_type and rng.random() < p:
            return rng.choice(by_type[kind])
    if "CastSpell" in by_type and rng.random() < 0.5:
        return rng.choice(by_type["CastSpell"])
    return by_type.get("PassPriority", legal)[0]


async def settle(http: httpx.AsyncClient, g: Game) -> dict[str, Any]:
    """The public view once the engine owes no work (who acts next is public)."""
    token = g.tokens[SPECTATOR]
    for _ in range(600):
        v = (await http.get(f"/games/{g.gid}/view", headers=auth(token))).json()
        if v["game_over"] or all(m["pending"]["kind"] != "work" for m in v["markers"]):
            return dict(v)
        await http.get(f"/games/{g.gid}/events?from_version={v['version'] + 1}&wait=1",
                       headers=auth(token))
    raise TimeoutError("the engine did not settle")


async def read(http: httpx.AsyncClient, store: EventStore, g: Game, reader: str,
               method: str, url: str, **kw: Any) -> Any:
    token = g.tokens[reader]
    low = store.stream_version(g.gid)
    r = await http.request(method, url, headers=auth(token), **kw)
    assert r.status_code in (200, 202), (url, r.status_code, r.text)
    body = r.json()
    high = store.stream_version(g.gid)
    exact = url.endswith("/view")
    g.got.append(Received(reader, body, body["version"] if exact else low,
                          body["version"] if exact else high, exact))
    return body


async def probe(http: httpx.AsyncClient, store: EventStore, g: Game, seat: str,
                rng: random.Random, n: int) -> None:
    """The seat names objects it cannot see (other hands, every library, unknown ids)."""
    judged = (await http.get(f"/games/{g.gid}/view", headers=auth(g.judge))).json()
    hidden = [c["id"] for p in judged["players"] for c in (p["library"] or [])]
    hidden += [c["id"] for p in judged["players"] if p["name"] != seat
               for c in (p["hand"] or [])]
    pick = [*rng.sample(hidden, min(3, len(hidden))), 10**6 + n]
    for i, oid in enumerate(pick):
        for j, command in enumerate(probes(seat, oid)):
            cid = f"probe-{seat}-{n}-{i}-{j}"
            out = await read(http, store, g, seat, "POST",
                             f"/games/{g.gid}/commands?wait=10",
                             json={"command": command, "command_id": cid})
            assert out["status"] == "rejected", out
        await read(http, store, g, seat, "GET", f"/games/{g.gid}/commands/{cid}")
        other = next(s for s in g.start.players if s.name != seat).name
        theirs = await read(http, store, g, other, "GET", f"/games/{g.gid}/commands/{cid}")
        assert theirs["status"] == "pending"


async def play(system: System, variant: str, players: int) -> Game:
    gid = f"hidden-{variant}-{system.kind}"
    store = system.store
    rng = random.Random(11)
    async with httpx.AsyncClient(base_url=system.base_url, timeout=30) as http:
        organiser, judge = await staff(http, system.logins)
        start = start_of(gid, variant, players, seed=4)
        body = {"game_id": gid, "variant": variant, "seed": start.seed,
                "players": [p.model_dump(mode="json") for p in start.players]}
        r = await http.post("/games?wait=10", json=body, headers=auth(organiser))
        assert r.json()["outcome"]["status"] == "applied", r.text
        tokens = {}
        for p in start.players:
            j = await http.post(f"/games/{gid}/join", json={"seat": p.name},
                                headers=auth(organiser))
            tokens[p.name] = j.json()["token"]
        spec = await http.post(f"/games/{gid}/spectators", headers=auth(organiser))
        tokens[SPECTATOR] = spec.json()["token"]
        g = Game(gid, start, tokens, judge, inboxes={r: [] for r in tokens})
        stop = asyncio.Event()
        url = system.base_url.replace("http", "ws") + f"/games/{gid}/stream"
        listeners = [asyncio.create_task(listen(url, t, g.inboxes[r], stop))
                     for r, t in tokens.items()]
        for step in range(3000):
            public = await settle(http, g)
            if public["game_over"]:
                break
            seat = next(m["pending"]["player"] for m in public["markers"]
                        if m["pending"]["kind"] in ("priority", "decision"))
            await read(http, store, g, seat, "GET", f"/games/{gid}/view")
            legal = await read(http, store, g, seat, "GET", f"/games/{gid}/legal")
            if step % 5 == 0:
                await read(http, store, g, seat, "GET", f"/games/{gid}/events?from_version="
                           f"{max(1, public['version'] - 20)}")
                await read(http, store, g, SPECTATOR, "GET", f"/games/{gid}/view")
            if step % 40 == 0:
                await probe(http, store, g, seat, rng, step)
            out = await read(http, store, g, seat, "POST", f"/games/{gid}/commands?wait=10",
                             json={"command": choose(legal["actions"], rng)})
            assert out["status"] == "applied", out
        else:
            raise AssertionError("the game did not end")
        for _ in range(400):  # bounded: until every listener saw the end
            if all(any(m["kind"] == "update" and m["view"]["game_over"] for m in box)
                   for box in g.inboxes.values()):
                break
            await asyncio.sleep(0.05)
        stop.set()
        await asyncio.gather(*listeners)
    for reader, box in g.inboxes.items():
        updates = [i for i, m in enumerate(box) if m["kind"] == "update"]
        assert updates and box[updates[-1]]["view"]["game_over"], reader
        final = store.stream_version(gid)
        for i, m in enumerate(box):
            if m["kind"] == "update":
                v = m["view"]["version"]
                g.got.append(Received(reader, m, v, v, exact_view=True))
            elif m["kind"] == "rejected":
                before = [box[k]["version"] for k in updates if k < i]
                after = [box[k]["version"] for k in updates if k > i]
                g.got.append(Received(reader, m, before[-1] if before else 0,
                                      after[0] if after else final))
    return g


# ---------------------------------------------------------------------- checking


@dataclass
class Seen:
    ids: set[int]
    names: set[str]


def view_of(state: GameState, reader: str) -> Any:
    v = spectator_view(state) if reader == SPECTATOR else view(state, reader)
    return v.model_dump(mode="json")


def rules_violations(state: GameState, reader: str, shown: dict[str, Any]) -> list[str]:
    """What the view shows of hidden zones against what the rules allow."""
    bad = []
    ids = ids_in(shown)
    viewer = None if reader == SPECTATOR else reader
    for oid, o in state.objects.items():
        if o.zone == "library" and oid in ids:
            bad.append(f"{reader} sees library card {oid}")
        if o.zone == "hand":
            may = viewer is not None and sees_hand(state, viewer, o.owner)
            if may != (oid in ids):
                bad.append(f"{reader} {'misses' if may else 'sees'} {o.owner}'s hand "
                           f"card {oid}")
    if shown["seed"] is not None:
        bad.append(f"{reader} sees the seed")
    hidden = face_down_hidden(state, reader)
    bad += [f"{reader} sees face-down {oid} as {name!r}"
            for oid, name in named_entries(shown, hidden) if name != FACE_DOWN_NAME]
    return bad


def face_down_hidden(state: GameState, reader: str) -> set[int]:
    """The face-down spells and permanents `reader` may not look at (708.5; 708.9: all
    are revealed at the end of the game)."""
    if state.game_over:
        return set()
    return {oid for oid, o in state.objects.items()
            if o.face_down and o.zone in ("battlefield", "stack") and o.controller != reader}


def named_entries(data: Any, ids: set[int]) -> list[tuple[int, str]]:
    """(id, name) of every entry of a JSON document that names an object of `ids` (a
    permanent, a card, a target, a stack item by its spell's `obj`)."""
    out: list[tuple[int, str]] = []
    if isinstance(data, dict):
        oid = data.get("obj", data.get("id"))
        if oid in ids and isinstance(data.get("name"), str):
            out.append((oid, data["name"]))
        for v in data.values():
            out += named_entries(v, ids)
    elif isinstance(data, list):
        for v in data:
            out += named_entries(v, ids)
    return out


def check(store: EventStore, g: Game) -> tuple[int, list[str]]:
    """(messages checked, violations). A view received must be the reader's view at its
    version, exactly; any other message is checked id by id and name by name. Versions
    with a face-down object hidden from a reader are counted in `g.face_down_views`."""
    pool = name_pattern({n for p in g.start.players for n in p.deck})
    wanted: dict[int, set[str]] = {}
    for r in g.got:
        for v in range(r.low, r.high + 1):
            wanted.setdefault(v, set()).add(r.reader)
    seen: dict[tuple[str, int], Seen] = {}
    views: dict[tuple[str, int], Any] = {}
    bad: list[str] = []
    state = empty_state()
    for e in store.read_stream(g.gid):
        apply(state, from_stored(e))
        for reader in wanted.get(e.version, ()):
            shown = view_of(state, reader)
            views[reader, e.version] = shown
            seen[reader, e.version] = Seen(ids_in(shown), names_in(shown, pool))
            bad += [f"v{e.version}: {b}" for b in rules_violations(state, reader, shown)]
            if face_down_hidden(state, reader):
                g.face_down_views += 1
    for r in g.got:
        if r.exact_view:
            got = r.message.get("view", r.message)
            if got != views[r.reader, r.low]:
                bad.append(f"{r.reader} got a view at {r.low} that is not its view")
            events = r.message.get("events", [])
            if any(set(e) != {"version", "type", "rule"} for e in events):
                bad.append(f"{r.reader} got event payloads")
            continue
        versions = [seen[r.reader, v] for v in range(max(1, r.low), r.high + 1)
                    if (r.reader, v) in seen]
        assert versions, (r.reader, r.low, r.high)
        ok_ids = set().union(*(s.ids for s in versions))
        ok_names = set().union(*(s.names for s in versions))
        got_ids = ids_in(r.message)
        if isinstance(r.message, dict) and "actions" in r.message:
            got_ids |= actions_ids(r.message)
        for oid in sorted(got_ids - ok_ids):
            bad.append(f"{r.reader} got id {oid} (versions {r.low}-{r.high})")
        for name in sorted(names_in(r.message, pool) - ok_names):
            bad.append(f"{r.reader} got {name!r} (versions {r.low}-{r.high}): "
                       f"{json.dumps(r.message)[:200]}")
    return len(g.got), bad


@pytest.mark.parametrize(("variant", "players"), VARIANTS)
def test_no_reader_sees_hidden_information(variant: str, players: int) -> None:
    async def go() -> tuple[int, list[str], dict[str, int]]:
        with open_store(":memory:") as store:
            async with memory_system(store) as system:
                g = await asyncio.wait_for(play(system, variant, players), 600)
            checked, bad = check(store, g)
            turned = [e.type for e in store.read_stream(g.gid)
                      if e.type in ("TurnedFaceDown", "TurnedFaceUp")]
            kinds_fd = {"face-down events": len(turned),
                        "turned face up": turned.count("TurnedFaceUp"),
                        "face-down views": g.face_down_views}
            kinds: dict[str, int] = {}
            for r in g.got:
                m = r.message
                kind = (m.get("kind") or ("legal" if "actions" in m else m.get("status"))
                        ) if isinstance(m, dict) else "events"
                kinds[str(kind)] = kinds.get(str(kind), 0) + 1
            return checked, bad, {**kinds, **kinds_fd}
    try:
        checked, bad, kinds = asyncio.run(go())
    except ValidationError as e:  # pragma: no cover - a malformed legal action
        raise AssertionError(str(e)) from None
    assert checked > 100 and kinds.get("rejected", 0) > 0, kinds
    # the game had face-down spells and permanents, and readers who may not look at them
    assert kinds["face-down events"] > 0 and kinds["face-down views"] > 0, kinds
    assert not bad, f"{len(bad)} violations in {checked} messages: {bad[:10]}"


def test_the_check_finds_a_face_down_card_shown_to_another_reader(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: with a `face_name` that shows every name (the views before
    face-down objects existed), a face-down permanent's name reaches its controller's
    opponent and a spectator, and `rules_violations` says so."""
    state = empty_state()
    setup = SetUpPosition(
        game_id="fd", variant="two_player", seed=1, active="P1",
        players=[PositionPlayer(name="P1", zones={"battlefield": [
                     CardSetup(name="Battering Craghorn")]}),
                 PositionPlayer(name="P2", zones={"hand": [CardSetup(name="Shock")]})],
        face_down=[("P1", 0)])
    for e in decide(state, setup):
        apply(state, e)
    for reader in ("P1", "P2", SPECTATOR):
        assert not rules_violations(state, reader, view_of(state, reader)), reader
    monkeypatch.setattr(seat_views, "face_name", lambda o, seat, revealed=False: o.name)
    assert not rules_violations(state, "P1", view_of(state, "P1"))  # its controller
    for reader in ("P2", SPECTATOR):
        assert rules_violations(state, reader, view_of(state, reader)) == [
            f"{reader} sees face-down {state.battlefield[0]} as 'Battering Craghorn'"]
