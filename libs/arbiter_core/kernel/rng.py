"""Deterministic, counter-based randomness (no global random source).

Every draw hashes (game seed, state version, draw number), so the same state always makes
the same random outcome, and the outcome itself is recorded in the event that uses it
(a shuffle's order, a random discard's card), so replay never re-rolls.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class Rng:
    def __init__(self, seed: int, version: int) -> None:
        self._seed = seed
        self._version = version
        self._n = 0

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            self._n += 1
            key = f"{self._seed}:{self._version}:{self._n}".encode()
            value = int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big")
            if value < limit:
                return value % n

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A Fisher-Yates shuffle (CR 701.24a: a random order)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]
