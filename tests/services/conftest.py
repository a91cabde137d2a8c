"""Fixtures: the same scenarios run in memory (TestKafkaBroker) and, marked
`integration`, against a real Tansu broker with every service as its own process."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from arbiter_ops.launcher import Cluster
from arbiter_store import open_store

from .harness import Scenario, System, memory_system
from .otlp import Collector

Runner = Callable[[Scenario], None]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "integration: real Tansu broker and service processes (slow, ~minutes)")
    config.addinivalue_line(
        "markers", "browser: the judge console in headless Chromium (Selenium; .ci/run "
                   "installs Debian's chromium and chromium-driver)")


@pytest.fixture(scope="session")
def otlp_collector() -> Iterator[Collector]:
    collector = Collector().start()
    yield collector
    collector.stop()


@pytest.fixture(scope="session")
def tansu_cluster(tmp_path_factory: pytest.TempPathFactory,
                  otlp_collector: Collector) -> Iterator[Cluster]:
    """Tansu + every process, exporting traces to a local OTLP collector."""
    run_dir: Path = tmp_path_factory.mktemp("cluster")
    cluster = Cluster(str(run_dir / "store.sqlite"), run_dir,
                      extra_env={"ARBITER_SWEEP_S": "2",
                                 # every test logs in from 127.0.0.1: the production
                                 # default (10 a minute per address) is for clients
                                 "ARBITER_LOGINS_PER_MINUTE": "10000",
                                 # and one organiser creates every test's game (the
                                 # production default, 30 a minute, is for an event)
                                 "ARBITER_CREATE_PER_MINUTE": "10000",
                                 "OTEL_EXPORTER_OTLP_ENDPOINT": otlp_collector.endpoint,
                                 "OTEL_BSP_SCHEDULE_DELAY": "200"})
    try:
        cluster.start(timeout=90)
        yield cluster
    finally:
        codes = cluster.stop(timeout=30)
        assert all(c == 0 for c in codes.values()), f"unclean exits on SIGTERM: {codes}"


def run_memory(scenario: Scenario) -> None:
    async def go() -> None:
        with open_store(":memory:") as store:
            async with memory_system(store) as system:
                await asyncio.wait_for(scenario(system), 300)
    asyncio.run(go())


def run_cluster(cluster: Cluster, scenario: Scenario) -> None:
    async def go() -> None:
        with open_store(cluster.store) as store:
            system = System(cluster.gateway_url, store, "tansu", {"cluster": cluster},
                            cluster.logins)
            await asyncio.wait_for(scenario(system), 300)
    asyncio.run(go())


@pytest.fixture(params=["memory", pytest.param("tansu", marks=pytest.mark.integration)])
def run_on(request: pytest.FixtureRequest) -> Runner:
    """Run an async scenario against the in-memory system or the Tansu cluster."""
    if request.param == "memory":
        return run_memory
    cluster: Cluster = request.getfixturevalue("tansu_cluster")
    return lambda scenario: run_cluster(cluster, scenario)
