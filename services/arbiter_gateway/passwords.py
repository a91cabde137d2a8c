"""Operator-configured credentials, stored as scrypt hashes (hashlib), never in plain text.

A credential hash reads `scrypt:<n>:<r>:<p>:<salt>:<hash>` (base64url without padding:
no '$', '=' or ',', so it goes into an environment variable, a compose `.env` file or a
Kubernetes Secret unquoted). A list of credentials (`ARBITER_JUDGES`,
`ARBITER_ORGANISERS`) is `name=hash` entries separated by commas. Make one with
`python -m arbiter_gateway hash-password` (reads the password from standard input).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets

SCHEME = "scrypt"
N, R, P = 2**14, 8, 1  # ~16 MiB and ~50 ms a check here: login only, rate limited
MAX_N = 2**17
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.@\-]{0,63}$"
_NAME = re.compile(NAME_PATTERN)
MAX_PASSWORD = 1024


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def hash_password(password: str, n: int = N, r: int = R, p: int = P) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=n, r=r, p=p, dklen=32,
                            maxmem=128 * r * (n + p + 2))
    return f"{SCHEME}:{n}:{r}:{p}:{_b64(salt)}:{_b64(digest)}"


def check_hash(encoded: str) -> None:
    """Raise ValueError unless `encoded` is a credential hash this module can check."""
    parts = encoded.split(":")
    if len(parts) != 6 or parts[0] != SCHEME:
        raise ValueError("a credential hash reads scrypt:<n>:<r>:<p>:<salt>:<hash>")
    n, r, p = (int(x) for x in parts[1:4])
    if not (2 <= n <= MAX_N and n & (n - 1) == 0 and 1 <= r <= 32 and 1 <= p <= 4):
        raise ValueError("scrypt parameters out of range")
    if len(_unb64(parts[4])) < 8 or len(_unb64(parts[5])) != 32:
        raise ValueError("a credential hash needs a salt and a 32-byte hash")


def verify_password(password: str, encoded: str) -> bool:
    check_hash(encoded)
    _, n, r, p, salt, digest = encoded.split(":")
    ni, ri, pi = int(n), int(r), int(p)
    got = hashlib.scrypt(password.encode()[:MAX_PASSWORD], salt=_unb64(salt), n=ni, r=ri,
                         p=pi, dklen=32, maxmem=128 * ri * (ni + pi + 2))
    return hmac.compare_digest(got, _unb64(digest))


def parse_credentials(raw: str) -> dict[str, str]:
    """`name=hash,name=hash` as {name: hash}; ValueError names the bad entry."""
    out: dict[str, str] = {}
    for entry in (e.strip() for e in raw.split(",")):
        if not entry:
            continue
        name, sep, encoded = entry.partition("=")
        if not sep or not _NAME.match(name):
            raise ValueError(f"a credential entry reads name=hash (name {name[:64]!r})")
        check_hash(encoded)
        if name in out:
            raise ValueError(f"credential name {name!r} is given twice")
        out[name] = encoded
    return out


class Credentials:
    """Names and password hashes of one role. An unknown name costs a check against a
    dummy hash, so the time taken does not tell which names exist."""

    def __init__(self, entries: dict[str, str]) -> None:
        self.entries = dict(entries)
        self._dummy = hash_password(secrets.token_hex(16))

    def verify(self, name: str, password: str) -> bool:
        encoded = self.entries.get(name)
        ok = verify_password(password, encoded or self._dummy)
        return ok and encoded is not None
