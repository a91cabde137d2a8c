"""`arbiter verify [--game ID] [--strict]`: the store's tamper evidence, and what it covers.

The store checks (read-only, in one consistent read: `EventStore.verify`): each game's
hash chain, its stream record, the global positions (and PostgreSQL's position
counter), the anchors (signatures with `ARBITER_ANCHOR_KEY`; the anchor chain; nothing
after a final anchor), the snapshots (bound to the chain; seals with the key) and the
commands records. Then this command rebuilds each game's state from its events up to
each snapshot's version and checks that the snapshot holds that very state (its state
hash, and its bytes decoding to it), which catches a forged snapshot without a key.
Then each judge's correction (`arbiter_runtime.correction_check`): "corrected at N by
J", its signature checked with `ARBITER_JUDGES` when set, its hash at N and the state
hash the log makes at N; a bad one is BROKEN at its event.

It prints what was checked, the problems (`BROKEN`), and what is not covered (a game
without an anchor, events after the last anchor, records from before store schema 3,
no key). Exit code 1 when something is broken, and with `--strict` also when anything
is not covered or no key is set; 2 on an error. docs/security.md has the guarantees.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from rich.console import Console
from rich.markup import escape

from arbiter_cli.audit import AuditError, first_line, guarded, open_checked
from arbiter_cli.inputs import check_game_id
from arbiter_core.kernel.evolve import empty_state
from arbiter_core.kernel.hashing import state_hash
from arbiter_gateway.passwords import parse_credentials
from arbiter_runtime.codec import validate_bodies
from arbiter_runtime.correction_check import check_corrections
from arbiter_runtime.fold import Correction, LogStates, fold
from arbiter_runtime.snapshots import decode_with_commands
from arbiter_store import ChainBreak, EventStore, InvalidSnapshot, VerifyReport
from arbiter_store.anchoring import ANCHOR_KEY_ENV, optional_key_from_env

WITHOUT_KEY = (f"without {ANCHOR_KEY_ENV}: edits, deletions and reordering inside a chain, "
               "stream records out of step, gaps in the log, commands records that do not "
               "match their events, and snapshots that do not hold the state their events "
               "make are detected; a rewrite of a whole game (hashes recomputed), the "
               "deletion of its last events or of its anchors, and forged anchors or "
               "snapshot seals are not: they need the key")
WITH_KEY = ("with the key: anchors and snapshot seals are genuine, so a game is covered up "
            "to its last anchor, nothing may follow a final anchor, and a deleted anchor "
            "that a later one names is detected")


def run(db: str, game: str | None, strict: bool) -> int:
    return guarded(lambda: _verify(db, game, strict))


def _verify(db: str, game: str | None, strict: bool) -> int:
    if game is not None:
        check_game_id(game)
    key = optional_key_from_env()
    with open_checked(db) as store:
        if game is not None and not store.stream_version(game):
            raise AuditError(f"no game {game!r} in {db!r}")
        report = store.verify(game, anchor_key=key)
        games = [game] if game else store.stream_ids()
        replayed = _rebuild_snapshots(store, games, report)
        corrections = _corrections(store, games, report, replayed)
    out = Console(highlight=False, soft_wrap=True)
    _print(out, db if game is None else f"game {game}", report, replayed)
    for gid, found in corrections.items():
        for c in found:
            out.print(escape(f"  game {gid}: {c.describe()}"))
    if not report.ok or replayed:
        return 1
    unchecked = any(c.signed is None for found in corrections.values() for c in found)
    if strict and (not report.strict_ok or unchecked):
        out.print("[red]--strict[/red]: not everything is covered (see above)")
        return 1
    return 0


def _judges() -> dict[str, str] | None:
    """The judges' credentials that sign corrections (`ARBITER_JUDGES`; None: unset)."""
    raw = os.environ.get("ARBITER_JUDGES", "").strip()
    if not raw:
        return None
    try:
        return parse_credentials(raw)
    except ValueError as e:
        raise AuditError(f"ARBITER_JUDGES: {e}") from e


def _corrections(store: EventStore, games: list[str], report: VerifyReport,
                 problems: list[ChainBreak]) -> dict[str, list[Correction]]:
    """Each game's judge's corrections (`correction_check`); their problems are added to
    `problems`."""
    broken = {p.stream_id for p in report.problems}
    judges = _judges()
    out: dict[str, list[Correction]] = {}
    for gid in games:
        if gid in broken or gid.startswith("access:"):
            continue
        found, problem = check_corrections(store, gid, judges)
        if found:
            out[gid] = found
        if problem is not None:
            problems.append(problem)
    return out


def _rebuild_snapshots(store: EventStore, games: list[str],
                       report: VerifyReport) -> list[ChainBreak]:
    """Each snapshot against the state its game's events make at its version."""
    broken = {p.stream_id for p in report.problems}
    problems: list[ChainBreak] = []
    for gid in games:
        snaps = [] if gid in broken else store.snapshots(gid)
        if not snaps:
            continue
        wanted = {s.version: s for s in snaps}
        state = empty_state()
        bodies = store.read_bodies(gid, 1, max(wanted))
        try:
            events = list(validate_bodies(bodies, where=gid))
            rebuild = LogStates(events)
            for event in events:
                fold(state, event, rebuild)
                snap = wanted.get(state.version)
                if snap is not None:
                    problem = _compare(gid, snap.version, snap.state, snap.state_hash,
                                       state_hash(state))
                    if problem is not None:
                        problems.append(problem)
        except Exception as e:  # a log this engine cannot replay: say so, don't crash
            problems.append(ChainBreak(gid, state.version + 1, None,
                                       f"cannot replay to its snapshots: {first_line(e)}"))
    return problems


def _compare(gid: str, version: int, blob: bytes, recorded: str,
             rebuilt: str) -> ChainBreak | None:
    if recorded != rebuilt:
        return ChainBreak(gid, version, None, (
            f"the snapshot at version {version} does not hold the state the events make "
            "(its state hash differs from the replay's): the snapshot was forged or edited"))
    try:
        decode_with_commands(blob, recorded)
    except InvalidSnapshot as e:
        return ChainBreak(gid, version, None, f"the snapshot at version {version}: {e}")
    return None


def _print(out: Console, scope: str, report: VerifyReport,
           replayed: list[ChainBreak]) -> None:
    signed = "signatures checked" if report.signatures_checked else (
        f"signatures NOT checked: {ANCHOR_KEY_ENV} unset")
    line: Callable[[str], None] = lambda text: out.print(escape(text))  # noqa: E731
    problems = [*report.problems, *replayed]
    head = "verified" if not problems else "[red]BROKEN[/red]"
    out.print(f"{head}: {escape(scope)}: {report.streams} game(s), {report.events} events, "
              f"{report.anchors} anchor(s) ({signed}), {report.snapshots} snapshot(s) "
              f"(rebuilt from the events), {report.commands} commands record(s)")
    for problem in problems:
        line(f"  first broken link: {problem}")
    line("  " + (WITH_KEY if report.signatures_checked else WITHOUT_KEY))
    if report.notes:
        line(f"  not covered ({len(report.notes)}):")
        for note in report.notes[:50]:
            line(f"    {note}")
        if len(report.notes) > 50:
            line(f"    ... and {len(report.notes) - 50} more")
