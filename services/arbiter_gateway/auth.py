"""Per-seat and judge tokens: HMAC-signed, so any gateway instance (all share the
secret) checks them without shared state. A token names one game, one role and, for a
seat, the seat. Tokens are returned once, to the caller, and never logged or stored
(the seats stream records only that a seat was claimed)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from typing import Literal

Role = Literal["seat", "judge"]


@dataclass(frozen=True)
class Principal:
    game_id: str
    role: Role
    seat: str | None

    @property
    def label(self) -> str:
        return self.seat if self.role == "seat" and self.seat else "judge"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Tokens:
    def __init__(self, secret: bytes) -> None:
        if len(secret) < 16:
            raise ValueError("the gateway secret must be at least 16 bytes")
        self._secret = secret

    def issue(self, game_id: str, role: Role, seat: str | None = None) -> str:
        body = json.dumps({"g": game_id, "r": role, "s": seat, "n": secrets.token_hex(8)},
                          separators=(",", ":")).encode()
        sig = hmac.new(self._secret, body, hashlib.sha256).digest()
        return f"{_b64(body)}.{_b64(sig)}"

    def check(self, token: str) -> Principal | None:
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
            role = data["r"]
            if role not in ("seat", "judge"):
                return None
            return Principal(game_id=str(data["g"]), role=role, seat=data.get("s"))
        except (ValueError, KeyError, TypeError):
            return None


def bearer(header: str | None) -> str | None:
    if not header:
        return None
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None
