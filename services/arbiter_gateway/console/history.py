"""A game's history for the judge console: the state at any event, fast, and an index
of every event for the timeline's filters.

Opening event N of a long game must not replay from event 1 on each click:

- `state_at(N)` starts from the nearest state it already has at or below N (a
  checkpoint, kept every `CHECKPOINT_EVERY` events as replays pass them, or the last
  state asked for, so stepping costs one event), or from the store's latest trusted
  snapshot at or below N (`EventStore.load_snapshot`, written by the services and by
  `arbiter play` every few hundred events), whichever is closer, and applies only the
  events in between, read as raw bodies (`read_bodies`, the fast decoder). States share
  their immutable objects, so a checkpoint costs its containers, not its cards.
- The timeline reads one page of events at a time from the store.
- Filtering by player, card or CR rule needs every event: the index (`Index`) is built
  once per game by one pass in the background, which reports its progress, learns every
  object's name (for card search, and for naming objects that have left the game) and
  leaves checkpoints behind. A live game's index is extended from its tail.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import structlog

from arbiter_core.kernel.events import Event
from arbiter_core.kernel.evolve import empty_state
from arbiter_core.kernel.explain import Namer, explain
from arbiter_core.kernel.state import GameState
from arbiter_runtime import snapshots
from arbiter_runtime.codec import from_bodies
from arbiter_runtime.fold import GameCorrected, fold
from arbiter_store import EventStore, StoredEvent

log = structlog.get_logger(__name__)

CHECKPOINT_EVERY = 1000
READ_PAGE = 2000
ENGINE_COMMAND = "RunEngineWork"
ID_KEYS = ("obj", "id", "card", "source", "target", "attacker", "blocker", "item",
           "option", "choice", "recipient", "permanent")


@dataclass(frozen=True)
class Entry:
    """What the timeline filters on, for one event."""

    version: int
    type: str
    rule: str
    actor: str | None  # the player whose command made it, "engine", or None
    players: frozenset[str]
    ids: frozenset[int]
    line: str = ""  # the event in words (judges), made by the index pass


def rule_matches(rule: str, wanted: str) -> bool:
    """Is `rule` the rule `wanted` or one of its subrules ("704" and "704.5" match
    "704.5g"; "702.1" matches "702.1a" but not "702.10")?"""
    if not wanted or not rule.startswith(wanted):
        return False
    rest = rule[len(wanted):]
    return not rest or not (wanted[-1].isdigit() and rest[0].isdigit())


def actor_of(s: StoredEvent) -> str | None:
    if s.metadata.get("command") == ENGINE_COMMAND:
        return "engine"
    actor = s.metadata.get("actor")
    return actor if isinstance(actor, str) else None


def entry_of(s: StoredEvent, seats: set[str], line: str = "") -> Entry:
    players: set[str] = set()
    ids: set[int] = set()
    _scan(s.payload, seats, players, ids, None)
    return Entry(version=s.version, type=s.type, rule=s.rule or "", actor=actor_of(s),
                 players=frozenset(players), ids=frozenset(ids), line=line)


def _scan(value: Any, seats: set[str], players: set[str], ids: set[int],
          key: str | None) -> None:
    """Collect the players and object ids a payload names."""
    if isinstance(value, dict):
        for k, v in value.items():
            _scan(v, seats, players, ids, str(k))
    elif isinstance(value, list | tuple):
        for v in value:
            _scan(v, seats, players, ids, key)
    elif isinstance(value, str):
        text = value[2:] if value.startswith(("p:", "o:")) else value
        if text in seats:
            players.add(text)
        elif value.startswith("o:") and text.isdigit():
            ids.add(int(text))
    elif isinstance(value, int) and not isinstance(value, bool) and key is not None \
            and any(k in key for k in ID_KEYS):
        ids.add(value)


class _Later(Namer):
    """The index's namer while it makes a page's lines: an object not named yet (made by
    the event being explained) is named once the page is read, as `reads._lines` names
    the objects of its run first."""

    MARK = re.compile("\x00([0-9]+)\x00")

    def __init__(self, names: Namer) -> None:
        super().__init__()
        self.names = names.names  # shared: learned as the page is read

    def name(self, oid: int | None) -> str:
        if oid is None:
            return "?"
        return self.names.get(oid) or f"\x00{oid}\x00"

    def named(self, line: str) -> str:
        if "\x00" not in line:
            return line
        return self.MARK.sub(lambda m: self.names.get(int(m[1]), "object"), line)


def learn_new(names: Namer, state: GameState, since: int) -> int:
    """Name the objects and stack items made since id `since` (ids only grow); returns
    the next id to learn from."""
    for oid in range(since, state.next_id):
        o = state.objects.get(oid)
        if o is not None:
            names.names[oid] = o.name
        elif oid in state.stack_items:
            names.names[oid] = state.stack_items[oid].source_name
    return max(since, state.next_id)


@dataclass
class Index:
    entries: list[Entry] = field(default_factory=list)
    building: bool = False
    error: str | None = None

    def matching(self, kinds: set[str], rule: str | None, player: str | None,
                 ids: set[int] | None) -> Iterator[Entry]:
        """The entries that pass every filter given."""
        for en in self.entries:
            if kinds and en.type not in kinds:
                continue
            if rule and not rule_matches(en.rule, rule):
                continue
            if player and not (en.actor == player or player in en.players):
                continue
            if ids is not None and not (en.ids & ids):
                continue
            yield en


class History:
    """One game: its states (checkpoints), names and index. Not thread-safe: `Histories`
    runs one caller at a time per game (the index pass takes the lock per page)."""

    def __init__(self, store: EventStore, game_id: str) -> None:
        self.store = store
        self.game_id = game_id
        self.checkpoints: dict[int, GameState] = {0: empty_state()}
        self.names = Namer()
        self.index = Index()
        self.index_state = empty_state()  # where the index pass has got to
        self._named_upto = 1
        self._last: GameState | None = None
        self.lines: OrderedDict[int, str] = OrderedDict()  # event lines already made

    def total(self) -> int:
        return self.store.stream_version(self.game_id)

    def state_at(self, version: int) -> GameState:
        """The state just after event `version` (0: before the first), a private copy."""
        total = self.total()
        if not 0 <= version <= total:
            raise LookupError(f"no event {version} in game {self.game_id!r} ({total} events)")
        state = self._start(version)
        self._replay(state, version)
        self._last = state.clone()
        return state

    def fold(self, state: GameState, e: Event) -> None:
        """Apply the next event to `state` (`arbiter_runtime.fold`: a judge's correction
        restores the state at its event, from this history)."""
        fold(state, e, self.state_at)

    def _start(self, version: int) -> GameState:
        base_v = max(v for v in self.checkpoints if v <= version)
        base = self.checkpoints[base_v]
        last = self._last
        if last is not None and base_v <= last.version <= version:
            base = last
        if version - base.version > CHECKPOINT_EVERY:
            snap = self._snapshot(version)
            if snap is not None and snap.version > base.version:
                self.checkpoints[snap.version] = snap
                return snap.clone()
        return base.clone()

    def _snapshot(self, version: int) -> GameState | None:
        try:
            snap = self.store.load_snapshot(self.game_id, version)
            if snap is None:
                return None
            return snapshots.decode(snap.state, snap.state_hash)
        except Exception as e:  # an unusable snapshot: replay instead
            log.warning("console_snapshot_skipped", game_id=self.game_id, error=str(e))
            return None

    def _replay(self, state: GameState, version: int) -> None:
        while state.version < version:
            end = min(version, state.version + READ_PAGE)
            bodies = self.store.read_bodies(self.game_id, state.version + 1, end)
            for e in from_bodies(bodies, self.game_id):
                self.fold(state, e)
                if state.version % CHECKPOINT_EVERY == 0 \
                        and state.version not in self.checkpoints:
                    self.checkpoints[state.version] = state.clone()

    def learn(self, state: GameState) -> None:
        """Learn every object's name in `state` (for lines about objects that left)."""
        self.names.learn(state)

    def ids_named(self, card: str) -> set[int]:
        needle = card.casefold()
        return {oid for oid, name in self.names.names.items() if needle in name.casefold()}

    def index_step(self) -> bool:
        """Index the next page of events; False when the index is complete. Each entry
        keeps its event in words, so a filtered page's lines cost no replay: the page is
        first run on a copy to name the objects its events make (as `reads._lines`
        does), then each line is made from the state before its event."""
        start = len(self.index.entries)
        page = self.store.read_stream(self.game_id, start + 1, start + READ_PAGE)
        if not page:
            return False
        state = self.index_state
        seats = set(state.players)
        bodies = self.store.read_bodies(self.game_id, start + 1, start + len(page))
        later = _Later(self.names)
        lines: list[tuple[StoredEvent, str]] = []  # named once the page is read
        for s, e in zip(page, from_bodies(bodies, self.game_id), strict=True):
            lines.append((s, explain(state, e, later)))
            self.fold(state, e)
            if isinstance(e, GameCorrected):  # ids after the backup are made anew
                self._add_entries(lines, seats, later)
                self._named_upto = state.next_id
                for oid in [oid for oid in self.names.names if oid >= state.next_id]:
                    del self.names.names[oid]
            self._named_upto = learn_new(self.names, state, self._named_upto)
            if not seats:
                seats = set(state.players)
            if state.version % CHECKPOINT_EVERY == 0 and state.version not in self.checkpoints:
                self.checkpoints[state.version] = state.clone()
        self._add_entries(lines, seats, later)
        return len(page) == READ_PAGE

    def _add_entries(self, lines: list[tuple[StoredEvent, str]], seats: set[str],
                     later: _Later) -> None:
        self.index.entries.extend(entry_of(s, seats, later.named(line)) for s, line in lines)
        lines.clear()


class Histories:
    """Histories of the games being looked at (least recently used dropped first), one
    caller at a time per game; the index of a game is built in a background thread."""

    def __init__(self, store: EventStore, max_games: int = 8) -> None:
        self.store = store
        self.max_games = max_games
        self._games: OrderedDict[str, History] = OrderedDict()
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def _lock(self, game_id: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(game_id, threading.Lock())

    def _history(self, game_id: str) -> History:
        with self._guard:
            h = self._games.get(game_id)
            if h is None:
                h = History(self.store, game_id)
                self._games[game_id] = h
                while len(self._games) > self.max_games:
                    self._games.popitem(last=False)
            else:
                self._games.move_to_end(game_id)
            return h

    def run(self, game_id: str, fn: Callable[[History], Any]) -> Any:
        """`fn` on the game's history (LookupError for a game with no events)."""
        h = self._history(game_id)
        if h.total() == 0:
            raise LookupError(f"no game {game_id!r}")
        with self._lock(game_id):
            return fn(h)

    def index(self, game_id: str) -> tuple[Index, int, int]:
        """The game's index as far as it is built, the events indexed and the total;
        starts (or resumes, for a live game) building it in the background."""
        h = self._history(game_id)
        total = h.total()
        if total == 0:
            raise LookupError(f"no game {game_id!r}")
        with self._lock(game_id):
            idx = h.index
            if not idx.building and len(idx.entries) < total:
                idx.building = True
                threading.Thread(target=self._build, args=(h,), daemon=True,
                                 name=f"console-index-{game_id}").start()
            return idx, len(idx.entries), total

    def _build(self, h: History) -> None:
        try:
            more = True
            while more:
                with self._lock(h.game_id):
                    more = h.index_step()
        except Exception as e:  # reported to the page; the board still works
            log.error("console_index_failed", game_id=h.game_id, error=str(e))
            h.index.error = str(e)
        finally:
            h.index.building = False
