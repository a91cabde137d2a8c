"""What every deployment of Arbiter runs, in one place: the processes, their commands,
ports and environment, and the images. docker-compose.yml (`compose.py`), the Kustomize
base and overlays (`k8s/`), the Prometheus targets (`infra/prometheus/`) and
`.env.example` are generated from this module and the topics module, so they cannot
drift apart (`tests/deploy` checks the committed files and the rendered overlays).

Adding a setting: a non-secret one goes in `config()`; a secret one is a `SecretVar` in
`SECRETS` (the processes that read it, its Secret key, its placeholder): compose then
takes it from `.env`, both overlays' Secret templates get its key, and `.env.example`
documents it. (Issue 14's judge credentials, organiser credential and seed secret go in
`SECRETS` with `processes=("gateway",)`.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from arbiter_ops.launcher import PROCESSES, process_command
from arbiter_services.topics import RELAY, SERVICES

Target = Literal["compose", "k8s"]

#: Pinned image tags (digests cannot be resolved offline; each overlay pins its own).
IMAGE = "ghcr.io/arbiter/arbiter"
VERSION = "0.1.0"
PYTHON_IMAGE = "python:3.11.14-slim-bookworm"
KAFKA_IMAGE = "apache/kafka:4.1.1"
KAFKA_VERSION = "4.1.1"  # Strimzi's spec.kafka.version
POSTGRES_IMAGE = "postgres:16.11-bookworm"
TANSU_IMAGE = "ghcr.io/tansu-io/tansu:0.5.9"
OTEL_IMAGE = "otel/opentelemetry-collector-contrib:0.139.0"
JAEGER_IMAGE = "jaegertracing/jaeger:2.11.0"
PROMETHEUS_IMAGE = "prom/prometheus:v3.7.3"

HTTP_PORT = 8080
#: how long a process may drain on SIGTERM (uvicorn's graceful timeout is 10 s, the
#: relay's last page 10 s more); compose's stop_grace_period and k8s'
#: terminationGracePeriodSeconds are set above it
DRAIN_S = 20
GRACE_S = 45
#: the database roles (docs/security.md): the owner runs the migrations; the services'
#: login role is a member of the group role the migrations grant to (arbiter_services)
OWNER_ROLE = "arbiter_owner"
SERVICES_ROLE = "arbiter_app"
SERVICES_GROUP = "arbiter_services"

#: processes that append to the store and so sign anchors with the key (every one opens
#: its store with it: arbiter_services.stores.open_service_store)
APPENDERS = PROCESSES


@dataclass(frozen=True)
class SecretVar:
    env: str  # the environment variable the processes read
    key: str  # its key in the Kubernetes Secret `arbiter-secrets`
    processes: tuple[str, ...]
    doc: str
    placeholder: str
    #: its value in docker-compose.yml (from `.env`); default: `${ENV:?...}`
    compose: str = ""

    def compose_value(self) -> str:
        return self.compose or f"${{{self.env}:?set {self.env} in .env (see .env.example)}}"


SECRETS: tuple[SecretVar, ...] = (
    SecretVar("ARBITER_STORE", "store-url", (*PROCESSES, "wait-store"),
              f"the event store as the services' role ({SERVICES_ROLE}: may not UPDATE "
              "or DELETE stored events)",
              f"postgresql://{SERVICES_ROLE}:CHANGE-ME@postgres:5432/arbiter",
              compose=f"postgresql://{SERVICES_ROLE}:${{ARBITER_APP_PASSWORD:?set it in .env}}"
                      "@postgres:5432/arbiter"),
    SecretVar("ARBITER_GATEWAY_SECRET", "gateway-secret", ("gateway",),
              "signs seat and judge tokens; every gateway replica shares it (32+ random "
              "bytes, e.g. `openssl rand -hex 32`)", "CHANGE-ME-64-hex-characters"),
    SecretVar("ARBITER_ANCHOR_KEY", "anchor-key", APPENDERS,
              "signs each finished game's head hash (`arbiter verify` checks it)",
              "CHANGE-ME-64-hex-characters"),
    # issue 14: the gateway's credentials (hashes only) and seed secret (docs/security.md)
    SecretVar("ARBITER_JUDGES", "judges", ("gateway",),
              "judges' logins: name=hash entries, comma separated (`python -m "
              "arbiter_gateway hash-password --name NAME`); unset, nobody can be a judge",
              "CHANGE-ME=scrypt:16384:8:1:salt:hash"),
    SecretVar("ARBITER_ORGANISERS", "organisers", ("gateway",),
              "organisers' logins (who may create games), the same format",
              "CHANGE-ME=scrypt:16384:8:1:salt:hash"),
    SecretVar("ARBITER_SEED_SECRET", "seed-secret", ("gateway",),
              "keys the seed of each game created through the gateway (HMAC of the "
              "client's seed), so a client cannot predict its shuffles (32+ random bytes)",
              "CHANGE-ME-64-hex-characters"),
)
#: the migration job's only secret: the owner role, which may create and alter tables
OWNER_STORE = SecretVar("ARBITER_OWNER_STORE", "owner-store-url", ("migrate",),
                        f"the event store as the owner role ({OWNER_ROLE}): the migration "
                        "job's only (arbiter db upgrade)",
                        f"postgresql://{OWNER_ROLE}:CHANGE-ME@postgres:5432/arbiter",
                        compose=f"postgresql://{OWNER_ROLE}:${{ARBITER_OWNER_PASSWORD:?set it "
                                "in .env}@postgres:5432/arbiter")
#: the migration job's non-secret settings: every line it writes is JSON, like the
#: processes' (`arbiter db upgrade` prints text for a terminal without it)
MIGRATE_CONFIG = {"ARBITER_LOG_FORMAT": "json"}
#: the roles' passwords, for the PostgreSQL the deployment runs itself (compose, k8s dev):
#: (environment variable, Secret key, role); `postgres` is the bootstrap superuser that
#: makes the others (infra/postgres/init-roles.sh) and that no Arbiter process uses
DB_PASSWORDS = (("POSTGRES_PASSWORD", "postgres-password", "postgres"),
                ("ARBITER_OWNER_PASSWORD", "owner-password", OWNER_ROLE),
                ("ARBITER_APP_PASSWORD", "app-password", SERVICES_ROLE))


def config(target: Target) -> dict[str, str]:
    """The non-secret settings every process gets (`arbiter_services/settings.py`)."""
    return {
        "ARBITER_BROKER": "kafka:9092" if target == "compose"
        else "arbiter-kafka-bootstrap:9092",
        # topics belong to the topics job (compose) or Strimzi's topic operator (k8s)
        "ARBITER_TOPICS": "operator",
        "ARBITER_BROKER_GRACE_S": "60",
        "ARBITER_HTTP_HOST": "0.0.0.0",
        "ARBITER_HTTP_PORT": str(HTTP_PORT),
        "ARBITER_FETCH_MAX_WAIT_MS": "10",
        # Kafka refuses group sessions under group.min.session.timeout.ms (6 s)
        "ARBITER_SESSION_TIMEOUT_MS": "6000",
        "ARBITER_LOG_LEVEL": "INFO",
        "OTEL_EXPORTER_OTLP_ENDPOINT": "http://otel-collector:4318",
    }


#: set per process: its trace service name and its instance name (k8s: the pod's)
PER_PROCESS = ("OTEL_SERVICE_NAME", "ARBITER_INSTANCE")


def secrets_of(process: str) -> tuple[SecretVar, ...]:
    return tuple(s for s in SECRETS if process in s.processes)


def env_names(process: str, target: Target = "k8s") -> set[str]:
    """Every environment variable name process `process` gets."""
    return set(config(target)) | set(PER_PROCESS) | {s.env for s in secrets_of(process)}


def command(process: str) -> list[str]:
    """The container command of a process: the launcher's, run by the image's Python."""
    return ["python", "-m", *process_command(process)]


def is_consumer(process: str) -> bool:
    return process in SERVICES


__all__ = ["PROCESSES", "RELAY", "SECRETS", "SecretVar", "command", "config", "env_names"]
