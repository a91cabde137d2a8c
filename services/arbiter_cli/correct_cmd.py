"""`arbiter correct --db URL --game G --to N --judge J --reason TEXT`: a judge's correction
("back up to event N", issue 16) appended straight to the store, as the console's
`POST /console/api/games/{id}/corrections` does through the gateway (docs/console.md).

The judge proves the role as at the gateway's login: the name must be an entry of
`ARBITER_JUDGES` (`name=scrypt:...`), and the password must match its hash
(`arbiter_gateway.passwords`). The password is read from `ARBITER_JUDGE_PASSWORD`, else
from `ARBITER_JUDGE_LOGIN` (`name:password`, the tests' and clients' judge login) when it
names this judge, else asked for (hidden). The correction is signed with the judge's
entry, as the gateway signs it, so `arbiter verify` with the same `ARBITER_JUDGES`
checks it; with `ARBITER_ANCHOR_KEY` the game is anchored after it (a signing store).

Exit codes: 0 appended; 1 the game refuses this correction (N not before the last event,
N in the middle of the engine's work, a closed game, the game moved on meanwhile); 2 an
argument, a credential or the store is wrong (nothing is appended).
"""

from __future__ import annotations

import os
import re

import click
import typer
from rich.console import Console
from rich.markup import escape

from arbiter_cli.audit import AuditError, guarded, open_checked
from arbiter_cli.inputs import check_db, check_game_id
from arbiter_gateway.logins import Login
from arbiter_gateway.passwords import MAX_PASSWORD, NAME_PATTERN, Credentials, parse_credentials
from arbiter_runtime.fold import CorrectionError, correct
from arbiter_store import ConcurrencyConflict, EventStore, NotAStore, open_store
from arbiter_store.anchoring import optional_key_from_env
from arbiter_store.location import redact

JUDGES_ENV = "ARBITER_JUDGES"
PASSWORD_ENV = "ARBITER_JUDGE_PASSWORD"
LOGIN_ENV = "ARBITER_JUDGE_LOGIN"


def run(db: str, game: str, to: int, judge: str, reason: str) -> int:
    return guarded(lambda: _correct(db, game, to, judge, reason))


def _correct(db: str, game: str, to: int, judge: str, reason: str) -> int:
    check_game_id(game)
    check_db(db)
    with open_checked(db) as store:  # before the password is asked: the store and game
        if not store.stream_version(game):
            raise AuditError(f"no game {game!r} in {redact(db)!r}")
    key = authenticate(judge)
    err = Console(stderr=True, highlight=False)
    with _open_writable(db) as store:
        try:
            made = correct(store, game, to, judge, reason, key)
        except CorrectionError as e:
            err.print(f"[red]refused:[/red] {escape(str(e))}", soft_wrap=True)
            return 1
        except ConcurrencyConflict:
            err.print("[red]refused:[/red] the game moved on meanwhile: try again",
                      soft_wrap=True)
            return 1
    out = Console(highlight=False, soft_wrap=True)
    out.print(escape(f"game {game}: corrected at {to} by {judge} (event {made.version}: "
                     f"{made.payload['reason']}); the game goes on from the state at "
                     f"event {to}"))
    return 0


def authenticate(judge: str) -> str:
    """The judge's credential (their `ARBITER_JUDGES` entry, which signs the correction),
    once their password is checked against it; AuditError otherwise."""
    if not re.match(NAME_PATTERN, judge):
        raise AuditError(f"--judge {judge[:64]!r} is not a judge's login name")
    raw = os.environ.get(JUDGES_ENV, "").strip()
    if not raw:
        raise AuditError(f"{JUDGES_ENV} is not set: the judges' credentials (name=scrypt:"
                         "... entries, as the gateway has them) are needed to prove the role")
    try:
        judges = Credentials(parse_credentials(raw))
    except ValueError as e:
        raise AuditError(f"{JUDGES_ENV}: {e}") from None
    if judge not in judges.entries:
        raise AuditError(f"{judge!r} is not a judge ({JUDGES_ENV} has no entry for them)")
    if not judges.verify(judge, _password(judge)):
        raise AuditError(f"wrong password for judge {judge!r}: nothing was appended")
    return judges.entries[judge]


def _password(judge: str) -> str:
    given = os.environ.get(PASSWORD_ENV)
    if given is None:
        login = os.environ.get(LOGIN_ENV, "")
        if login:
            try:
                parsed = Login.parse(login)
            except ValueError:
                raise AuditError(f"{LOGIN_ENV} reads name:password") from None
            given = parsed.password if parsed.name == judge else None
    if given is None:
        try:
            given = str(typer.prompt(f"password of judge {judge}", hide_input=True))
        except click.exceptions.Abort:
            raise AuditError(f"no password: type it when asked, or set {PASSWORD_ENV}"
                             ) from None
    if len(given) > MAX_PASSWORD:
        raise AuditError(f"the password is longer than {MAX_PASSWORD} characters")
    return given


def _open_writable(db: str) -> EventStore:
    """The store, for appending (`_correct` opened it read-only first, `open_checked`: a
    missing SQLite file is not created, and a file that is not an Arbiter store, an empty
    one included, which a writable open would initialise, is refused and left as it
    was)."""
    try:
        return open_store(db, anchor_key=optional_key_from_env())
    except NotAStore as e:
        raise AuditError(f"{e}") from e
