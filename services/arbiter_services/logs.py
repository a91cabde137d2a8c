"""Every log line of a process as one JSON object on stderr.

structlog renders Arbiter's own lines; the standard library's loggers (uvicorn,
faststream, aiokafka, asyncio, warnings) go through the same structlog processors
(`ProcessorFormatter`) on the one stderr handler, so a log shipper reads one format.
faststream otherwise installs its own handlers with ANSI colour codes on stdout and
stderr: they are removed, its loggers propagate to the root, and the brokers and apps
get a plain logger (`faststream_logger`). JSON has no colour codes, on a terminal or not.
A processor drops any key that looks like a secret (tokens never reach a log line), and
an uncaught exception is logged as JSON too.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import MutableMapping
from types import TracebackType
from typing import Any

import structlog

SECRET_KEYS = frozenset({"token", "authorization", "secret", "password", "judge_token",
                         "seat_token", "key"})
#: The loggers whose own handlers are replaced by the root's JSON handler.
FOREIGN = ("uvicorn", "uvicorn.error", "uvicorn.access", "faststream", "aiokafka",
           "asyncio", "py.warnings", "httpx")

_SERVICE: list[str] = ["arbiter"]


def drop_secrets(_: Any, __: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    for k in list(event):
        if k.lower() in SECRET_KEYS:
            event[k] = "[redacted]"
    return event


def _add_service(_: Any, __: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    event.setdefault("service", _SERVICE[0])
    event.pop("color_message", None)  # uvicorn's copy of the message with ANSI codes
    return event


def _shared() -> list[Any]:
    return [structlog.contextvars.merge_contextvars, _add_service,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True), drop_secrets]


def json_formatter() -> logging.Formatter:
    """The formatter of the stderr handler: a standard library record (and its `extra`
    fields, such as faststream's topic and group) as a JSON line."""
    return structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=[structlog.stdlib.add_logger_name,
                           structlog.stdlib.ExtraAdder(), *_shared()],
        processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                    structlog.processors.dict_tracebacks,
                    structlog.processors.JSONRenderer(sort_keys=True)])


def setup_logging(service: str, level: str = "INFO") -> None:
    _SERVICE[0] = service
    numeric = logging.getLevelName(level.upper())
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(json_formatter())
    root = logging.getLogger()
    for h in list(root.handlers):
        root.removeHandler(h)
    root.addHandler(handler)
    root.setLevel(numeric)
    for name in [*FOREIGN, *(n for n in logging.root.manager.loggerDict
                            if n.startswith("faststream"))]:
        lg = logging.getLogger(name)
        for h in list(lg.handlers):
            lg.removeHandler(h)
        lg.propagate = True
    logging.getLogger("aiokafka").setLevel(max(numeric, logging.INFO))
    logging.captureWarnings(True)
    structlog.configure(
        processors=[*_shared(), structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        wrapper_class=structlog.make_filtering_bound_logger(numeric),
        logger_factory=structlog.stdlib.LoggerFactory(),
        cache_logger_on_first_use=False,
    )
    structlog.contextvars.bind_contextvars(service=service)
    sys.excepthook = _log_uncaught


def faststream_logger(name: str) -> logging.Logger:
    """A plain logger for a faststream broker or app (`logger=`): without one, faststream
    makes its own with a colouring handler."""
    lg = logging.getLogger(f"faststream.arbiter.{name}")
    lg.propagate = True
    return lg


def _log_uncaught(et: type[BaseException], e: BaseException,
                  tb: TracebackType | None) -> None:
    structlog.get_logger().critical("uncaught exception", exc_info=(et, e, tb))
