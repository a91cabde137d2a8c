"""Kubernetes manifests, generated (`python -m arbiter_services k8s`), committed in k8s/.

- topics.yaml: a Strimzi `KafkaTopic` per topic of the topics module;
- services.yaml: a ConfigMap, and per process a Deployment with readiness and liveness
  probes, resource requests, a SIGTERM grace period (the relay: one replica, Recreate);
  a Service for the gateway;
- keda.yaml: a KEDA `ScaledObject` scaling the stack resolver on its consumer lag.

The store URL and the gateway's token secret come from the Secret `arbiter-secrets`
(keys `store-url`, `gateway-secret`), which the operator creates.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from arbiter_services.topics import SERVICES, STACK, TOPICS, work_topic

IMAGE = "ghcr.io/arbiter/arbiter:latest"
CLUSTER = "arbiter"
BOOTSTRAP = "arbiter-kafka-bootstrap:9092"
HTTP_PORT = 8080
LABEL = "app.kubernetes.io/name"


def kafka_topics() -> list[dict[str, Any]]:
    return [{
        "apiVersion": "kafka.strimzi.io/v1beta2", "kind": "KafkaTopic",
        "metadata": {"name": t.name.replace("_", "-"),
                     "labels": {"strimzi.io/cluster": CLUSTER}},
        "spec": {"topicName": t.name, "partitions": t.partitions, "replicas": 3,
                 "config": {"retention.ms": "604800000", "min.insync.replicas": "2"}},
    } for t in TOPICS]


def _container(name: str, args: list[str]) -> dict[str, Any]:
    probe = {"httpGet": {"path": "/health/ready", "port": HTTP_PORT},
             "periodSeconds": 5, "timeoutSeconds": 3, "failureThreshold": 3}
    return {
        "name": name, "image": IMAGE, "args": ["python", "-m", "arbiter_services", *args],
        "ports": [{"name": "http", "containerPort": HTTP_PORT}],
        "envFrom": [{"configMapRef": {"name": "arbiter-config"}}],
        "env": [
            {"name": "ARBITER_STORE", "valueFrom": {"secretKeyRef": {
                "name": "arbiter-secrets", "key": "store-url"}}},
            {"name": "ARBITER_GATEWAY_SECRET", "valueFrom": {"secretKeyRef": {
                "name": "arbiter-secrets", "key": "gateway-secret"}}},
            {"name": "OTEL_SERVICE_NAME", "value": f"arbiter-{name}"},
        ],
        "readinessProbe": probe,
        "livenessProbe": {**probe, "httpGet": {"path": "/health/live", "port": HTTP_PORT},
                          "periodSeconds": 10, "failureThreshold": 6},
        "resources": {"requests": {"cpu": "250m", "memory": "256Mi"},
                      "limits": {"memory": "1Gi"}},
    }


def _deployment(name: str, args: list[str], replicas: int,
                recreate: bool = False) -> dict[str, Any]:
    labels = {LABEL: f"arbiter-{name}", "app.kubernetes.io/part-of": "arbiter"}
    spec: dict[str, Any] = {
        "replicas": replicas, "selector": {"matchLabels": {LABEL: f"arbiter-{name}"}},
        "template": {
            "metadata": {"labels": labels, "annotations": {
                "prometheus.io/scrape": "true", "prometheus.io/port": str(HTTP_PORT),
                "prometheus.io/path": "/metrics"}},
            "spec": {"terminationGracePeriodSeconds": 30,
                     "containers": [_container(name, args)]},
        },
    }
    if recreate:
        spec["strategy"] = {"type": "Recreate"}
    return {"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": f"arbiter-{name}", "labels": labels}, "spec": spec}


def deployments() -> list[dict[str, Any]]:
    config = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "arbiter-config"},
              "data": {"ARBITER_BROKER": BOOTSTRAP, "ARBITER_HTTP_HOST": "0.0.0.0",
                       "ARBITER_HTTP_PORT": str(HTTP_PORT),
                       "ARBITER_FETCH_MAX_WAIT_MS": "10",
                       "ARBITER_SESSION_TIMEOUT_MS": "6000",
                       "OTEL_EXPORTER_OTLP_ENDPOINT": "http://otel-collector:4318"}}
    docs: list[dict[str, Any]] = [config]
    docs.append(_deployment("relay", ["run", "relay"], 1, recreate=True))
    for svc in SERVICES:
        docs.append(_deployment(svc, ["run", svc], 2))
    docs.append(_deployment("gateway", ["gateway"], 2))
    docs.append({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "arbiter-gateway"},
                 "spec": {"selector": {LABEL: "arbiter-gateway"},
                          "ports": [{"name": "http", "port": 80, "targetPort": HTTP_PORT}]}})
    return docs


def scaled_objects() -> list[dict[str, Any]]:
    return [{
        "apiVersion": "keda.sh/v1alpha1", "kind": "ScaledObject",
        "metadata": {"name": f"arbiter-{STACK}"},
        "spec": {
            "scaleTargetRef": {"name": f"arbiter-{STACK}"},
            "minReplicaCount": 1, "maxReplicaCount": 8,  # = partitions of its work topic
            "pollingInterval": 10, "cooldownPeriod": 120,
            "triggers": [{"type": "kafka", "metadata": {
                "bootstrapServers": BOOTSTRAP, "consumerGroup": STACK,
                "topic": work_topic(STACK), "lagThreshold": "50",
                "offsetResetPolicy": "earliest"}}],
        },
    }]


def render(docs: list[dict[str, Any]]) -> str:
    head = "# Generated by `python -m arbiter_services k8s` from arbiter_services; do not edit.\n"
    return head + yaml.safe_dump_all(docs, sort_keys=False, default_flow_style=False)


def manifests() -> dict[str, str]:
    return {"topics.yaml": render(kafka_topics()), "services.yaml": render(deployments()),
            "keda.yaml": render(scaled_objects())}


def write_manifests(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, text in manifests().items():
        path = out / name
        path.write_text(text)
        paths.append(path)
    return paths
