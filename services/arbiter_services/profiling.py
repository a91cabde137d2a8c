"""Where a service process spends its time: stage timers and the handlers' call hook.

- `Stages`: cumulative seconds and counts per stage (load, decide, append, ...), cheap
  enough to stay on; each process logs them every `ARBITER_STAGE_LOG_S` seconds
  (default 30; 0 turns the log off) and serves nothing else.
- `PROFILER`: the handlers (load, decide, append) run through `PROFILER.call` in their
  worker threads. Here it only calls them; the operations package's cProfile
  (`python -m arbiter_ops profile ROLE`, `arbiter_ops/profiling.py`) replaces it.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


class Stages:
    """Seconds and counts per named stage, thread-safe enough for one writer."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.counts: dict[str, int] = {}
        self.started = time.monotonic()

    @contextmanager
    def timed(self, name: str) -> Iterator[None]:
        t = time.perf_counter()
        try:
            yield
        finally:
            self.add(name, time.perf_counter() - t)

    def add(self, name: str, seconds: float, n: int = 1) -> None:
        self.seconds[name] = self.seconds.get(name, 0.0) + seconds
        self.counts[name] = self.counts.get(name, 0) + n

    def summary(self) -> dict[str, str]:
        wall = max(1e-9, time.monotonic() - self.started)
        return {k: f"{v:.2f}s/{self.counts[k]} ({100 * v / wall:.0f}%)"
                for k, v in sorted(self.seconds.items(), key=lambda kv: -kv[1])}


class HandlerCalls:
    """How a process calls its handlers: directly (a profiler overrides `call`)."""

    def call(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        return fn(*args, **kwargs)

    def start(self) -> None:
        """Nothing to start without a profiler."""

    def dump(self) -> None:
        """Nothing to write without a profiler."""


PROFILER: HandlerCalls = HandlerCalls()
STAGES = Stages()
