"""Logs, traces and metrics for every process.

- structlog JSON lines on stderr, every library's lines too (`logs.py`); handlers bind
  game id, command id, correlation and causation ids. A processor drops any key that
  looks like a secret (tokens never reach a log line).
- OpenTelemetry: one TracerProvider per process; the OTLP/HTTP exporter is on when
  OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set. faststream's
  KafkaTelemetryMiddleware carries the context in Kafka headers; stored events keep
  the `traceparent` in metadata, so work the relay dispatches joins the same trace.
- Prometheus: one registry per process, served on /metrics.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import structlog
from opentelemetry import context as otel_context
from opentelemetry import propagate, trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter
from opentelemetry.sdk.trace.sampling import ALWAYS_OFF, ALWAYS_ON, ParentBased
from prometheus_client import CollectorRegistry, Counter, Histogram

from arbiter_services.logs import drop_secrets, setup_logging

__all__ = ["drop_secrets", "log", "setup_logging"]

def log() -> Any:
    return structlog.get_logger()


def setup_tracing(service: str, exporter: SpanExporter | None = None) -> TracerProvider:
    """A TracerProvider for this process. `exporter` (tests) or OTLP from the env. With
    neither, spans are not recorded (sampler off: trace ids still travel in headers and
    metadata, for log correlation), since recording them for nobody cost the relay
    about a third of its time."""
    if exporter is None and (os.environ.get("OTEL_EXPORTER_OTLP_ENDPOINT")
                             or os.environ.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")):
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        exporter = OTLPSpanExporter()
    provider = TracerProvider(
        resource=Resource.create({"service.name": f"arbiter-{service}"}),
        sampler=ParentBased(ALWAYS_ON) if exporter is not None else ALWAYS_OFF)
    if exporter is not None:
        provider.add_span_processor(BatchSpanProcessor(exporter))
    return provider


def current_traceparent() -> dict[str, str]:
    """The current trace context as W3C headers (stored in event metadata)."""
    carrier: dict[str, str] = {}
    propagate.inject(carrier)
    return carrier


@contextmanager
def in_trace(carrier: dict[str, Any]) -> Iterator[None]:
    """Make the trace whose context is in `carrier` current, without a span of its own."""
    token = otel_context.attach(propagate.extract({k: str(v) for k, v in carrier.items()}))
    try:
        yield
    finally:
        otel_context.detach(token)


@contextmanager
def continued_span(provider: TracerProvider, name: str, carrier: dict[str, Any],
                   **attributes: str) -> Iterator[None]:
    """A span that continues the trace whose context is in `carrier` (event metadata);
    only the context when spans are not recorded (no exporter)."""
    ctx = propagate.extract({k: str(v) for k, v in carrier.items()})
    token = otel_context.attach(ctx)
    try:
        if not recording(provider):
            yield
        else:
            with _tracer(provider).start_as_current_span(name, attributes=attributes):
                yield
    finally:
        otel_context.detach(token)


def message_span(provider: TracerProvider, name: str, headers: dict[str, Any]) -> Any:
    """A started span continuing the trace of a consumed message's headers (the caller
    ends it): a batch handler's span per message (a non-recording one, carrying the
    context, when spans are not recorded)."""
    ctx = propagate.extract({k: str(v) for k, v in headers.items()})
    if not recording(provider):
        return trace.NonRecordingSpan(trace.get_current_span(ctx).get_span_context())
    return _tracer(provider).start_span(name, context=ctx, kind=trace.SpanKind.CONSUMER)


def recording(provider: TracerProvider) -> bool:
    """Whether this process records spans (`setup_tracing` turns them off without an
    exporter)."""
    return provider.sampler is not ALWAYS_OFF


_TRACERS: weakref.WeakKeyDictionary[TracerProvider, Any] = weakref.WeakKeyDictionary()


def _tracer(provider: TracerProvider) -> Any:
    """One tracer per provider (`get_tracer` builds a new one each call)."""
    t = _TRACERS.get(provider)
    if t is None:
        t = _TRACERS[provider] = provider.get_tracer("arbiter")
    return t


def traceparent_of(span: Any) -> dict[str, str]:
    """The W3C headers of `span` (stored in event metadata)."""
    carrier: dict[str, str] = {}
    propagate.inject(carrier, context=trace.set_span_in_context(span))
    return carrier


class Metrics:
    """Per-process Prometheus metrics (one registry, served on /metrics)."""

    def __init__(self, service: str) -> None:
        self.registry = CollectorRegistry()
        self.handled = Counter("arbiter_messages_handled", "commands and work handled",
                               ["service", "kind", "outcome"], registry=self.registry)
        self.conflicts = Counter("arbiter_version_conflicts", "appends that met a newer "
                                 "stream version", ["service"], registry=self.registry)
        self.retries = Counter("arbiter_work_retries", "engine work decided again at a "
                               "newer version after a conflict", ["service"],
                               registry=self.registry)
        self.latency = Histogram("arbiter_handle_seconds", "time to load, decide and append",
                                 ["service", "kind"], registry=self.registry,
                                 buckets=(.001, .0025, .005, .01, .025, .05, .1, .25, 1, 5))
        self.lag = Histogram("arbiter_consume_lag_seconds", "from a message's produce time "
                             "to its handler starting", ["service"], registry=self.registry,
                             buckets=(.001, .0025, .005, .01, .025, .05, .1, .25, 1, 5))
        self.published = Counter("arbiter_relay_published", "messages the relay published",
                                 ["topic"], registry=self.registry)
        self.service = service
