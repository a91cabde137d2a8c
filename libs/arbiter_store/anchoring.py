"""Signatures under the anchor key: anchors of stream heads and seals of snapshots.

The key (``ARBITER_ANCHOR_KEY`` for the CLI and the services) is a secret the
database's writers do not have; everything signed with it is HMAC-SHA256 over framed
fields (:func:`~arbiter_store.integrity.frame`) after a domain tag, so no two kinds
of record or field layouts share an input.

* An *anchor* (:class:`~arbiter_store.model.Anchor`) signs ``(stream, version,
  head_hash, created, prev_version, final)``: the hash of event ``version``, the
  version of the stream's previous anchor (0 for none: a deleted anchor that a later
  one names is noticed) and whether it closes the stream (a finished game: events
  after it are a forgery).  Anchors of store schema 2 (``prev_version`` None) were
  signed over the first four fields only (domain ``arbiter-anchor-v1``) and still
  verify.
* A *snapshot seal* signs ``(stream, version, head_hash, state_hash, sha256(state))``:
  a snapshot is bound to the chain it was taken of (``head_hash``, the hash of event
  ``version``) and to its exact bytes, so an edited state, or a state hash recomputed
  for it, is refused by a loader that has the key.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from datetime import UTC, datetime
from typing import Final

from .errors import StoreError
from .integrity import frame
from .model import Anchor, Snapshot

__all__ = [
    "ANCHOR_EVERY",
    "ANCHOR_KEY_ENV",
    "anchor_key_from_env",
    "anchor_signature",
    "key_bytes",
    "make_anchor",
    "seal_matches",
    "seal_snapshot",
    "sign_anchor",
    "snapshot_sealed",
]

ANCHOR_KEY_ENV: Final = "ARBITER_ANCHOR_KEY"
#: A store with a key anchors each stream every this many events (its append that
#: crosses a multiple does), as well as wherever a caller anchors (the end of a game).
ANCHOR_EVERY: Final = 500

_ANCHOR_V1: Final = b"arbiter-anchor-v1\x00"
_ANCHOR_V2: Final = b"arbiter-anchor-v2\x00"
_SNAPSHOT_V1: Final = b"arbiter-snapshot-v1\x00"


def key_bytes(key: bytes | str) -> bytes:
    data = key.encode() if isinstance(key, str) else key
    if not isinstance(data, bytes) or not data:
        raise ValueError("the anchor key must be non-empty bytes or str")
    return data


def _mac(key: bytes | str, message: bytes) -> str:
    return hmac.new(key_bytes(key), message, hashlib.sha256).hexdigest()


def _text(value: str) -> bytes:
    return frame(b"s", value.encode())


def _int(value: int) -> bytes:
    return frame(b"i", str(value).encode())


def sign_anchor(key: bytes | str, stream_id: str, version: int, head_hash: str,
                created: str) -> str:
    """The signature of a schema-2 anchor (no previous version, no end mark)."""
    return _mac(key, b"".join((_ANCHOR_V1, _text(stream_id), _int(version),
                               _text(head_hash), _text(created))))


def anchor_signature(key: bytes | str, anchor: Anchor) -> str:
    """The signature ``anchor`` must carry under ``key`` (either layout)."""
    if anchor.prev_version is None:
        return sign_anchor(key, anchor.stream_id, anchor.version, anchor.head_hash,
                           anchor.created)
    return _mac(key, b"".join((
        _ANCHOR_V2, _text(anchor.stream_id), _int(anchor.version), _text(anchor.head_hash),
        _text(anchor.created), _int(anchor.prev_version), _int(int(anchor.final)))))


def make_anchor(key: bytes | str, stream_id: str, version: int, head_hash: str,
                prev_version: int = 0, final: bool = False) -> Anchor:
    created = datetime.now(UTC).isoformat(timespec="microseconds")
    unsigned = Anchor(stream_id, version, head_hash, "", created, prev_version, final)
    return Anchor(stream_id, version, head_hash, anchor_signature(key, unsigned), created,
                  prev_version, final)


def _snapshot_message(stream_id: str, version: int, head_hash: str, state_hash: str,
                      state_digest: str) -> bytes:
    return b"".join((_SNAPSHOT_V1, _text(stream_id), _int(version), _text(head_hash),
                     _text(state_hash), _text(state_digest)))


def _sealed_message(snapshot: Snapshot, head_hash: str) -> bytes:
    return _snapshot_message(snapshot.stream_id, snapshot.version, head_hash,
                             snapshot.state_hash, hashlib.sha256(snapshot.state).hexdigest())


def seal_snapshot(key: bytes | None, snapshot: Snapshot, head_hash: str) -> Snapshot:
    """``snapshot`` bound to ``head_hash`` (the chain hash of its version) and, with a
    key, signed."""
    signature = None if key is None else _mac(key, _sealed_message(snapshot, head_hash))
    return Snapshot(snapshot.stream_id, snapshot.version, snapshot.state,
                    snapshot.state_hash, snapshot.created, head_hash, signature)


def snapshot_sealed(key: bytes | str, snapshot: Snapshot) -> bool:
    """Whether ``snapshot`` carries a genuine seal under ``key``."""
    if snapshot.head_hash is None or snapshot.signature is None:
        return False
    return hmac.compare_digest(snapshot.signature,
                               _mac(key, _sealed_message(snapshot, snapshot.head_hash)))


def seal_matches(key: bytes | str, stream_id: str, version: int, head_hash: str,
                 state_hash: str, state_digest: str, signature: str | None) -> bool:
    """:func:`snapshot_sealed` for a snapshot known by the digest of its state."""
    if signature is None:
        return False
    return hmac.compare_digest(signature, _mac(key, _snapshot_message(
        stream_id, version, head_hash, state_hash, state_digest)))


def anchor_key_from_env(environ: dict[str, str] | None = None) -> bytes:
    """The anchor key from ``ARBITER_ANCHOR_KEY`` (what the CLI uses)."""
    value = optional_key_from_env(environ)
    if value is None:
        raise StoreError(f"set {ANCHOR_KEY_ENV} to the secret key used to sign anchors")
    return value


def optional_key_from_env(environ: dict[str, str] | None = None) -> bytes | None:
    """The anchor key from ``ARBITER_ANCHOR_KEY``, or None when it is unset or empty."""
    value = (os.environ if environ is None else environ).get(ANCHOR_KEY_ENV, "")
    return value.encode() if value else None
