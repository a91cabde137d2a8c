"""Roles and tokens. Tokens are HMAC-signed, so any gateway instance (all share the
secret) checks them without shared state; each carries its role, its subject, the game it
is for (seat and spectator tokens) and when it expires.

- `organiser`: logs in (`POST /auth/token`) with a credential of `ARBITER_ORGANISERS`;
  creates games, hands out seat and spectator tokens, lists the judges' reads.
- `judge`: logs in with a credential of `ARBITER_JUDGES`; reads everything about every
  game (each read of hidden information is recorded, `access.py`).
- `seat`: a token from an organiser, once per seat of a started game; plays that seat
  and reads what that seat may see.
- `spectator`: a token from an organiser or a judge; reads a game's public information.

Nothing derives a judge token from creating a game. Tokens are returned once, to the
caller, and never logged or stored (the seats stream records only that a seat was
claimed). Tokens of the first format (no `v`) are refused.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from dataclasses import dataclass
from typing import Literal

Role = Literal["organiser", "judge", "seat", "spectator"]
ROLES: tuple[Role, ...] = ("organiser", "judge", "seat", "spectator")
STAFF: frozenset[str] = frozenset({"organiser", "judge"})
TOKEN_VERSION = 2
MAX_TOKEN = 2048


@dataclass(frozen=True)
class Principal:
    role: Role
    name: str  # the organiser's or judge's name, the seat, or "spectator"
    game_id: str | None  # None for staff: valid for every game
    expires_at: int

    @property
    def seat(self) -> str | None:
        return self.name if self.role == "seat" else None

    @property
    def label(self) -> str:
        return f"{self.role}:{self.name}"

    def for_game(self, game_id: str) -> bool:
        return self.game_id is None or self.game_id == game_id


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Tokens:
    def __init__(self, secret: bytes) -> None:
        if len(secret) < 16:
            raise ValueError("the gateway secret must be at least 16 bytes")
        self._secret = secret

    def issue(self, role: Role, name: str, game_id: str | None, ttl_s: int) -> tuple[str, int]:
        """A token and the time (epoch seconds) it expires."""
        if (role in STAFF) != (game_id is None):
            raise ValueError("staff tokens are for every game, the others for one")
        expires = int(time.time()) + ttl_s
        body = json.dumps({"v": TOKEN_VERSION, "r": role, "u": name, "g": game_id,
                           "e": expires, "n": secrets.token_hex(8)},
                          separators=(",", ":")).encode()
        sig = hmac.new(self._secret, body, hashlib.sha256).digest()
        return f"{_b64(body)}.{_b64(sig)}", expires

    def check(self, token: str) -> Principal | None:
        if len(token) > MAX_TOKEN:
            return None
        try:
            body_txt, sig_txt = token.split(".", 1)
            body, sig = _unb64(body_txt), _unb64(sig_txt)
        except ValueError:
            return None
        want = hmac.new(self._secret, body, hashlib.sha256).digest()
        if not hmac.compare_digest(want, sig):
            return None
        try:
            data = json.loads(body)
            role, name, game, expires = data["r"], data["u"], data["g"], data["e"]
            if (data.get("v") != TOKEN_VERSION or role not in ROLES
                    or not isinstance(name, str) or not isinstance(expires, int)
                    or (game is not None and not isinstance(game, str))
                    or (role in STAFF) != (game is None)):
                return None
        except (ValueError, KeyError, TypeError):
            return None
        if expires <= time.time():
            return None
        return Principal(role=role, name=name, game_id=game, expires_at=expires)


def bearer(header: str | None) -> str | None:
    if not header:
        return None
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None
