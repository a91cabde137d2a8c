"""The Kustomize base's workloads: a Deployment per process, the migration Job, the
metrics Services, the gateway's Service, PodDisruptionBudgets and the OpenTelemetry
collector.

Every pod runs as a non-root user with a read-only root filesystem, no privilege
escalation, every capability dropped and the runtime's seccomp profile (the `restricted`
Pod Security Standard); `/tmp` is an emptyDir. Each process's pod waits in an init
container (`python -m arbiter_services wait-store`) until the migration Job has brought
the store's schema up to date: Kustomize has no ordering hooks, so the services wait for
the Job rather than the Job running first. The consumer services have no `replicas`
field: the dev overlay runs one of each (the default) and KEDA scales them in the
large-event overlay.
"""

from __future__ import annotations

from typing import Any

from arbiter_ops import deployment as d

LABEL = "app.kubernetes.io/name"
PART_OF = {"app.kubernetes.io/part-of": "arbiter"}
SECRET = "arbiter-secrets"
CONFIG = "arbiter-config"
IMAGE = d.IMAGE  # the tag is the overlay's (`images:`)
UID = 10001


def labels(name: str) -> dict[str, str]:
    return {LABEL: name, **PART_OF}


def container_security() -> dict[str, Any]:
    return {"runAsNonRoot": True, "runAsUser": UID, "runAsGroup": UID,
            "readOnlyRootFilesystem": True, "allowPrivilegeEscalation": False,
            "capabilities": {"drop": ["ALL"]}, "seccompProfile": {"type": "RuntimeDefault"}}


def pod_security() -> dict[str, Any]:
    return {"runAsNonRoot": True, "runAsUser": UID, "runAsGroup": UID, "fsGroup": UID,
            "seccompProfile": {"type": "RuntimeDefault"}}


def _secret_env(process: str) -> list[dict[str, Any]]:
    return [{"name": s.env, "valueFrom": {"secretKeyRef": {"name": SECRET, "key": s.key}}}
            for s in d.secrets_of(process)]


def _wait_for_migrations() -> dict[str, Any]:
    return {"name": "wait-for-migrations", "image": IMAGE,
            "command": ["python", "-m", "arbiter_services", "wait-store", "--timeout", "900"],
            "env": _secret_env("wait-store"),
            "resources": {"requests": {"cpu": "50m", "memory": "128Mi"},
                          "limits": {"memory": "256Mi"}},
            "securityContext": container_security(),
            "volumeMounts": [{"name": "tmp", "mountPath": "/tmp"}]}


def process_container(name: str) -> dict[str, Any]:
    probe = {"httpGet": {"path": "/health/ready", "port": "http"},
             "periodSeconds": 5, "timeoutSeconds": 3, "failureThreshold": 3}
    c: dict[str, Any] = {
        "name": name, "image": IMAGE, "command": d.command(name),
        "ports": [{"name": "http", "containerPort": d.HTTP_PORT}],
        "envFrom": [{"configMapRef": {"name": CONFIG}}],
        "env": [{"name": "OTEL_SERVICE_NAME", "value": f"arbiter-{name}"},
                {"name": "ARBITER_INSTANCE", "valueFrom": {"fieldRef": {
                    "fieldPath": "metadata.name"}}}, *_secret_env(name)],
        # the process answers /health/* while it waits for the broker; liveness fails
        # once the broker has been away for ARBITER_BROKER_GRACE_S (liveness.py)
        "startupProbe": {**probe, "httpGet": {"path": "/health/live", "port": "http"},
                         "failureThreshold": 30},
        "readinessProbe": probe,
        "livenessProbe": {**probe, "httpGet": {"path": "/health/live", "port": "http"},
                          "periodSeconds": 10, "failureThreshold": 3},
        "resources": {"requests": {"cpu": "100m", "memory": "256Mi"},
                      "limits": {"memory": "1Gi"}},
        "securityContext": container_security(),
        "volumeMounts": [{"name": "tmp", "mountPath": "/tmp"}],
    }
    if name == "gateway":  # leave the Service's endpoints before draining
        c["lifecycle"] = {"preStop": {"sleep": {"seconds": 5}}}
    return c


def deployment(name: str) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "selector": {"matchLabels": {LABEL: f"arbiter-{name}"}},
        "template": {
            "metadata": {"labels": labels(f"arbiter-{name}"), "annotations": {
                "prometheus.io/scrape": "true", "prometheus.io/port": str(d.HTTP_PORT),
                "prometheus.io/path": "/metrics"}},
            "spec": {
                "terminationGracePeriodSeconds": d.GRACE_S,
                "automountServiceAccountToken": False,
                "securityContext": pod_security(),
                "initContainers": [_wait_for_migrations()],
                "containers": [process_container(name)],
                "volumes": [{"name": "tmp", "emptyDir": {"sizeLimit": "64Mi"}}],
            },
        },
    }
    if name == d.RELAY:  # exactly one relay: never two during a rollout
        spec["replicas"] = 1
        spec["strategy"] = {"type": "Recreate"}
    elif name == "gateway":
        spec["replicas"] = 1
    return {"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": f"arbiter-{name}", "labels": labels(f"arbiter-{name}")},
            "spec": spec}


def migration_job() -> dict[str, Any]:
    """`arbiter db upgrade` as the owner role. A Job's pod template is immutable: delete
    the finished Job before applying a new image (docs/deploy.md, Upgrades)."""
    c = {"name": "migrate", "image": IMAGE,
         "command": ["arbiter", "db", "upgrade", "--db", f"$({d.OWNER_STORE.env})"],
         "env": [*({"name": k, "value": v} for k, v in d.MIGRATE_CONFIG.items()),
                 {"name": d.OWNER_STORE.env, "valueFrom": {"secretKeyRef": {
                     "name": SECRET, "key": d.OWNER_STORE.key}}}],
         "resources": {"requests": {"cpu": "100m", "memory": "256Mi"},
                       "limits": {"memory": "512Mi"}},
         "securityContext": container_security(),
         "volumeMounts": [{"name": "tmp", "mountPath": "/tmp"}]}
    return {"apiVersion": "batch/v1", "kind": "Job",
            "metadata": {"name": "arbiter-migrate", "labels": labels("arbiter-migrate")},
            "spec": {"backoffLimit": 10, "ttlSecondsAfterFinished": 86400,
                     "template": {"metadata": {"labels": labels("arbiter-migrate")},
                                  "spec": {"restartPolicy": "OnFailure",
                                           "automountServiceAccountToken": False,
                                           "securityContext": pod_security(),
                                           "containers": [c],
                                           "volumes": [{"name": "tmp", "emptyDir": {}}]}}}}


def services() -> list[dict[str, Any]]:
    """The gateway's Service, and a headless metrics Service per process (Prometheus
    finds every replica by DNS: the scrape config of `infra.prometheus`)."""
    out: list[dict[str, Any]] = [{
        "apiVersion": "v1", "kind": "Service",
        "metadata": {"name": "arbiter-gateway", "labels": labels("arbiter-gateway")},
        "spec": {"selector": {LABEL: "arbiter-gateway"},
                 "ports": [{"name": "http", "port": 80, "targetPort": "http"}]}}]
    for name in d.PROCESSES:
        out.append({"apiVersion": "v1", "kind": "Service",
                    "metadata": {"name": f"arbiter-{name}-metrics",
                                 "labels": labels(f"arbiter-{name}")},
                    "spec": {"clusterIP": "None", "selector": {LABEL: f"arbiter-{name}"},
                             "ports": [{"name": "http", "port": d.HTTP_PORT,
                                        "targetPort": "http"}]}})
    return out


def disruption_budgets() -> list[dict[str, Any]]:
    return [{"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
             "metadata": {"name": f"arbiter-{name}"},
             "spec": {"maxUnavailable": 1,
                      "selector": {"matchLabels": {LABEL: f"arbiter-{name}"}}}}
            for name in d.PROCESSES]


def config_env() -> str:
    return "".join(f"{k}={v}\n" for k, v in d.config("k8s").items())
