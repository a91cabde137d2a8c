"""Canonical JSON encoding of event payloads and metadata.

Stored bytes must be stable, because a later hash chain will hash them.  msgspec
preserves dict insertion order by default, which would make two equal dicts encode
differently; this codec therefore encodes with ``order="sorted"``: object keys are
sorted (by code point), sets become sorted arrays, there is no whitespace, and
strings are emitted as UTF-8.  Equal payloads always produce identical bytes.

Round-trip caveats (what you read back is the decoded JSON, and the store returns
that decoded form even from ``append``):

* keys must be ``str`` (anything else raises ``TypeError`` at append time);
* tuples and sets come back as lists, ``bytes`` as base64 strings, ``datetime``,
  ``date``, ``UUID``, ``Decimal`` and enums as their JSON/string forms;
* non-finite floats (``nan``, ``inf``) are encoded as ``null`` - don't store them.

Integers of any size round-trip exactly.
"""

from __future__ import annotations

from typing import Any

import msgspec

from .errors import CorruptStore

__all__ = ["CODEC_NAME", "ENCODER", "decode_object", "encode_object"]

#: Identifies the encoding; recorded so a future migration can tell formats apart.
CODEC_NAME = "msgspec-json-sorted-v1"

_encoder = msgspec.json.Encoder(order="sorted")
_decoder = msgspec.json.Decoder(dict[str, Any])
#: The canonical encoder itself, for hot loops that report errors themselves.
ENCODER = _encoder


def encode_object(value: dict[str, Any], *, what: str = "value") -> bytes:
    """Encode a JSON object canonically.

    Raises ``TypeError`` if ``value`` (or something nested in it) cannot be encoded;
    ``what`` names the value in the message.
    """
    try:
        return _encoder.encode(value)
    except (TypeError, msgspec.EncodeError, OverflowError) as exc:
        raise TypeError(f"{what} is not JSON-encodable: {exc}") from exc


def decode_object(data: bytes | memoryview, *, what: str = "value") -> dict[str, Any]:
    """Decode bytes written by :func:`encode_object`.

    Raises :class:`~arbiter_store.errors.CorruptStore` if they are not a JSON object.
    """
    try:
        return _decoder.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise CorruptStore(f"cannot decode {what}: {exc}") from exc
