"""Checks of the command line's own arguments, before anything is opened or printed: a
clear one-line error (exit code 2) instead of a traceback, and a bounded cost (a game id
is at most MAX_GAME_ID characters of printable text, so no renderer spends minutes on
it; rich markup in it is only ever printed escaped)."""

from __future__ import annotations

from arbiter_store.location import parse_location

MAX_GAME_ID = 200


class InputError(ValueError):
    """An argument the command refuses; the message names it."""


def check_game_id(game: str, option: str = "--game") -> str:
    if not game:
        raise InputError(f"{option} must not be empty")
    if len(game) > MAX_GAME_ID:
        raise InputError(f"{option} is {len(game)} characters long; at most {MAX_GAME_ID}")
    if not game.isprintable():
        raise InputError(f"{option} must be printable text (no control characters)")
    return game


def check_db(db: str) -> str:
    """The store URL, checked for shape (an empty one, or `sqlite://relative`, is refused
    here with the form it should take)."""
    try:
        parse_location(db)
    except ValueError as e:
        raise InputError(f"--db {db!r}: {e}") from None
    except Exception as e:  # UnsupportedBackend: an unknown scheme
        raise InputError(f"--db: {e}") from None
    if "\x00" in db:
        raise InputError("--db must not contain NUL characters")
    return db
