"""Both rendered overlays (`kubectl kustomize`), compose and the Prometheus targets,
against the process list of the launcher and the settings the code reads (issue 12)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from arbiter_ops import deployment
from arbiter_ops.launcher import PROCESSES, process_command
from arbiter_services.settings import Settings
from arbiter_services.topics import SERVICES, TOPIC_BY_NAME

from .harness import ROOT, compose_doc, config_value, effective_env, of_kind, rendered

OVERLAYS = ("dev", "large-event")
#: read by the OpenTelemetry SDK itself, not by Arbiter's code
SDK_ENV = {"OTEL_SERVICE_NAME"}


def _pods(docs: tuple[dict[str, Any], ...]) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for d in docs:
        if d["kind"] in ("Deployment", "StatefulSet"):
            out.append((f"{d['kind']} {d['metadata']['name']}", d["spec"]["template"]["spec"]))
        elif d["kind"] == "Job":
            out.append((f"Job {d['metadata']['name']}", d["spec"]["template"]["spec"]))
    return out


def restricted_problems(where: str, pod: dict[str, Any]) -> list[str]:
    """What keeps a pod from the `restricted` profile: non-root, read-only root
    filesystem, no privilege escalation, every capability dropped, a seccomp profile."""
    out = []
    if not pod.get("securityContext", {}).get("runAsNonRoot"):
        out.append(f"{where}: pod may run as root")
    if pod.get("securityContext", {}).get("seccompProfile", {}).get("type") != "RuntimeDefault":
        out.append(f"{where}: no RuntimeDefault seccomp profile")
    for c in [*pod.get("initContainers", []), *pod["containers"]]:
        sc = c.get("securityContext", {})
        if not (sc.get("runAsNonRoot") and sc.get("readOnlyRootFilesystem")
                and sc.get("allowPrivilegeEscalation") is False
                and sc.get("capabilities", {}).get("drop") == ["ALL"]):
            out.append(f"{where}/{c['name']}: securityContext is not restricted: {sc}")
        res = c.get("resources", {})
        if not ({"cpu", "memory"} <= set(res.get("requests", {}))
                and "memory" in res.get("limits", {})):
            out.append(f"{where}/{c['name']}: no cpu+memory requests and memory limit")
    return out


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_pod_is_restricted_and_has_resources(overlay: str) -> None:
    docs = rendered(overlay)
    problems = [p for where, pod in _pods(docs) for p in restricted_problems(where, pod)]
    assert problems == []


def test_the_check_sees_a_privileged_container() -> None:
    pod = {"securityContext": {"runAsNonRoot": True,
                               "seccompProfile": {"type": "RuntimeDefault"}},
           "containers": [{"name": "x", "securityContext": {"runAsNonRoot": True,
                                                            "readOnlyRootFilesystem": True,
                                                            "allowPrivilegeEscalation": True,
                                                            "capabilities": {"drop": ["ALL"]}},
                           "resources": {"requests": {"cpu": "1"}}}]}
    assert len(restricted_problems("Deployment x", pod)) == 2


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_deployment_has_probes_and_drains_in_its_grace_period(overlay: str) -> None:
    for name, dep in of_kind(rendered(overlay), "Deployment").items():
        pod = dep["spec"]["template"]["spec"]
        for c in pod["containers"]:
            assert c["readinessProbe"] and c["livenessProbe"], f"{name}/{c['name']}"
        if name.startswith("arbiter-"):
            (c,) = pod["containers"]
            assert c["livenessProbe"]["httpGet"]["path"] == "/health/live"
            assert c["readinessProbe"]["httpGet"]["path"] == "/health/ready"
            assert pod["terminationGracePeriodSeconds"] > deployment.DRAIN_S + 5
            # the store's schema is migrated before a process starts
            assert [i["name"] for i in pod["initContainers"]] == ["wait-for-migrations"]


def _partitions(docs: tuple[dict[str, Any], ...]) -> dict[str, int]:
    return {t["spec"]["topicName"]: t["spec"]["partitions"]
            for t in of_kind(docs, "KafkaTopic").values()}


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_scaled_objects_stay_within_partitions_and_own_their_replicas(overlay: str) -> None:
    docs = rendered(overlay)
    deployments = of_kind(docs, "Deployment")
    partitions = _partitions(docs)
    scaled = of_kind(docs, "ScaledObject")
    for name, so in scaled.items():
        target = so["spec"]["scaleTargetRef"]["name"]
        assert "replicas" not in deployments[target]["spec"], f"{target} fights KEDA"
        for trig in so["spec"]["triggers"]:
            assert trig["type"] == "kafka"
            topic = trig["metadata"]["topic"]
            assert so["spec"]["maxReplicaCount"] <= partitions[topic], (name, topic)
            assert trig["metadata"]["consumerGroup"] == target.removeprefix("arbiter-")
    if overlay == "large-event":  # every consumer service, all keyed by game(:marker)
        assert {so["spec"]["scaleTargetRef"]["name"] for so in scaled.values()} == \
            {f"arbiter-{s}" for s in SERVICES}
    else:  # one replica each: the default of a Deployment without `replicas`
        assert scaled == {}
        assert all(d["spec"].get("replicas", 1) == 1 for d in deployments.values())


def _compose_env(name: str) -> set[str]:
    return set(compose_doc()["services"][name]["environment"])


def _prometheus_targets() -> set[str]:
    doc = yaml.safe_load((ROOT / "infra" / "prometheus" / "prometheus.yml").read_text())
    return {n for job in doc["scrape_configs"] for sd in job["dns_sd_configs"]
            for n in sd["names"]}


def test_every_process_everywhere_with_the_same_environment() -> None:
    compose = compose_doc()["services"]
    assert _prometheus_targets() == set(PROCESSES)
    for overlay in OVERLAYS:
        docs = rendered(overlay)
        deployments = of_kind(docs, "Deployment")
        metrics = of_kind(docs, "Service")
        for name in PROCESSES:
            (c,) = deployments[f"arbiter-{name}"]["spec"]["template"]["spec"]["containers"]
            assert c["command"] == ["python", "-m", *process_command(name)]
            assert compose[name]["command"] == c["command"]
            assert f"arbiter-{name}-metrics" in metrics
            env = effective_env(docs, c)
            assert env == _compose_env(name) == deployment.env_names(name), (overlay, name)


def _source_text() -> str:
    roots = [ROOT / "libs", *(ROOT / "services" / p for p in
                              ("arbiter_services", "arbiter_gateway", "arbiter_cli"))]
    return "\n".join(p.read_text() for r in roots for p in r.rglob("*.py"))


def test_every_variable_deployed_is_read_by_the_code() -> None:
    """A name in compose or k8s that no code reads is drift (a renamed setting)."""
    source = _source_text()
    names = set().union(*(deployment.env_names(p) for p in PROCESSES))
    unread = {n for n in names - SDK_ENV if f'"{n}"' not in source}
    assert unread == set()


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_secret_template_has_every_key_the_overlay_uses(overlay: str) -> None:
    docs = rendered(overlay)
    used = set()
    for _, pod in _pods(docs):
        for c in [*pod.get("initContainers", []), *pod["containers"]]:
            for e in c.get("env", []):
                ref = e.get("valueFrom", {}).get("secretKeyRef")
                if ref:
                    assert ref["name"] == "arbiter-secrets"
                    used.add(ref["key"])
    (template,) = yaml.safe_load_all(
        (ROOT / "k8s" / "overlays" / overlay / "secret.template.yaml").read_text())
    assert set(template["stringData"]) == used
    assert all("CHANGE-ME" in v for v in template["stringData"].values())


def test_images_are_pinned() -> None:
    images = [s["image"] for s in compose_doc()["services"].values()]
    for overlay in OVERLAYS:
        for _, pod in _pods(rendered(overlay)):
            images += [c["image"] for c in [*pod.get("initContainers", []), *pod["containers"]]]
    for image in images:
        name, _, tag = image.rpartition(":")
        assert name and tag and tag != "latest" and "/" not in tag, image


def test_no_process_creates_a_topic_where_the_operator_owns_them() -> None:
    from arbiter_services.process import topic_keeper
    compose = compose_doc()["services"]
    for name in PROCESSES:
        assert compose[name]["environment"]["ARBITER_TOPICS"] == "operator"
    assert compose["kafka"]["environment"]["KAFKA_AUTO_CREATE_TOPICS_ENABLE"] == "false"
    for overlay in OVERLAYS:
        docs = rendered(overlay)
        for name in PROCESSES:
            (c,) = of_kind(docs, "Deployment")[f"arbiter-{name}"]["spec"]["template"][
                "spec"]["containers"]
            assert config_value(docs, c, "ARBITER_TOPICS") == "operator"
        (kafka,) = of_kind(docs, "Kafka").values()
        assert kafka["apiVersion"] == "kafka.strimzi.io/v1"
        assert kafka["spec"]["kafka"]["config"]["auto.create.topics.enable"] is False
        assert "topicOperator" in kafka["spec"]["entityOperator"]
        assert set(_partitions(docs)) == set(TOPIC_BY_NAME)
    assert topic_keeper(Settings(broker="x:1", topics="operator")) is None
    assert topic_keeper(Settings(broker="x:1", topics="keeper")) is not None
    with pytest.raises(ValueError, match="ARBITER_TOPICS"):
        Settings(topics="sometimes")


def test_the_gateway_keeps_no_topics_where_the_operator_owns_them() -> None:
    from arbiter_gateway.server import build_gateway
    from arbiter_gateway.settings import GatewaySettings
    from arbiter_services.observability import setup_tracing
    from arbiter_store import open_store
    with open_store(":memory:") as store:
        for owner, keeps in (("operator", False), ("keeper", True)):
            s = Settings(broker="127.0.0.1:1", store=":memory:", topics=owner)
            _, gw = build_gateway(store, s, setup_tracing("t"),
                                  GatewaySettings(gateway_secret="x" * 32))
            assert (gw.keeper is not None) is keeps


def test_only_the_topic_job_and_the_keeper_create_topics() -> None:
    """`create_topics` is called in one module, and `ensure_topics` only by the keeper,
    the one-shot topic job and the local launcher and bench."""
    users = {str(p.relative_to(ROOT)) for p in (ROOT / "services").rglob("*.py")
             if "ensure_topics(" in p.read_text() or "create_topics(" in p.read_text()}
    assert users == {"services/arbiter_services/topic_admin.py",
                     "services/arbiter_services/recovery.py",
                     "services/arbiter_ops/launcher.py", "services/arbiter_ops/bench.py"}


def test_overlay_sizes() -> None:
    dev, large = rendered("dev"), rendered("large-event")
    assert {t["spec"]["replicas"] for t in of_kind(dev, "KafkaTopic").values()} == {1}
    assert {t["spec"]["replicas"] for t in of_kind(large, "KafkaTopic").values()} == {3}
    pools = {n: p["spec"] for n, p in of_kind(large, "KafkaNodePool").items()}
    assert pools["broker"]["replicas"] == 3 and pools["controller"]["roles"] == ["controller"]
    (dual,) = of_kind(dev, "KafkaNodePool").values()
    assert dual["spec"]["replicas"] == 1
    assert sorted(dual["spec"]["roles"]) == ["broker", "controller"]
    assert "arbiter-postgres" in of_kind(dev, "StatefulSet")
    assert of_kind(large, "StatefulSet") == {}
    assert of_kind(large, "Deployment")["arbiter-gateway"]["spec"]["replicas"] >= 2


def test_compose_waits_for_its_jobs() -> None:
    services = compose_doc()["services"]
    for name in PROCESSES:
        deps = services[name]["depends_on"]
        assert deps["migrate"]["condition"] == "service_completed_successfully"
        assert deps["topics"]["condition"] == "service_completed_successfully"
        assert "healthcheck" in services[name]
        assert services[name]["read_only"] is True
    assert services["migrate"]["environment"] == {
        deployment.OWNER_STORE.env: deployment.OWNER_STORE.compose_value()}
    assert services["tansu"]["profiles"] == ["tansu"]
    assert (ROOT / services["relay"]["build"]["dockerfile"]).exists()
    assert Path(ROOT / ".env.example").read_text().count("CHANGE-ME") >= 3
