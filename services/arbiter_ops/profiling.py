"""cProfile of a service process (`python -m arbiter_ops profile ROLE --out DIR`, or
`ARBITER_PROFILE=DIR` with `up`): written on exit to `DIR/<instance>.main.prof` (the
event loop thread: Kafka, faststream, pydantic) and `DIR/<instance>.worker.prof` (the
handlers run in worker threads: load, decide, append). Read them with `python -m pstats`.
The runtime only offers the hook (`arbiter_services.profiling.PROFILER`)."""

from __future__ import annotations

import cProfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import ParamSpec, TypeVar

from arbiter_services import profiling

P = ParamSpec("P")
R = TypeVar("R")


class Profiler(profiling.HandlerCalls):
    """cProfile of the main thread and of the (serialised) handler calls."""

    def __init__(self, out_dir: str, instance: str) -> None:
        self.out = Path(out_dir)
        self.instance = instance
        self.out.mkdir(parents=True, exist_ok=True)
        self.main = cProfile.Profile()
        self.worker = cProfile.Profile()
        self._lock = threading.Lock()

    def start(self) -> None:
        self.main.enable()

    def call(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Run `fn` (in a worker thread) under the worker profile."""
        with self._lock:
            self.worker.enable()
            try:
                return fn(*args, **kwargs)
            finally:
                self.worker.disable()

    def dump(self) -> None:
        self.main.disable()
        self.main.dump_stats(str(self.out / f"{self.instance}.main.prof"))
        with self._lock:
            self.worker.dump_stats(str(self.out / f"{self.instance}.worker.prof"))


def install(out_dir: str, instance: str) -> Profiler:
    """Make the process's handlers run under a started profiler."""
    profiler = Profiler(out_dir, instance)
    profiling.PROFILER = profiler
    profiler.start()
    return profiler
