"""One OpenTelemetry trace follows a command through every service it reaches: the
context travels in Kafka headers, and through the store (event metadata) to the work
the relay dispatches."""

from __future__ import annotations

import asyncio
from collections import defaultdict

import httpx
import pytest
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from arbiter_ops.launcher import Cluster
from arbiter_store import open_store

from .harness import memory_system
from .helpers import auth, new_game, settle
from .otlp import Collector


def test_one_trace_per_command_across_services() -> None:
    exporter = InMemorySpanExporter()

    async def go() -> None:
        with open_store(":memory:") as store:
            async with memory_system(store, exporter=exporter) as system:
                async with httpx.AsyncClient(base_url=system.base_url, timeout=30) as http:
                    judge, seats = await new_game(http, "traced")
                    view = await settle(http, "traced", judge)
                    holder = view["markers"][0]["pending"]["player"]
                    other = next(s for s in seats if s != holder)
                    for seat in (holder, other):  # both pass: the step ends
                        r = await http.post("/games/traced/commands?wait=10",
                                            headers=auth(seats[seat]),
                                            json={"command": {"type": "PassPriority",
                                                              "player": seat},
                                                  "command_id": f"traced-pass-{seat}"})
                        assert r.json()["status"] == "applied"
                    await settle(http, "traced", judge)
                system.extra["runtime"].tracer.force_flush()
                metas = {e.metadata.get("command_id"): e.metadata.get("trace")
                         for e in store.read_stream("traced")}
                assert metas["traced-pass-" + other]
    asyncio.run(go())
    names: dict[int, set[str]] = defaultdict(set)
    for span in exporter.get_finished_spans():
        assert span.context is not None
        names[span.context.trace_id].add(span.name)
    # the second pass ends the step: the turn orchestrator advances, the SBA checker
    # checks before priority, the relay publishes: all in the command's trace
    full = [n for n in names.values()
            if "arbiter.commands.turn-orchestrator process" in n
            and "arbiter.work.turn-orchestrator process" in n
            and "arbiter.work.sba-checker process" in n
            and "relay publish" in n and "relay dispatch" in n]
    assert full, sorted(map(sorted, names.values()))
    start = [n for n in names.values() if "arbiter.commands.variants process" in n]
    assert start and "arbiter.work.turn-orchestrator process" in start[0]


@pytest.mark.integration
def test_one_trace_across_processes(tansu_cluster: Cluster, otlp_collector: Collector) -> None:
    """Through the real broker, each service a process exporting OTLP: one command's
    trace has spans from the gateway, the turn orchestrator, the relay and the SBA
    checker."""
    gid = "traced-cluster"

    async def go() -> None:
        async with httpx.AsyncClient(base_url=tansu_cluster.gateway_url, timeout=30) as http:
            judge, seats = await new_game(http, gid, logins=tansu_cluster.logins)
            view = await settle(http, gid, judge)
            for _ in range(2):
                holder = view["markers"][0]["pending"]["player"]
                r = await http.post(f"/games/{gid}/commands?wait=10",
                                    headers=auth(seats[holder]),
                                    json={"command": {"type": "PassPriority", "player": holder}})
                assert r.json()["status"] == "applied"
                view = await settle(http, gid, judge)
        want = {"arbiter-gateway", "arbiter-turn-orchestrator", "arbiter-relay",
                "arbiter-sba-checker"}
        for _ in range(100):  # bounded: exporters flush every 200 ms
            by_trace: dict[str, set[str]] = defaultdict(set)
            for service, _, trace_id in list(otlp_collector.spans):
                by_trace[trace_id].add(service)
            if any(want <= services for services in by_trace.values()):
                return
            await asyncio.sleep(0.1)
        raise AssertionError(f"no trace spans all of {want}: {dict(by_trace)}")
    asyncio.run(go())
