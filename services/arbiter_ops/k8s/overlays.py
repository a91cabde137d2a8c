"""The two overlays: `dev` (one replica each, a one-node Kafka, replication 1, PostgreSQL
as a StatefulSet) and `large-event` (hundreds of games and a 100-player Grand Melee:
three brokers and three controllers, 24 partitions, KEDA on consumer lag, an external
PostgreSQL). The large-event sizes are derived in docs/deploy.md from the costs measured
in docs/scaling.md; `LARGE` holds them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from arbiter_ops import deployment as d
from arbiter_ops.k8s.kafka import CLUSTER, KafkaSize
from arbiter_ops.k8s.workloads import (
    LABEL,
    SECRET,
    container_security,
    labels,
    pod_security,
)
from arbiter_services.topics import AUDIT, STACK, TOPICS, command_topic, work_topic

BOOTSTRAP = f"{CLUSTER}-kafka-bootstrap:9092"


@dataclass(frozen=True)
class Scale:
    min: int
    max: int
    lag: int = 50  # consumer lag per replica that KEDA aims at


@dataclass(frozen=True)
class Overlay:
    name: str
    kafka: KafkaSize
    #: cpu request, memory request, memory limit per process (no cpu limit: a game's
    #: one busy process must not be throttled)
    resources: dict[str, tuple[str, str, str]]
    gateway_replicas: int = 1
    scale: dict[str, Scale] = field(default_factory=dict)
    external_store: bool = False


def _partitions(n: int, audit: int) -> dict[str, int]:
    return {t.name: (audit if t.name == AUDIT else n) for t in TOPICS}


DEV = Overlay(
    "dev",
    KafkaSize(brokers=1, controllers=0, replication=1, min_insync=1, broker_storage="10Gi",
              broker_cpu="250m", broker_memory="1Gi", retention_ms=86_400_000,
              partitions={}),
    resources={p: ("100m", "256Mi", "1Gi") for p in d.PROCESSES})

#: docs/deploy.md, "Sizing", derives each figure
LARGE = Overlay(
    "large-event",
    KafkaSize(brokers=3, controllers=3, replication=3, min_insync=2,
              broker_storage="200Gi", broker_cpu="2", broker_memory="8Gi",
              retention_ms=86_400_000, partitions=_partitions(24, 8)),
    resources={"relay": ("1", "2Gi", "4Gi"), "turn-orchestrator": ("1", "1Gi", "3Gi"),
               "stack-resolver": ("500m", "1Gi", "3Gi"), "sba-checker": ("500m", "1Gi", "3Gi"),
               "variants": ("250m", "1Gi", "3Gi"), "gateway": ("500m", "1Gi", "2Gi")},
    gateway_replicas=3,
    scale={"turn-orchestrator": Scale(3, 12), STACK: Scale(2, 12),
           "sba-checker": Scale(2, 8), "variants": Scale(2, 4)},
    external_store=True)

OVERLAYS = (DEV, LARGE)


def resource_patch(o: Overlay, name: str) -> dict[str, Any]:
    cpu, mem, limit = o.resources[name]
    spec: dict[str, Any] = {"template": {"spec": {"containers": [{
        "name": name, "resources": {"requests": {"cpu": cpu, "memory": mem},
                                    "limits": {"memory": limit}}}]}}}
    if name == "gateway":
        spec["replicas"] = o.gateway_replicas
    return {"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": f"arbiter-{name}"}, "spec": spec}


def topic_partitions(o: Overlay, topic: str) -> int:
    spec = next(t for t in TOPICS if t.name == topic)
    return o.kafka.partitions.get(topic, spec.partitions)


def scaled_objects(o: Overlay) -> list[dict[str, Any]]:
    """KEDA on consumer lag for every consumer service (all keyed by game or
    game:marker); at most one replica per partition of its topics (more would idle), and
    the Deployments have no `replicas` for KEDA to fight."""
    out = []
    for svc, sc in o.scale.items():
        topics = [work_topic(svc)]
        if any(t.name == command_topic(svc) for t in TOPICS):
            topics.insert(0, command_topic(svc))
        assert sc.max <= min(topic_partitions(o, t) for t in topics)
        out.append({
            "apiVersion": "keda.sh/v1alpha1", "kind": "ScaledObject",
            "metadata": {"name": f"arbiter-{svc}"},
            "spec": {"scaleTargetRef": {"name": f"arbiter-{svc}"},
                     "minReplicaCount": sc.min, "maxReplicaCount": sc.max,
                     "pollingInterval": 10, "cooldownPeriod": 300,
                     "triggers": [{"type": "kafka", "metadata": {
                         "bootstrapServers": BOOTSTRAP, "consumerGroup": svc, "topic": t,
                         "lagThreshold": str(sc.lag), "offsetResetPolicy": "earliest"}}
                         for t in topics]}})
    return out


def postgres(init_roles: str) -> list[dict[str, Any]]:
    """The dev overlay's PostgreSQL 16: one pod, a volume claim, the roles' script."""
    lab = labels("arbiter-postgres")
    env = [{"name": "POSTGRES_USER", "value": "postgres"},
           {"name": "PGDATA", "value": "/var/lib/postgresql/data/pgdata"},
           {"name": "ARBITER_DB", "value": "arbiter"},
           {"name": "ARBITER_OWNER_ROLE", "value": d.OWNER_ROLE},
           {"name": "ARBITER_APP_ROLE", "value": d.SERVICES_ROLE},
           *({"name": env_name, "valueFrom": {"secretKeyRef": {"name": SECRET, "key": key}}}
             for env_name, key, _ in d.DB_PASSWORDS)]
    probe = {"exec": {"command": ["pg_isready", "-U", d.OWNER_ROLE, "-d", "arbiter", "-h",
                                  "127.0.0.1"]},
             "periodSeconds": 5, "timeoutSeconds": 3, "failureThreshold": 6}
    c = {"name": "postgres", "image": d.POSTGRES_IMAGE, "env": env,
         "ports": [{"name": "postgres", "containerPort": 5432}],
         "readinessProbe": probe, "livenessProbe": {**probe, "periodSeconds": 10},
         "resources": {"requests": {"cpu": "250m", "memory": "512Mi"},
                       "limits": {"memory": "1Gi"}},
         "securityContext": {**container_security(), "runAsUser": 999, "runAsGroup": 999},
         "volumeMounts": [{"name": "data", "mountPath": "/var/lib/postgresql/data"},
                          {"name": "run", "mountPath": "/var/run/postgresql"},
                          {"name": "tmp", "mountPath": "/tmp"},
                          {"name": "initdb", "mountPath": "/docker-entrypoint-initdb.d"}]}
    return [
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "arbiter-postgres-init"},
         "data": {"10-roles.sh": init_roles}},
        {"apiVersion": "v1", "kind": "Service",
         "metadata": {"name": "postgres", "labels": lab},
         "spec": {"selector": {LABEL: "arbiter-postgres"},
                  "ports": [{"name": "postgres", "port": 5432, "targetPort": "postgres"}]}},
        {"apiVersion": "apps/v1", "kind": "StatefulSet",
         "metadata": {"name": "arbiter-postgres", "labels": lab},
         "spec": {"serviceName": "postgres", "replicas": 1,
                  "selector": {"matchLabels": {LABEL: "arbiter-postgres"}},
                  "template": {"metadata": {"labels": lab},
                               "spec": {"automountServiceAccountToken": False,
                                        "securityContext": {**pod_security(),
                                                            "runAsUser": 999,
                                                            "runAsGroup": 999,
                                                            "fsGroup": 999},
                                        "containers": [c],
                                        "volumes": [
                                            {"name": "run", "emptyDir": {}},
                                            {"name": "tmp", "emptyDir": {}},
                                            {"name": "initdb", "configMap": {
                                                "name": "arbiter-postgres-init"}}]}},
                  "volumeClaimTemplates": [{"metadata": {"name": "data"},
                                            "spec": {"accessModes": ["ReadWriteOnce"],
                                                     "resources": {"requests": {
                                                         "storage": "10Gi"}}}}]}},
        {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
         "metadata": {"name": "arbiter-postgres"},
         "spec": {"podSelector": {"matchLabels": {LABEL: "arbiter-postgres"}},
                  "policyTypes": ["Ingress", "Egress"],
                  "ingress": [{"from": [{"podSelector": {"matchLabels": {
                      "app.kubernetes.io/part-of": "arbiter"}}}],
                               "ports": [{"protocol": "TCP", "port": 5432}]}],
                  "egress": []}},
    ]


#: the external database's address (replace: docs/deploy.md); TEST-NET-1 until then
EXTERNAL_STORE_CIDR = "192.0.2.10/32"


def external_store_policy() -> dict[str, Any]:
    return {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
            "metadata": {"name": "arbiter-external-store"},
            "spec": {"podSelector": {"matchLabels": {"app.kubernetes.io/part-of": "arbiter"}},
                     "policyTypes": ["Egress"],
                     "egress": [{"to": [{"ipBlock": {"cidr": EXTERNAL_STORE_CIDR}}],
                                 "ports": [{"protocol": "TCP", "port": 5432}]}]}}


def secret_template(o: Overlay) -> dict[str, Any]:
    """`arbiter-secrets` with a placeholder per key: copy it, fill it in, apply it once
    before `kubectl apply -k` (it is not part of the kustomization, so no placeholder is
    ever applied by accident)."""
    host = "postgres" if not o.external_store else "db.example.internal"
    data = {s.key: s.placeholder.replace("@postgres:", f"@{host}:") for s in d.SECRETS}
    data[d.OWNER_STORE.key] = d.OWNER_STORE.placeholder.replace("@postgres:", f"@{host}:")
    if not o.external_store:  # the dev overlay's own PostgreSQL sets the roles' passwords
        data.update({key: "CHANGE-ME" for _, key, _ in d.DB_PASSWORDS})
    return {"apiVersion": "v1", "kind": "Secret",
            "metadata": {"name": SECRET, "namespace": "arbiter"}, "type": "Opaque",
            "stringData": data}
