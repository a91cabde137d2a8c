"""What the console reads: the games list, a timeline page, the board at an event, the
cause chain of an event, the hash chain, a scenario export. Runs in worker threads;
each game's history (`history.py`) is used by one caller at a time.

A reader is a `Viewer` (`arbiter_gateway.reads`): None for a judge, a seat, or
`SPECTATOR`. The board goes through the core's views (`arbiter_core.views.seat`: a seat
sees its own hand and a Two-Headed Giant teammate's, 810.5, never a library; face-down
names through `face_name`); event lines name hidden cards, so only judges get them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from arbiter_core.kernel.events import Event
from arbiter_core.kernel.explain import explain
from arbiter_core.kernel.shell_loop import owed_work
from arbiter_core.kernel.state import GameState
from arbiter_core.views.seat import SPECTATOR, SeatView, judge_view, spectator_view, view
from arbiter_gateway.console.history import Histories, History, actor_of, learn_new
from arbiter_gateway.console.models import (
    Board,
    Cause,
    ChainStatus,
    GameList,
    GameRow,
    ScenarioExport,
    Timeline,
    TimelineRow,
    Why,
)
from arbiter_runtime.audit import valid_game_id
from arbiter_runtime.codec import from_bodies
from arbiter_runtime.correction_check import check_corrections
from arbiter_runtime.fold import Correction, GameCorrected
from arbiter_scenarios.export import ExportError, export_scenario
from arbiter_store import EventStore, StoredEvent

Viewer = str | None
MAX_PAGE = 500
LINES_KEPT = 20_000  # event lines remembered per game (a filtered page costs seconds)
MAX_CHAIN = 8
LOOK_BACK = 3000  # events searched back for what made engine work owed


@dataclass(frozen=True)
class Filters:
    kinds: frozenset[str] = frozenset()
    rule: str | None = None
    player: str | None = None
    card: str | None = None

    @property
    def any(self) -> bool:
        return bool(self.kinds or self.rule or self.player or self.card)


def game_ids(store: EventStore) -> list[str]:
    """The games of the store (side streams, `audit:<game>` and the like, left out)."""
    return [s for s in store.stream_ids() if ":" not in s and valid_game_id(s)]


def game_row(store: EventStore, game_id: str) -> GameRow:
    n = store.stream_version(game_id)
    first = store.read_stream(game_id, 1, 1)
    started = bool(first) and first[0].type == "GameStarted"
    payload = first[0].payload if started else {}
    last = store.read_stream(game_id, n, n) if n else []
    ended = bool(last) and last[0].type == "GameEnded"
    winners = last[0].payload.get("winners", []) if ended else []
    return GameRow(game_id=game_id, variant=str(payload.get("variant", "?")),
                   players=[str(p) for p in payload.get("seats", [])],
                   status="finished" if ended else "live" if started else "not started",
                   events=n, winners=[str(w) for w in winners])


class ConsoleReads:
    def __init__(self, store: EventStore, judges: dict[str, str] | None = None) -> None:
        self.store = store
        self.judges = judges  # the judges' credentials, which sign corrections
        self.histories = Histories(store)

    # ------------------------------------------------------------------ games

    def games(self, text: str | None, status: str | None, limit: int) -> GameList:
        rows = [game_row(self.store, g) for g in game_ids(self.store)]
        if text:
            t = text.casefold()
            rows = [r for r in rows if t in r.game_id.casefold() or t in r.variant.casefold()
                    or any(t == p.casefold() for p in r.players)]
        if status:
            rows = [r for r in rows if r.status == status]
        return GameList(games=rows[:limit], total=len(rows))

    # ------------------------------------------------------------------ timeline

    def timeline(self, game_id: str, f: Filters, offset: int, limit: int,
                 judge: bool) -> Timeline:
        limit = min(limit, MAX_PAGE)
        index, indexed, total = self.histories.index(game_id) if f.any else (None, 0, 0)
        if index is None:
            total = self.store.stream_version(game_id)
            if total == 0:
                raise LookupError(f"no game {game_id!r}")
            versions = list(range(offset + 1, min(total, offset + limit) + 1))
            matching, indexed, complete, error = total, total, True, None
        else:
            ids = None
            if f.card:
                ids = self.histories.run(game_id, lambda h: h.ids_named(f.card or ""))
            hits = [e.version for e in index.matching(set(f.kinds), f.rule, f.player, ids)]
            matching = len(hits)
            versions = hits[offset:offset + limit]
            complete, error = indexed >= total and not index.building, index.error
        rows = self._rows(game_id, versions, judge)
        return Timeline(game_id=game_id, total=total, matching=matching, offset=offset,
                        rows=rows, indexed=indexed, complete=complete, error=error)

    def _rows(self, game_id: str, versions: list[int], judge: bool) -> list[TimelineRow]:
        if not versions:
            return []
        stored = self._stored(game_id, versions)
        if not judge:
            return [TimelineRow(version=s.version, type=s.type, rule=s.rule or "",
                                actor=actor_of(s)) for s in stored]
        lines = self.histories.run(game_id, lambda h: _lines(h, versions))
        return [TimelineRow(version=s.version, type=s.type, rule=s.rule or "",
                            actor=actor_of(s), summary=lines.get(s.version))
                for s in stored]

    def _stored(self, game_id: str, versions: list[int]) -> list[StoredEvent]:
        """The stored events of `versions` (sorted), read in contiguous runs."""
        out: list[StoredEvent] = []
        for first, last in _runs(versions):
            out.extend(self.store.read_stream(game_id, first, last))
        return out

    # ------------------------------------------------------------------ board

    def board(self, game_id: str, at: int | None, viewer: Viewer, judge: bool) -> Board:
        def build(h: History) -> tuple[int, int, GameState, str | None]:
            total = h.total()
            n = total if at is None else at
            state = h.state_at(n)
            line = _lines(h, [n]).get(n) if judge and n > 0 else None
            return n, total, state, line

        n, total, state, line = self.histories.run(game_id, build)
        if not state.started and n > 0:
            raise LookupError(f"game {game_id!r} has not started at event {n}")
        event = None
        if n > 0:
            s = self.store.read_stream(game_id, n, n)[0]
            event = TimelineRow(version=n, type=s.type, rule=s.rule or "", actor=actor_of(s),
                                summary=line)
        return Board(at=n, total=total, event=event, view=_view(state, viewer))

    # ------------------------------------------------------------------ why

    def why(self, game_id: str, version: int, rule_url: RuleUrl) -> Why:
        chain: list[Cause] = self.histories.run(game_id,
                                                lambda h: _chain(h, version, rule_url))
        return Why(game_id=game_id, version=version, chain=chain)

    # ------------------------------------------------------------------ chain, export

    def chain(self, game_id: str) -> ChainStatus:
        n = self.store.stream_version(game_id)
        if n == 0:
            raise LookupError(f"no game {game_id!r}")
        report = self.store.verify(game_id)
        problems = [p for p in report.problems if p.stream_id in (game_id, None)]
        corrections: list[Correction] = []
        if not problems:
            corrections, problem = check_corrections(self.store, game_id, self.judges)
            problems += [problem] if problem is not None else []
        first = min((p.version for p in problems if p.version is not None), default=None)
        return ChainStatus(game_id=game_id, verified=not problems, events=n,
                           broken_at=first, problems=[p.reason for p in problems][:10],
                           corrections=[c.describe() for c in corrections])

    def scenario(self, game_id: str, at: int) -> ScenarioExport:
        state = self.histories.run(game_id, lambda h: h.state_at(at))
        try:
            exported = export_scenario(state, f"{game_id} at event {at}")
        except ExportError as e:
            raise ValueError(f"cannot export event {at} as a scenario: {e}") from e
        return ScenarioExport(game_id=game_id, at=at, yaml=exported.text(),
                              warnings=list(exported.warnings))


class RuleUrl:
    """A CR rule's address at the configured base (None: rules are not linked)."""

    def __init__(self, base: str | None) -> None:
        self.base = base

    def __call__(self, rule: str) -> str | None:
        if not self.base or not rule or not rule[0].isdigit():
            return None  # not a CR rule (a judge's correction cites the IPG)
        return self.base.replace("{rule}", rule) if "{rule}" in self.base \
            else f"{self.base.rstrip('/')}/{rule}"


def _view(state: GameState, viewer: Viewer) -> SeatView:
    if viewer is None:
        return judge_view(state)
    if viewer == SPECTATOR:
        return spectator_view(state)
    return view(state, viewer)


def _runs(versions: Iterable[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for v in sorted(versions):
        if runs and runs[-1][1] == v - 1:
            runs[-1] = (runs[-1][0], v)
        else:
            runs.append((v, v))
    return runs


def _events(h: History, first: int, last: int) -> list[Event]:
    return list(from_bodies(h.store.read_bodies(h.game_id, first, last), h.game_id))


def _lines(h: History, versions: list[int]) -> dict[int, str]:
    """Each event of `versions` in words (`arbiter_core.kernel.explain`), from the state
    before it; objects made by the event are named first (a dry run of the run)."""
    cache = h.lines
    indexed = h.index.entries
    out = {v: indexed[v - 1].line for v in versions if v <= len(indexed)}
    out.update((v, cache[v]) for v in versions if v in cache and v not in out)
    for first, last in _runs(v for v in versions if v not in out):
        state = h.state_at(first - 1)
        for part in _parts(_events(h, first, last)):
            _explain_part(h, state, part, out)
    for v in versions:
        if v > len(indexed):  # the index's lines need no cache
            cache[v] = out[v]
            cache.move_to_end(v)
    while len(cache) > LINES_KEPT:
        cache.popitem(last=False)
    return out


def _parts(events: list[Event]) -> list[list[Event]]:
    """The events cut after each judge's correction: the objects made after a backup
    reuse ids, so each part is named on its own."""
    parts: list[list[Event]] = [[]]
    for e in events:
        parts[-1].append(e)
        if isinstance(e, GameCorrected):
            parts.append([])
    return [p for p in parts if p]


def _explain_part(h: History, state: GameState, events: list[Event],
                  out: dict[int, str]) -> None:
    """Lines of `events` from `state` (folded through them); objects they make are named
    first (a dry run)."""
    dry = state.clone()
    h.learn(dry)
    since = dry.next_id
    for e in events:
        h.fold(dry, e)
        since = learn_new(h.names, dry, since)
    for e in events:
        out[state.version + 1] = explain(state, e, h.names)
        h.fold(state, e)


def _chain(h: History, version: int, rule_url: RuleUrl) -> list[Cause]:
    """Event `version`, then what led to it: the engine work that made it and the event
    that made that work owed (a WorkQueued, a step that began, ...), back to the player's
    command (or the game's start)."""
    total = h.total()
    if not 1 <= version <= total:
        raise LookupError(f"no event {version} in game {h.game_id!r} ({total} events)")
    s = h.store.read_stream(h.game_id, version, version)[0]
    chain = [Cause(kind="event", version=version, type=s.type,
                   summary=_lines(h, [version]).get(version, ""), actor=actor_of(s),
                   rule=s.rule or "", rule_url=rule_url(s.rule or ""))]
    owed = _owed(h, max(0, version - LOOK_BACK), version - 1)
    while len(chain) < MAX_CHAIN:
        actor = actor_of(s)
        if actor != "engine":
            command = str(s.metadata.get("command") or "")
            if command:
                chain.append(Cause(kind="command", type=command, actor=actor,
                                   summary=f"{actor or 'the organiser'}: {command}"))
            break
        work = next(iter(owed.get(s.version - 1, ())), None)
        start = _owed_since(owed, work, s.version - 1) if work else None
        if work is None or start is None or start >= s.version:
            break
        s = h.store.read_stream(h.game_id, start, start)[0]
        chain.append(Cause(kind="work", version=start, type=work[1],
                           summary=f"engine work {work[1]} (marker {work[0]}), owed since "
                                   f"event {start} {s.type}",
                           actor=actor_of(s), rule=s.rule or "",
                           rule_url=rule_url(s.rule or "")))
    return chain


def _owed(h: History, first: int, last: int) -> dict[int, set[tuple[int, str]]]:
    """The engine work owed (marker, kind) after each event `first`..`last`."""
    state = h.state_at(first)
    out: dict[int, set[tuple[int, str]]] = {first: set(owed_work(state))}
    if last > first:
        for e in _events(h, first + 1, last):
            h.fold(state, e)
            out[state.version] = set(owed_work(state))
    return out


def _owed_since(owed: dict[int, set[tuple[int, str]]], work: tuple[int, str],
                version: int) -> int | None:
    """The event that made `work` owed, owed without a break up to `version`."""
    v = version
    while v - 1 in owed and work in owed[v - 1]:
        v -= 1
    return v if v - 1 in owed else None
