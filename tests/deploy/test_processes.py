"""A service process as an orchestrator sees it (issue 12), against a real Tansu broker
and a SQLite store: its stderr is JSON lines only; started before its broker, it serves
its health, then consumes a command once the broker is up; with no broker past its grace
period, /health/live fails; where the operator owns topics it creates none."""

from __future__ import annotations

import asyncio
import json
import secrets
from pathlib import Path

import pytest
from aiokafka import AIOKafkaProducer  # type: ignore[import-untyped]
from aiokafka.admin import AIOKafkaAdminClient  # type: ignore[import-untyped]

from arbiter_gateway.logins import StaffLogins
from arbiter_ops.launcher import PROCESSES
from arbiter_ops.tansu import TansuBroker, free_port
from arbiter_runtime.botgame import start_command
from arbiter_services.messages import CommandEnvelope
from arbiter_services.topic_admin import ensure_topics
from arbiter_services.topics import VARIANTS, command_key, command_topic
from arbiter_store import open_store

from .harness import (
    clean_environ,
    compose_project,
    get_status,
    json_problems,
    start_process,
    stop,
    wait_for,
)

pytestmark = pytest.mark.integration


def _store(tmp: Path) -> str:
    path = str(tmp / "store.sqlite")
    open_store(path, auto_migrate=True).close()
    return path


def _env(store: str, broker: str, port: int, **extra: str) -> dict[str, str]:
    return {"ARBITER_STORE": store, "ARBITER_BROKER": broker, "ARBITER_HTTP_PORT": str(port),
            "ARBITER_SESSION_TIMEOUT_MS": "2000", **extra}


def _send_start(bootstrap: str, game_id: str) -> None:
    start = start_command(game_id, 2, 1, deck_size=12)
    env = CommandEnvelope(game_id=game_id, command_id=f"{game_id}-start", actor="organizer",
                          command=start.model_dump(mode="json"))

    async def go() -> None:
        prod = AIOKafkaProducer(bootstrap_servers=bootstrap)
        await prod.start()
        try:
            await prod.send_and_wait(command_topic(VARIANTS), env.model_dump_json().encode(),
                                     key=command_key(game_id, VARIANTS, None))
        finally:
            await prod.stop()
    asyncio.run(go())


def _stored(store: str, game_id: str) -> int:
    with open_store(store) as s:
        return s.stream_version(game_id)


def test_json_check_sees_plain_and_coloured_lines() -> None:
    lines = ['{"event": "x"}', "Started server process", '{"event": "\x1b[32mINFO\x1b[0m"}',
             '{"color_message": "\\u001b[36m%d\\u001b[0m"}']
    assert json_problems("\n".join(lines)) == lines[1:]


def test_a_consumer_started_before_its_broker_consumes_once_it_is_up(tmp_path: Path) -> None:
    store, port, http = _store(tmp_path), free_port(), free_port()
    broker = TansuBroker(port)
    proc = start_process(["arbiter_services", "run", VARIANTS],
                         _env(store, broker.bootstrap, http, ARBITER_BROKER_GRACE_S="600"),
                         tmp_path / "variants.err")
    try:
        base = f"http://127.0.0.1:{http}"
        assert wait_for(lambda: get_status(f"{base}/health/live") == 204, 60)
        assert get_status(f"{base}/health/ready") == 503  # no broker yet
        broker.start()
        asyncio.run(ensure_topics(broker.bootstrap))  # the operator's part
        assert wait_for(lambda: get_status(f"{base}/health/ready") == 204, 120)
        _send_start(broker.bootstrap, "late-broker-1")
        assert wait_for(lambda: _stored(store, "late-broker-1") > 0, 120), \
            (tmp_path / "variants.err").read_text()[-3000:]
        assert get_status(f"{base}/health/live") == 204
    finally:
        code = stop(proc)
        broker.stop()
    err = (tmp_path / "variants.err").read_text()
    assert code == 0, err[-3000:]
    assert json_problems(err) == []
    events = [json.loads(line)["event"] for line in err.splitlines()]
    assert "broker unreachable: retrying" in events and "broker connected" in events


def test_with_no_broker_past_the_grace_period_the_process_is_not_live(tmp_path: Path) -> None:
    store, http = _store(tmp_path), free_port()
    proc = start_process(["arbiter_services", "run", "turn-orchestrator"],
                         _env(store, f"127.0.0.1:{free_port()}", http,
                              ARBITER_BROKER_GRACE_S="3"), tmp_path / "turn.err")
    try:
        base = f"http://127.0.0.1:{http}"
        assert wait_for(lambda: get_status(f"{base}/health/live") == 500, 90), \
            (tmp_path / "turn.err").read_text()[-3000:]
        assert get_status(f"{base}/health/ready") == 503
    finally:
        stop(proc)
    assert json_problems((tmp_path / "turn.err").read_text()) == []


def test_started_processes_write_only_json_and_create_no_topic(tmp_path: Path) -> None:
    """The relay, a service and the gateway against a broker with no topics, where the
    operator owns them: each gets ready, handles a game's start, stops, and every line it
    wrote to stderr is JSON; no topic appears on the broker until the test makes them."""
    store = _store(tmp_path)
    with TansuBroker() as broker:
        ports = {name: free_port() for name in ("relay", VARIANTS, "gateway")}
        procs = {name: start_process(
            ["arbiter_gateway"] if name == "gateway" else ["arbiter_services", "run", name],
            _env(store, broker.bootstrap, port, ARBITER_TOPICS="operator",
                 ARBITER_GATEWAY_SECRET="x" * 64), tmp_path / f"{name}.err")
            for name, port in ports.items()}
        try:
            # every consumer has subscribed to its (missing) topics: none was created
            for name in (VARIANTS, "gateway"):
                assert wait_for(lambda n=name: "Subscribed to topic" in (
                    tmp_path / f"{n}.err").read_text(), 120), name
            assert asyncio.run(_topics(broker.bootstrap)) == set()
            asyncio.run(ensure_topics(broker.bootstrap))  # the operator's part
            for name, port in ports.items():
                assert wait_for(lambda p=port: get_status(
                    f"http://127.0.0.1:{p}/health/ready") == 204, 120), name
            _send_start(broker.bootstrap, "json-logs-1")
            assert wait_for(lambda: _stored(store, "json-logs-1") > 0, 120)
        finally:
            codes = {name: stop(p) for name, p in procs.items()}
    for name in ports:
        err = (tmp_path / f"{name}.err").read_text()
        assert codes[name] == 0, err[-3000:]
        assert err.strip(), name
        assert json_problems(err) == [], name
    assert any("command applied" in line
               for line in (tmp_path / f"{VARIANTS}.err").read_text().splitlines())


async def _topics(bootstrap: str) -> set[str]:
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await admin.start()
    try:
        return {t for t in await admin.list_topics() if not t.startswith("__")}
    finally:
        await admin.close()


def _deployed_env(name: str, store: str, http: int) -> dict[str, str]:
    """Process `name`'s environment as Compose makes it of docker-compose.yml, every name
    kept: the addresses pointed at this machine (no broker there; no collector, so the
    OTLP endpoint is empty), the placeholders of `.env.example` replaced by usable
    secrets."""
    env = {k: str(v) for k, v in compose_project()["services"][name]["environment"].items()}
    local = {"ARBITER_STORE": store, "ARBITER_BROKER": f"127.0.0.1:{free_port()}",
             "ARBITER_HTTP_HOST": "127.0.0.1", "ARBITER_HTTP_PORT": str(http),
             "OTEL_EXPORTER_OTLP_ENDPOINT": "", **StaffLogins.generate().environment()}
    for k, v in env.items():
        env[k] = local[k] if k in local else secrets.token_hex(32) if "CHANGE-ME" in v else v
    return env


def _args(name: str) -> list[str]:
    command = compose_project()["services"][name]["command"]
    assert command[:2] == ["python", "-m"]
    return list(command[2:])


def test_each_process_starts_with_nothing_but_its_deployed_environment(tmp_path: Path) -> None:
    """What the code needs to start is in the deployment: each process, given exactly
    compose's variable names (none of this machine's Arbiter or OpenTelemetry settings;
    compose's names are both overlays', test_overlays), comes up and serves
    /health/live while it waits for its broker. Without ARBITER_STORE it refuses to
    start, so a missing variable the code needs would show here."""
    store = _store(tmp_path)
    ports = {name: free_port() for name in PROCESSES}
    procs = {name: start_process(_args(name), _deployed_env(name, store, port),
                                 tmp_path / f"{name}.err", base=clean_environ())
             for name, port in ports.items()}
    try:
        for name, port in ports.items():
            assert wait_for(lambda p=port: get_status(
                f"http://127.0.0.1:{p}/health/live") == 204, 180), \
                (name, (tmp_path / f"{name}.err").read_text()[-3000:])
    finally:
        codes = {name: stop(p) for name, p in procs.items()}
    for name in PROCESSES:
        err = (tmp_path / f"{name}.err").read_text()
        assert codes[name] == 0 and json_problems(err) == [], (name, err[-3000:])
    for name in ("relay", "gateway"):
        env = _deployed_env(name, store, free_port())
        del env["ARBITER_STORE"]
        proc = start_process(_args(name), env, tmp_path / f"{name}-nostore.err",
                             base=clean_environ())
        try:
            code = proc.wait(180)
        finally:
            stop(proc)
        assert code == 2 and "ARBITER_STORE" in (tmp_path / f"{name}-nostore.err").read_text()
