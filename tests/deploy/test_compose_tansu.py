"""The development broker in compose: `docker compose -f docker-compose.yml -f
infra/compose.tansu.yml up` runs Tansu instead of Kafka and nothing waits for Kafka. Read
from the project Compose itself makes of the two files (`docker compose config`), so
Compose's own merge rules (and its `!override`) are what is checked."""

from __future__ import annotations

from typing import Any

from arbiter_ops.compose import TANSU_BROKER
from arbiter_ops.deployment import TANSU_IMAGE
from arbiter_ops.launcher import PROCESSES

from .harness import compose_doc, compose_project

ONE_SHOT = "service_completed_successfully"


def _depends(svc: dict[str, Any]) -> dict[str, str]:
    return {k: v["condition"] for k, v in svc.get("depends_on", {}).items()}


def test_docker_compose_yml_alone_is_the_kafka_stack_without_profiles() -> None:
    project = compose_project()["services"]
    assert "tansu" not in project and "kafka" in project
    # no profile: `docker compose up` starts everything, and no profile suggests another
    # broker that the services would not use
    assert [n for n, s in compose_doc()["services"].items() if "profiles" in s] == []
    for name in PROCESSES:
        assert _depends(project[name])["kafka"] == "service_healthy"
        assert project[name]["environment"]["ARBITER_BROKER"] == "kafka:9092"


def test_the_tansu_file_replaces_kafka() -> None:
    base = compose_project()["services"]
    project = compose_project(tansu=True)["services"]
    # kafka is only in a profile nobody starts: not part of `up`
    assert "kafka" not in project
    assert set(project) == set(base) - {"kafka"} | {"tansu"}
    assert project["tansu"]["image"] == TANSU_IMAGE
    assert [n for n, s in project.items() if "kafka" in _depends(s)] == []
    for name in [*PROCESSES, "topics"]:
        assert project[name]["environment"]["ARBITER_BROKER"] == TANSU_BROKER, name
        assert _depends(project[name])["tansu"] == "service_started", name
    for name in PROCESSES:
        deps = _depends(project[name])
        # everything else they waited for, they still wait for
        assert deps == {**{k: v for k, v in _depends(base[name]).items() if k != "kafka"},
                        "tansu": "service_started"}
        assert deps["migrate"] == deps["topics"] == ONE_SHOT
        # Tansu keeps topics in memory: each process re-creates them after a restart
        assert project[name]["environment"]["ARBITER_TOPICS"] == "keeper"
        # the rest of the environment is docker-compose.yml's
        env = dict(project[name]["environment"])
        assert set(env) == set(base[name]["environment"])
        assert {k: v for k, v in env.items() if k not in ("ARBITER_BROKER", "ARBITER_TOPICS")} \
            == {k: v for k, v in base[name]["environment"].items()
                if k not in ("ARBITER_BROKER", "ARBITER_TOPICS")}
        assert project[name]["command"] == base[name]["command"]
