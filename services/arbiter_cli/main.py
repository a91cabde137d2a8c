"""The `arbiter` command line: play, replay (board, --explain, --as-scenario), diff,
scenario run."""

from __future__ import annotations

from pathlib import Path

import typer

from arbiter_cli import (
    correct_cmd,
    dead_letters_cmd,
    diff_cmd,
    play_cmd,
    replay_cmd,
    scenario_cmd,
    store_cmd,
    verify_cmd,
)

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Arbiter: multiplayer Magic games as event-sourced services.")
scenario_app = typer.Typer(no_args_is_help=True, help="Judges' rules scenarios (YAML).")
app.add_typer(scenario_app, name="scenario")
db_app = typer.Typer(no_args_is_help=True, help="Event store administration.")
app.add_typer(db_app, name="db")
deck_app = typer.Typer(no_args_is_help=True, help="Deck lists (docs/decks.md).")
app.add_typer(deck_app, name="deck")


@deck_app.command("check")
def deck_check(
    file: Path = typer.Argument(..., help="the deck list (UTF-8 text)"),
    variant: str = typer.Option(..., "--variant", help="whose construction rules apply"),
    as_json: bool = typer.Option(False, "--json", help="one JSON object per violation"),
    players: int = typer.Option(2, "--players", min=1, max=100,
                                help="players in the game (rules that depend on it)"),
    single_planar_deck: bool = typer.Option(
        False, "--single-planar-deck",
        help="Planechase: the Planar deck is the communal one (901.15a)"),
) -> None:
    """Check a deck list; exit 0 legal, 1 with violations, 2 unreadable or unknown variant."""
    from arbiter_cli import deck_cmd  # loads the deck package only for deck commands

    raise typer.Exit(deck_cmd.check(variant, file, as_json, players, single_planar_deck))


@db_app.command("upgrade")
def db_upgrade(db: str = typer.Option(..., "--db", help="postgresql:// URL or SQLite path")
               ) -> None:
    """Apply the versioned schema migrations."""
    raise typer.Exit(store_cmd.db_upgrade(db))


@app.command()
def verify(
    db: str = typer.Option(..., "--db", help="SQLite path or postgresql:// URL"),
    game: str | None = typer.Option(None, "--game", help="one game (default: all)"),
    strict: bool = typer.Option(False, "--strict",
                                help="also exit 1 when anything is not covered: a game "
                                     "without an anchor, events after its last anchor, "
                                     "old records, or no ARBITER_ANCHOR_KEY"),
) -> None:
    """Check the tamper evidence (hash chains, signed anchors, snapshots, commands
    records), say what it covers; exit 1 if broken (or, with --strict, not covered)."""
    raise typer.Exit(verify_cmd.run(db, game, strict))


@app.command()
def play(
    players: int = typer.Option(4, "--players", min=2, max=100, help="number of bot players"),
    seed: int = typer.Option(1, "--seed", help="fixes every random choice"),
    variant: str = typer.Option("free_for_all", "--variant"),
    db: str = typer.Option("arbiter-play.sqlite", "--db",
                           help="SQLite path or postgresql:// URL"),
    game: str | None = typer.Option(None, "--game", help="game id (default: derived)"),
    attack: str | None = typer.Option(None, "--attack",
                                      help="attack option: left, right or multiple (802-803)"),
    range_of_influence: int | None = typer.Option(None, "--range", min=1,
                                                  help="limited range of influence (801)"),
    distributed: bool = typer.Option(False, "--distributed",
                                     help="play through the gateway of `arbiter up`"),
    gateway: str = typer.Option("http://127.0.0.1:8080", "--gateway"),
    resolvers: int | None = typer.Option(None, "--resolvers", min=1,
                                         help="with --distributed: start a local cluster "
                                              "with this many stack-resolver processes"),
    deck: list[str] = typer.Option([], "--deck", metavar="SEAT=FILE",
                                   help="play this deck list at seat P1..Pn (repeatable); "
                                        "other seats get the bot decks"),
    base: str | None = typer.Option(None, "--base",
                                    help="the base variant of planechase or vanguard "
                                         "(e.g. two_headed_giant, grand_melee; 901.2)"),
    single_planar_deck: bool = typer.Option(
        False, "--single-planar-deck",
        help="Planechase: one communal planar deck, the bots' twenty planar cards "
             "(901.15; two players)"),
) -> None:
    """Play a complete seeded bot game in one process and store every event."""
    if attack not in (None, "left", "right", "multiple"):
        typer.echo(f"--attack must be left, right or multiple, not {attack!r}", err=True)
        raise typer.Exit(2)
    if distributed and deck:
        typer.echo("--deck is for the embedded game; through the gateway, create the game "
                   "with deck_lists (docs/decks.md)", err=True)
        raise typer.Exit(2)
    if distributed and single_planar_deck:
        typer.echo("--single-planar-deck is for the embedded game", err=True)
        raise typer.Exit(2)
    if distributed:
        raise typer.Exit(_services(["play", "--gateway", gateway, "--players", str(players),
                                    "--seed", str(seed), "--variant", variant,
                                    *(["--game", game] if game else []),
                                    *(["--resolvers", str(resolvers)] if resolvers
                                      else [])]))
    raise typer.Exit(play_cmd.run(players=players, seed=seed, variant=variant, db=db,
                                  game_id=game, attack=attack,
                                  range_of_influence=range_of_influence, decks=deck,
                                  base=base, single_planar_deck=single_planar_deck))


@app.command()
def replay(
    db: str = typer.Option(..., "--db", help="SQLite path or postgresql:// URL"),
    game: str | None = typer.Option(None, "--game", help="game id (optional with one game)"),
    to: int | None = typer.Option(None, "--to", help="stop after event N (default: all)"),
    from_: int | None = typer.Option(None, "--from", help="with --explain: list from event "
                                                          "N (default: 1)"),
    as_json: bool = typer.Option(False, "--json", help="print the board (or the --explain "
                                                       "rows) as JSON"),
    explain: bool = typer.Option(False, "--explain",
                                 help="list events (--from N) to --to M: summary, cause, "
                                      "actor, CR rule"),
    as_scenario: bool = typer.Option(False, "--as-scenario",
                                     help="write the position at N as a scenario YAML"),
    out: Path | None = typer.Option(None, "--out", help="file for --as-scenario "
                                                         "(default: stdout)"),
    check: bool = typer.Option(False, "--check",
                               help="re-decide the log with this engine and report the "
                                    "first event where it diverges (exit 1)"),
) -> None:
    """Rebuild a game's state from its events and print the board at that point."""
    raise typer.Exit(replay_cmd.run(db=db, game=game, to=to, as_json=as_json, explain=explain,
                                    as_scenario=as_scenario, out=out, check=check,
                                    from_=from_))


@app.command()
def correct(
    db: str = typer.Option(..., "--db", help="SQLite path or postgresql:// URL"),
    game: str = typer.Option(..., "--game", help="the game to back up"),
    to: int = typer.Option(..., "--to", help="back up to event N (before the last)"),
    judge: str = typer.Option(..., "--judge", help="the judge's login name "
                                                   "(an ARBITER_JUDGES entry)"),
    reason: str = typer.Option(..., "--reason", help="why (recorded in the event)"),
) -> None:
    """A judge's correction: append a signed "back up to event N" (the password is asked,
    or read from ARBITER_JUDGE_PASSWORD); exit 1 if the game refuses it, 2 on an error."""
    raise typer.Exit(correct_cmd.run(db=db, game=game, to=to, judge=judge, reason=reason))


@app.command()
def diff(
    db: str = typer.Option(..., "--db", help="SQLite path or postgresql:// URL"),
    game: str | None = typer.Option(None, "--game", help="game id (optional with one game)"),
    start: int = typer.Option(..., "--from", help="the state after event N"),
    end: int = typer.Option(..., "--to", help="the state after event M"),
    as_json: bool = typer.Option(False, "--json", help="print the changes as JSON"),
) -> None:
    """What changed between the state after event N and the state after event M."""
    raise typer.Exit(diff_cmd.run(db=db, game=game, start=start, end=end, as_json=as_json))


@app.command("dead-letters")
def dead_letters(
    db: str = typer.Option(..., "--db", help="SQLite path or postgresql:// URL"),
    game: str | None = typer.Option(None, "--game", help="one game's (default: every game's)"),
    as_json: bool = typer.Option(False, "--json", help="print the records as JSON"),
) -> None:
    """Messages the services set aside because handling them kept failing."""
    raise typer.Exit(dead_letters_cmd.run(db=db, game=game, as_json=as_json))


def _services(argv: list[str]) -> int:
    """Hand over to the services' launcher (installed with the `services` extra)."""
    try:
        from arbiter_ops.__main__ import main as services_main
    except ImportError as e:  # pragma: no cover - the Makefile installs the extra
        typer.echo(f"the services are not installed ({e}); run `make install`", err=True)
        return 2
    try:
        return services_main(argv)
    except OSError as e:
        typer.echo(f"cannot reach the services: {e}", err=True)
        return 2


@app.command()
def up(
    store: str = typer.Option("sqlite", "--store", help="sqlite, postgres, or a store URL"),
    run_dir: Path = typer.Option(Path(".arbiter"), "--run-dir"),
    resolvers: int = typer.Option(1, "--resolvers", min=1,
                                  help="stack-resolver processes (work keyed game:marker)"),
) -> None:
    """Start a local Kafka-protocol broker (Tansu) and every service as its own process."""
    raise typer.Exit(_services(["up", "--store", store, "--run-dir", str(run_dir),
                                "--resolvers", str(resolvers)]))


@app.command()
def down(run_dir: Path = typer.Option(Path(".arbiter"), "--run-dir")) -> None:
    """Stop what `arbiter up` started."""
    raise typer.Exit(_services(["down", "--run-dir", str(run_dir)]))


@scenario_app.command("run")
def scenario_run(
    paths: list[Path] = typer.Argument(..., help="scenario files or folders"),
    as_json: bool = typer.Option(False, "--json", help="one JSON object per scenario"),
    expected_failures: Path | None = typer.Option(
        None, "--expected-failures",
        help="file listing scenario file names expected to fail (variants not done yet)"),
) -> None:
    """Run scenarios; exit 0 only when all pass."""
    raise typer.Exit(scenario_cmd.run(paths, as_json=as_json,
                                      expected_failures=expected_failures))


def main() -> None:
    """The `arbiter` entry point: no traceback reaches a user (an unexpected error is one
    line on stderr and exit code 2)."""
    try:
        app(standalone_mode=True)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        raise SystemExit(130) from None
    except Exception as e:  # the last guard: every command reports its own errors
        text = str(e).splitlines()[0] if str(e) else ""
        typer.echo(f"error: {type(e).__name__}: {text[:500]}", err=True)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
