"""What :meth:`~arbiter_store.model.EventStore.verify` reports (re-exported by
:mod:`arbiter_store.model`)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ChainBreak", "VerifyReport"]


@dataclass(frozen=True, slots=True)
class ChainBreak:
    """One problem found by :meth:`EventStore.verify`.

    ``stream_id`` is ``None`` for store-wide problems (a gap in global positions);
    ``version`` / ``position`` locate the link where the problem was seen, when known.
    """

    stream_id: str | None
    version: int | None
    position: int | None
    reason: str

    def __str__(self) -> str:
        where = "store" if self.stream_id is None else f"stream {self.stream_id!r}"
        if self.version is not None:
            where += f" version {self.version}"
        if self.position is not None:
            where += f" (position {self.position})"
        return f"{where}: {self.reason}"


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """Result of :meth:`EventStore.verify`: ``problems`` holds the first broken link of
    each damaged stream (stream order), then problems of its anchors, snapshots and
    commands records, then store-wide problems.

    ``notes`` say what the verification could *not* cover (nothing is wrong with it,
    but tampering there would go unnoticed): a stream without an anchor, events after
    the last anchor, snapshots or anchors from before store schema 3, commands
    records whose events name no command id.  ``strict_ok`` also needs no notes and
    the signatures checked (``verify --strict``)."""

    streams: int
    events: int
    anchors: int
    signatures_checked: bool
    problems: tuple[ChainBreak, ...]
    snapshots: int = 0
    commands: int = 0
    notes: tuple[ChainBreak, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def strict_ok(self) -> bool:
        return self.ok and self.signatures_checked and not self.notes

    @property
    def first_problem(self) -> ChainBreak | None:
        return self.problems[0] if self.problems else None

    def __bool__(self) -> bool:
        return self.ok
