"""`arbiter deck check --variant V FILE [--json]` (`../shared/spec/decks.md`) and the
deck lists of `arbiter play --deck SEAT=FILE`.

Output: one line per violation, `card: rule: reason` (with `--json`, one object with
`card`, `rule` and `reason` a line, then `{"legal": ..., "cards": N}`); a summary goes
to standard error. Exit status 0 legal, 1 violations, 2 when the file cannot be read or
the variant is unknown.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from arbiter_decks.check import DeckRejected, UnknownVariant, check_text, playable_setup
from arbiter_decks.parser import MAX_BYTES, DeckListError


class DeckFileError(ValueError):
    """A deck file that cannot be read (missing, too large, not a file)."""


def read_file(path: Path) -> bytes:
    """The file's bytes, reading at most one byte past the size limit."""
    try:
        with path.open("rb") as f:
            data = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise DeckFileError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise DeckFileError(f"{path}: is a directory, not a deck list") from None
    except OSError as e:
        raise DeckFileError(f"{path}: cannot be read ({e.strerror or e})") from None
    if len(data) > MAX_BYTES:
        raise DeckFileError(f"{path}: larger than {MAX_BYTES} bytes; not read")
    return data


def check(variant: str, path: Path, as_json: bool, players: int = 2,
          single_planar_deck: bool = False) -> int:
    try:
        result = check_text(read_file(path), variant, players,
                            single_planar_deck=single_planar_deck)
    except (DeckFileError, DeckListError, UnknownVariant) as e:
        line = e.line if isinstance(e, DeckListError) else None
        where = f"{path}: " if not isinstance(e, DeckFileError) else ""
        if as_json:
            typer.echo(json.dumps({"error": f"{where}{e}", "line": line},
                                  ensure_ascii=False))
        typer.echo(f"{where}{e}", err=True)
        return 2
    for v in result.violations:
        typer.echo(json.dumps(v.as_json(), ensure_ascii=False) if as_json else v.line())
    if as_json:
        typer.echo(json.dumps({"legal": result.legal, "cards": result.cards}))
    verdict = "legal" if result.legal else f"{len(result.violations)} violation(s)"
    typer.echo(f"{path}: {variant}: {verdict}, {result.cards} cards", err=True)
    return 0 if result.legal else 1


def seat_decks(specs: list[str], seats: list[str], variant: str) -> dict[str, dict[str, Any]]:
    """`SEAT=FILE` options as each seat's `PlayerSetup` fields (`playable_setup`: the
    deck, a commander, supplementary decks; the engine's card names, checked with the
    variant's rules). Raises ValueError with a message for the user."""
    out: dict[str, dict[str, Any]] = {}
    for spec in specs:
        seat, sep, file = spec.partition("=")
        if not sep or not seat or not file:
            raise ValueError(f"--deck {spec!r}: write SEAT=FILE, e.g. P1=mono-red.txt")
        if seat not in seats:
            raise ValueError(f"--deck {spec!r}: no seat {seat!r} (seats: "
                             f"{', '.join(seats)})")
        if seat in out:
            raise ValueError(f"--deck: seat {seat} is given twice")
        try:
            out[seat] = playable_setup(read_file(Path(file)), variant, len(seats), seat)
        except DeckRejected as e:
            raise ValueError("\n".join([f"{seat}: {file}: the deck list breaks the "
                                         f"construction rules of {variant}:",
                                         *(v.line() for v in e.violations)])) from None
        except DeckListError as e:
            raise ValueError(f"{seat}: {file}: {e}") from None
        except (DeckFileError, UnknownVariant) as e:
            raise ValueError(f"{seat}: {e}") from None
    return out
