"""Where a service process spends its time: stage timers and an optional cProfile.

- `Stages`: cumulative seconds and counts per stage (load, decide, append, ...), cheap
  enough to stay on; each process logs them every `ARBITER_STAGE_LOG_S` seconds
  (default 30; 0 turns the log off) and serves nothing else.
- `ARBITER_PROFILE=DIR`: cProfile the process, written on exit to
  `DIR/<instance>.main.prof` (the event loop thread: Kafka, faststream, pydantic) and
  `DIR/<instance>.worker.prof` (the handlers run in worker threads: load, decide,
  append). Read them with `python -m pstats`.
"""

from __future__ import annotations

import cProfile
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
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


class Profiler:
    """cProfile of the main thread and of the (serialised) handler calls."""

    def __init__(self, out_dir: str | None, instance: str) -> None:
        self.out = Path(out_dir) if out_dir else None
        self.instance = instance
        self.main: cProfile.Profile | None = None
        self.worker: cProfile.Profile | None = None
        self._lock = threading.Lock()
        if self.out is not None:
            self.out.mkdir(parents=True, exist_ok=True)
            self.main = cProfile.Profile()
            self.worker = cProfile.Profile()

    @classmethod
    def from_env(cls, instance: str) -> Profiler:
        return cls(os.environ.get("ARBITER_PROFILE") or None, instance)

    def start(self) -> None:
        if self.main is not None:
            self.main.enable()

    def call(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Run `fn` (in a worker thread) under the worker profile, if on."""
        if self.worker is None:
            return fn(*args, **kwargs)
        with self._lock:
            self.worker.enable()
            try:
                return fn(*args, **kwargs)
            finally:
                self.worker.disable()

    def dump(self) -> None:
        if self.out is None or self.main is None or self.worker is None:
            return
        self.main.disable()
        self.main.dump_stats(str(self.out / f"{self.instance}.main.prof"))
        with self._lock:
            self.worker.dump_stats(str(self.out / f"{self.instance}.worker.prof"))


PROFILER = Profiler(None, "")
STAGES = Stages()


def install(instance: str) -> Profiler:
    """The process-wide profiler (from ARBITER_PROFILE), started."""
    global PROFILER
    PROFILER = Profiler.from_env(instance)
    PROFILER.start()
    return PROFILER
