"""Topics, AsyncAPI, Kubernetes and compose are generated from one place and committed;
their structure is checked offline (no cluster, no docker)."""

from __future__ import annotations

import typing
from pathlib import Path
from typing import Any

import yaml

from arbiter_core.commands import Command
from arbiter_core.decide import WORK_OWNERS
from arbiter_services import compose, k8s
from arbiter_services.asyncapi import asyncapi_yaml
from arbiter_services.launcher import PROCESSES
from arbiter_services.topics import COMMAND_CONSUMERS, SERVICES, TOPIC_BY_NAME, TOPICS, work_topic

ROOT = Path(__file__).resolve().parents[2]
DNS_1123 = "abcdefghijklmnopqrstuvwxyz0123456789-."


def command_kinds() -> set[str]:
    union = typing.get_args(Command)[0]
    return {typing.get_args(m.model_fields["type"].annotation)[0] for m in typing.get_args(union)}


def test_every_command_kind_has_one_consumer_and_every_work_kind_a_topic() -> None:
    assert command_kinds() - {"RunEngineWork"} == set(COMMAND_CONSUMERS)
    assert set(COMMAND_CONSUMERS.values()) <= set(SERVICES)
    for owner in set(WORK_OWNERS.values()):
        assert work_topic(owner) in TOPIC_BY_NAME
    for t in TOPICS:
        assert t.partitions >= 1 and t.key in ("game", "game:marker") and t.consumers
    assert TOPIC_BY_NAME[work_topic("stack-resolver")].key == "game:marker"
    assert TOPIC_BY_NAME["arbiter.events"].key == "game"


def test_asyncapi_is_generated_and_committed() -> None:
    text = asyncapi_yaml()
    assert (ROOT / "asyncapi.yaml").read_text() == text, "run `make asyncapi`"
    doc = yaml.safe_load(text)
    assert doc["asyncapi"].startswith("3.")
    addresses = {c["address"] for c in doc["channels"].values()}
    assert addresses == set(TOPIC_BY_NAME)
    assert "CommandEnvelope" in doc["components"]["schemas"]
    assert "WorkItem" in doc["components"]["schemas"]


def test_k8s_manifests_are_generated_and_valid() -> None:
    for name, text in k8s.manifests().items():
        assert (ROOT / "k8s" / name).read_text() == text, "regenerate k8s/"
    topics = list(yaml.safe_load_all((ROOT / "k8s" / "topics.yaml").read_text()))
    assert {t["spec"]["topicName"] for t in topics} == set(TOPIC_BY_NAME)
    for t in topics:
        assert (t["apiVersion"], t["kind"]) == ("kafka.strimzi.io/v1beta2", "KafkaTopic")
        assert set(t["metadata"]["name"]) <= set(DNS_1123)
        assert t["metadata"]["labels"]["strimzi.io/cluster"]
        assert set(t["spec"]) <= {"partitions", "replicas", "config", "topicName"}
        assert t["spec"]["partitions"] == TOPIC_BY_NAME[t["spec"]["topicName"]].partitions
        assert all(isinstance(v, str) for v in t["spec"]["config"].values())
    docs = list(yaml.safe_load_all((ROOT / "k8s" / "services.yaml").read_text()))
    deployments = {d["metadata"]["name"]: d for d in docs if d["kind"] == "Deployment"}
    assert set(deployments) == {f"arbiter-{p}" for p in PROCESSES}
    for d in deployments.values():
        spec = d["spec"]
        assert spec["selector"]["matchLabels"].items() <= \
            spec["template"]["metadata"]["labels"].items()
        (c,) = spec["template"]["spec"]["containers"]
        ports = {p["containerPort"] for p in c["ports"]}
        for probe, path in (("readinessProbe", "/health/ready"),
                            ("livenessProbe", "/health/live")):
            assert c[probe]["httpGet"]["path"] == path
            assert c[probe]["httpGet"]["port"] in ports
    assert deployments["arbiter-relay"]["spec"]["replicas"] == 1
    assert deployments["arbiter-relay"]["spec"]["strategy"]["type"] == "Recreate"
    (scaled,) = yaml.safe_load_all((ROOT / "k8s" / "keda.yaml").read_text())
    _check_scaled_object(scaled, deployments)


def _check_scaled_object(so: dict[str, Any], deployments: dict[str, Any]) -> None:
    assert (so["apiVersion"], so["kind"]) == ("keda.sh/v1alpha1", "ScaledObject")
    spec = so["spec"]
    assert {"scaleTargetRef", "triggers"} <= set(spec)
    assert set(spec) <= {"advanced", "cooldownPeriod", "fallback", "idleReplicaCount",
                         "initialCooldownPeriod", "maxReplicaCount", "minReplicaCount",
                         "pollingInterval", "scaleTargetRef", "triggers"}
    assert spec["scaleTargetRef"]["name"] == "arbiter-stack-resolver"
    assert spec["scaleTargetRef"]["name"] in deployments
    topic = TOPIC_BY_NAME[work_topic("stack-resolver")]
    assert spec["maxReplicaCount"] <= topic.partitions  # more would sit idle
    for trig in spec["triggers"]:
        assert {"type", "metadata"} <= set(trig)
        assert set(trig) <= {"authenticationRef", "metadata", "metricType", "name", "type",
                             "useCachedMetrics"}
        assert all(isinstance(v, str) for v in trig["metadata"].values())
        assert trig["metadata"]["topic"] == topic.name


def test_compose_describes_the_same_processes() -> None:
    text = compose.render()
    assert (ROOT / "docker-compose.yml").read_text() == text, "regenerate docker-compose.yml"
    doc = yaml.safe_load(text)
    services = doc["services"]
    assert set(PROCESSES) | {"tansu", "postgres", "topics"} == set(services)
    for name in PROCESSES:
        s = services[name]
        assert s["command"][:3] == ["python", "-m", "arbiter_services"]
        assert "healthcheck" in s and s["depends_on"]["topics"]["condition"]
        assert s["environment"]["ARBITER_BROKER"].startswith("tansu:")
    assert (ROOT / services["relay"]["build"]["dockerfile"]).exists()
