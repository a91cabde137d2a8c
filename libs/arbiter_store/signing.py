"""What a store signs and checks (the half of :class:`~arbiter_store.base.StoreBase`
about anchors, snapshots and verification): anchors every ``anchor_every`` events on a
signing store, snapshots sealed at save and trusted at load, ``verify``.  The rules are
in :mod:`arbiter_store.anchoring` and :mod:`arbiter_store.verification`; docs/security.md
says what they guarantee."""

from __future__ import annotations

import logging
from abc import abstractmethod
from datetime import UTC, datetime

from .anchoring import key_bytes, make_anchor, seal_snapshot, snapshot_sealed
from .errors import StreamNotFound
from .model import Anchor, EventStore, Snapshot, VerifyReport, _is_int, check_stream_id, check_text
from .verification import VerifyInput, verify_chains

__all__ = ["SNAPSHOT_CANDIDATES", "SignedRecords"]

_log = logging.getLogger("arbiter_store")
#: Snapshots :meth:`SignedRecords.load_snapshot` considers, newest first, for a trusted one.
SNAPSHOT_CANDIDATES = 4


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


class SignedRecords(EventStore):
    """Anchors, snapshots and verification over a backend's storage primitives."""

    #: Signs anchors made every ``anchor_every`` events and snapshots (None: none).
    _anchor_key: bytes | None
    _anchor_every: int

    @property
    def signs(self) -> bool:
        return self._anchor_key is not None

    @abstractmethod
    def _save_snapshot_raw(self, snapshot: Snapshot, keep: int | None) -> Snapshot:
        """In one transaction: raise InvalidSnapshot if the stream has not reached the
        version; seal the snapshot with the hash of event ``version``
        (:meth:`_seal`); upsert it; delete all but the stream's ``keep`` newest (None:
        keep all).  Returns the sealed snapshot."""

    @abstractmethod
    def _snapshot_candidates(self, stream_id: str, max_version: int | None, limit: int
                             ) -> list[tuple[Snapshot, str | None]]:
        """The newest ``limit`` snapshots at or below ``max_version``, newest first, each
        with the chain hash of its version (None if the stream has no such event)."""

    @abstractmethod
    def _snapshots_raw(self, stream_id: str) -> list[Snapshot]: ...

    @abstractmethod
    def _stream_head(self, stream_id: str) -> tuple[int, str]:
        """(version, hash) of the stream's last event row; (0, "") if none."""

    @abstractmethod
    def _event_hash_at(self, stream_id: str, version: int) -> str | None: ...

    @abstractmethod
    def _insert_anchor(self, anchor: Anchor) -> Anchor:
        """Insert unless the stream has an anchor of that version; return the stored one."""

    @abstractmethod
    def _anchors_raw(self, stream_id: str | None) -> list[Anchor]: ...

    @abstractmethod
    def _verify_input(self, stream_id: str | None) -> VerifyInput: ...

    def _anchor_crossed(self, stream_id: str, before: int, count: int) -> None:
        """Anchor each multiple of ``anchor_every`` that this append's events reached.

        After the append's commit (so a failure here never undoes or repeats an append):
        an anchor that could not be made is logged, and ``verify`` then reports the
        events after the last anchor as not covered, not as broken."""
        every = self._anchor_every
        for version in range((before // every + 1) * every, before + count + 1, every):
            try:
                self._anchor_version(stream_id, version, final=False)
            except Exception:  # the append is stored: report, never undo it
                _log.warning("could not anchor %r at version %d", stream_id, version,
                             exc_info=True)

    def save_snapshot(
        self, stream_id: str, version: int, state: bytes, state_hash: str,
        keep: int | None = None,
    ) -> Snapshot:
        check_stream_id(stream_id)
        if keep is not None and (not _is_int(keep) or keep < 1):
            raise ValueError(f"keep must be an int >= 1 or None, got {keep!r}")
        if not _is_int(version) or version < 1:
            raise ValueError(f"snapshot version must be an int >= 1, got {version!r}")
        if not isinstance(state, bytes | bytearray | memoryview):
            raise TypeError(f"snapshot state must be bytes, got {type(state).__name__}")
        if not isinstance(state_hash, str) or not state_hash:
            raise ValueError(f"state_hash must be a non-empty string, got {state_hash!r}")
        check_text(state_hash, "state_hash")
        snapshot = Snapshot(stream_id, version, bytes(state), state_hash, utc_now())
        return self._save_snapshot_raw(snapshot, keep)

    def _seal(self, snapshot: Snapshot, head_hash: str) -> Snapshot:
        """The snapshot bound to the chain hash of its version, signed with the key."""
        return seal_snapshot(self._anchor_key, snapshot, head_hash)

    def load_snapshot(self, stream_id: str, max_version: int | None = None) -> Snapshot | None:
        check_stream_id(stream_id)
        if max_version is not None and (not _is_int(max_version) or max_version < 0):
            raise ValueError(f"max_version must be an int >= 0 or None, got {max_version!r}")
        for snapshot, chain_hash in self._snapshot_candidates(stream_id, max_version,
                                                              SNAPSHOT_CANDIDATES):
            if self._trusted(snapshot, chain_hash):
                return snapshot
            _log.warning("snapshot of %r at version %d is not trusted (not bound to the "
                         "chain, or not sealed with the key): ignored", stream_id,
                         snapshot.version)
        return None

    def _trusted(self, snapshot: Snapshot, chain_hash: str | None) -> bool:
        """Bound to the chain as it is now; with a key, sealed with it. Without a key a
        snapshot from before store schema 3 (unbound) is trusted as it used to be."""
        if self._anchor_key is not None:
            return snapshot.head_hash == chain_hash and snapshot_sealed(self._anchor_key,
                                                                        snapshot)
        return snapshot.head_hash is None or snapshot.head_hash == chain_hash

    def snapshots(self, stream_id: str) -> list[Snapshot]:
        check_stream_id(stream_id)
        return self._snapshots_raw(stream_id)

    def anchor(self, stream_id: str, key: bytes | str | None = None, *,
               final: bool = False) -> Anchor:
        check_stream_id(stream_id)
        if key is not None:
            key = key_bytes(key)
        version, _ = self._stream_head(stream_id)
        if version == 0:
            raise StreamNotFound(stream_id, "anchor")
        return self._anchor_version(stream_id, version, final=final, key=key)

    def _anchor_version(self, stream_id: str, version: int, *, final: bool,
                        key: bytes | None = None) -> Anchor:
        key = self._anchor_key if key is None else key
        if key is None:
            raise ValueError("anchoring needs a key: pass one, or open the store with "
                             "anchor_key")
        head_hash = self._event_hash_at(stream_id, version)
        if head_hash is None:
            raise StreamNotFound(stream_id, f"anchor version {version}")
        before = [a.version for a in self._anchors_raw(stream_id) if a.version < version]
        anchor = make_anchor(key, stream_id, version, head_hash,
                             prev_version=max(before, default=0), final=final)
        return self._insert_anchor(anchor)

    def event_hash(self, stream_id: str, version: int) -> str | None:
        check_stream_id(stream_id)
        return self._event_hash_at(stream_id, version)

    def anchors(self, stream_id: str) -> list[Anchor]:
        check_stream_id(stream_id)
        return self._anchors_raw(stream_id)

    def verify(
        self, stream_id: str | None = None, *, anchor_key: bytes | str | None = None
    ) -> VerifyReport:
        if stream_id is not None:
            check_stream_id(stream_id)
        return verify_chains(self._verify_input(stream_id), anchor_key)
