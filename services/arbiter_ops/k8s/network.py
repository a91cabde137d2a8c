"""Who may talk to whom: NetworkPolicies, the gateway's Ingress, the collector.

Every pod of the project is denied all traffic but what is listed: each Arbiter process
may reach DNS, the Kafka brokers (Strimzi's pods of cluster `arbiter`, 9092), the store
(5432: the dev overlay's PostgreSQL pod, or the external database's address that the
large-event overlay adds) and the collector (4318); the gateway is reached by the
ingress controller's namespace and Prometheus scrapes port 8080 from the monitoring
namespace. The migration Job reaches DNS and the store only.
"""

from __future__ import annotations

from typing import Any

from arbiter_ops import deployment as d
from arbiter_ops.k8s.workloads import (
    LABEL,
    container_security,
    labels,
    pod_security,
)

INGRESS_NAMESPACE = "ingress-nginx"
MONITORING_NAMESPACE = "monitoring"
HOST = "arbiter.example.org"
TLS_SECRET = "arbiter-gateway-tls"
COLLECTOR = "otel-collector"
STORE_PEER: dict[str, Any] = {"podSelector": {"matchLabels": {LABEL: "arbiter-postgres"}}}


def _ns(name: str) -> dict[str, Any]:
    return {"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": name}}}


DNS = {"to": [{"namespaceSelector": {}, "podSelector": {"matchLabels": {
    "k8s-app": "kube-dns"}}}],
       "ports": [{"protocol": "UDP", "port": 53}, {"protocol": "TCP", "port": 53}]}
KAFKA = {"to": [{"podSelector": {"matchLabels": {"strimzi.io/cluster": "arbiter",
                                                 "strimzi.io/broker-role": "true"}}}],
         "ports": [{"protocol": "TCP", "port": 9092}]}
STORE = {"to": [STORE_PEER], "ports": [{"protocol": "TCP", "port": 5432}]}
TRACES = {"to": [{"podSelector": {"matchLabels": {LABEL: COLLECTOR}}}],
          "ports": [{"protocol": "TCP", "port": 4318}]}


def _policy(name: str, selector: dict[str, str], ingress: list[dict[str, Any]],
            egress: list[dict[str, Any]]) -> dict[str, Any]:
    return {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
            "metadata": {"name": name},
            "spec": {"podSelector": {"matchLabels": selector},
                     "policyTypes": ["Ingress", "Egress"], "ingress": ingress,
                     "egress": egress}}


def policies() -> list[dict[str, Any]]:
    scrape = {"from": [_ns(MONITORING_NAMESPACE)],
              "ports": [{"protocol": "TCP", "port": d.HTTP_PORT}]}
    out = [_policy("arbiter-default-deny", PART_OF_SELECTOR, [], [])]
    for name in d.PROCESSES:
        ingress = [scrape]
        if name == "gateway":
            ingress.append({"from": [_ns(INGRESS_NAMESPACE)],
                            "ports": [{"protocol": "TCP", "port": d.HTTP_PORT}]})
        out.append(_policy(f"arbiter-{name}", {LABEL: f"arbiter-{name}"}, ingress,
                           [DNS, KAFKA, STORE, TRACES]))
    out.append(_policy("arbiter-migrate", {LABEL: "arbiter-migrate"}, [], [DNS, STORE]))
    out.append(_policy("arbiter-otel-collector", {LABEL: COLLECTOR},
                       [{"from": [{"podSelector": {"matchLabels": PART_OF_SELECTOR}}],
                         "ports": [{"protocol": "TCP", "port": 4318}]}],
                       [DNS, {"ports": [{"protocol": "TCP", "port": 4317},
                                        {"protocol": "TCP", "port": 4318}]}]))
    return out


PART_OF_SELECTOR = {"app.kubernetes.io/part-of": "arbiter"}


def ingress() -> dict[str, Any]:
    """TLS (cert-manager or a Secret `arbiter-gateway-tls` the operator makes) and
    WebSocket-friendly timeouts (ingress-nginx: an hour without a frame)."""
    return {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
            "metadata": {"name": "arbiter-gateway", "annotations": {
                "nginx.ingress.kubernetes.io/proxy-read-timeout": "3600",
                "nginx.ingress.kubernetes.io/proxy-send-timeout": "3600",
                "nginx.ingress.kubernetes.io/proxy-body-size": "2m",
                "nginx.ingress.kubernetes.io/ssl-redirect": "true"}},
            "spec": {"ingressClassName": "nginx",
                     "tls": [{"hosts": [HOST], "secretName": TLS_SECRET}],
                     "rules": [{"host": HOST, "http": {"paths": [{
                         "path": "/", "pathType": "Prefix",
                         "backend": {"service": {"name": "arbiter-gateway",
                                                 "port": {"name": "http"}}}}]}}]}}


def collector(config_text: str) -> list[dict[str, Any]]:
    """The OpenTelemetry collector the processes send traces to (OTLP/HTTP 4318)."""
    lab = {LABEL: COLLECTOR, **PART_OF_SELECTOR}
    c = {"name": "otel-collector", "image": d.OTEL_IMAGE,
         "args": ["--config=/etc/otelcol/config.yaml"],
         "ports": [{"name": "otlp-http", "containerPort": 4318},
                   {"name": "otlp-grpc", "containerPort": 4317},
                   {"name": "health", "containerPort": 13133}],
         "readinessProbe": {"httpGet": {"path": "/", "port": "health"}, "periodSeconds": 10},
         "livenessProbe": {"httpGet": {"path": "/", "port": "health"}, "periodSeconds": 20},
         "resources": {"requests": {"cpu": "100m", "memory": "128Mi"},
                       "limits": {"memory": "512Mi"}},
         "securityContext": container_security(),
         "volumeMounts": [{"name": "config", "mountPath": "/etc/otelcol"}]}
    return [
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "otel-collector"},
         "data": {"config.yaml": config_text}},
        {"apiVersion": "apps/v1", "kind": "Deployment",
         "metadata": {"name": COLLECTOR, "labels": lab},
         "spec": {"replicas": 1, "selector": {"matchLabels": {LABEL: COLLECTOR}},
                  "template": {"metadata": {"labels": lab},
                               "spec": {"automountServiceAccountToken": False,
                                        "securityContext": pod_security(),
                                        "containers": [c],
                                        "volumes": [{"name": "config", "configMap": {
                                            "name": "otel-collector"}}]}}}},
        {"apiVersion": "v1", "kind": "Service",
         "metadata": {"name": COLLECTOR, "labels": labels(COLLECTOR)},
         "spec": {"selector": {LABEL: COLLECTOR},
                  "ports": [{"name": "otlp-http", "port": 4318, "targetPort": "otlp-http"},
                            {"name": "otlp-grpc", "port": 4317,
                             "targetPort": "otlp-grpc"}]}},
    ]
