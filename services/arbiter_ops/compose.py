"""docker-compose.yml (`make deploy-files`): the whole production-like stack on one host.

Apache Kafka in KRaft mode (one node, no ZooKeeper) and a one-shot `topics` job that
creates the topics of the topics module; PostgreSQL 16 with the two roles
(`infra/postgres/init-roles.sh`) and a one-shot `migrate` job (`arbiter db upgrade`, as
the owner role) that every process waits for; the relay, the four services and the
gateway (the commands of `deployment.py`, read-only root filesystems, no capabilities),
each with a healthcheck; an OpenTelemetry collector exporting to Jaeger, and Prometheus
scraping every process (`infra/prometheus/prometheus.yml`). Secrets come from `.env`
(`.env.example`).

Tansu, the memory-only development broker, replaces Kafka with a second file,
`infra/compose.tansu.yml` (`tansu_override`):

    docker compose -f docker-compose.yml -f infra/compose.tansu.yml up -d

It adds the `tansu` service, puts `kafka` in a profile nobody starts, and replaces every
`depends_on` on Kafka (`!override`: Compose would otherwise merge the two files'
`depends_on` and still wait for Kafka's healthcheck); the processes use `tansu:9092` and
keep their topics themselves (`ARBITER_TOPICS=keeper`, as `arbiter up` does: a restarted
Tansu has lost them). A profile in one file cannot express this: a service's `depends_on`
cannot change with the profiles that are active.
"""

from __future__ import annotations

from typing import Any

import yaml

from arbiter_ops import deployment as d

#: the development broker's file (beside docker-compose.yml: `-f` both)
TANSU_FILE = "infra/compose.tansu.yml"
TANSU_BROKER = "tansu:9092"
IMAGE = f"{d.IMAGE}:{d.VERSION}"
BUILD = {"context": ".", "dockerfile": "infra/Dockerfile"}
HARDENED: dict[str, Any] = {"read_only": True, "tmpfs": ["/tmp"], "cap_drop": ["ALL"],
                            "security_opt": ["no-new-privileges:true"]}
ONE_SHOT = {"condition": "service_completed_successfully"}
HEALTHY = {"condition": "service_healthy"}
STARTED = {"condition": "service_started"}


class Override(dict[str, Any]):
    """A mapping Compose replaces rather than merges with the first file's (`!override`,
    Compose 2.24+)."""


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:  # no &id001 anchors: each spelled out
        return True


_Dumper.add_representer(
    Override, lambda dumper, data: dumper.represent_mapping("!override", dict(data)))


def _ready_check(port: int = d.HTTP_PORT) -> dict[str, Any]:
    return {"test": ["CMD", "python", "-c",
                     "import urllib.request;urllib.request.urlopen("
                     f"'http://127.0.0.1:{port}/health/ready', timeout=2)"],
            "interval": "5s", "timeout": "3s", "retries": 12, "start_period": "20s"}


def _process(name: str) -> dict[str, Any]:
    env = {**d.config("compose"),
           "ARBITER_BROKER": "${ARBITER_BROKER:-kafka:9092}",
           "OTEL_SERVICE_NAME": f"arbiter-{name}", "ARBITER_INSTANCE": name,
           **{s.env: s.compose_value() for s in d.secrets_of(name)}}
    svc: dict[str, Any] = {
        "image": IMAGE, "build": BUILD, "command": d.command(name), "environment": env,
        "depends_on": {"migrate": ONE_SHOT, "topics": ONE_SHOT, "kafka": HEALTHY,
                       "otel-collector": STARTED},
        "healthcheck": _ready_check(), "stop_grace_period": f"{d.GRACE_S}s",
        "restart": "unless-stopped", **HARDENED,
    }
    if name == "gateway":
        svc["ports"] = [f"8080:{d.HTTP_PORT}"]
    return svc


def _kafka() -> dict[str, Any]:
    return {
        "image": d.KAFKA_IMAGE,
        "environment": {
            "KAFKA_NODE_ID": "1", "KAFKA_PROCESS_ROLES": "broker,controller",
            "KAFKA_LISTENERS": "PLAINTEXT://:9092,CONTROLLER://:9093",
            "KAFKA_ADVERTISED_LISTENERS": "PLAINTEXT://kafka:9092",
            "KAFKA_CONTROLLER_LISTENER_NAMES": "CONTROLLER",
            "KAFKA_LISTENER_SECURITY_PROTOCOL_MAP": "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
            "KAFKA_CONTROLLER_QUORUM_VOTERS": "1@kafka:9093",
            "KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR": "1",
            "KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR": "1",
            "KAFKA_TRANSACTION_STATE_LOG_MIN_ISR": "1",
            "KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS": "0",
            # topics are the topics job's (production: Strimzi's topic operator)
            "KAFKA_AUTO_CREATE_TOPICS_ENABLE": "false",
            "KAFKA_LOG_DIRS": "/var/lib/kafka/data",
        },
        "volumes": ["kafka-data:/var/lib/kafka/data"],
        "healthcheck": {"test": ["CMD-SHELL", "/opt/kafka/bin/kafka-broker-api-versions.sh "
                                 "--bootstrap-server localhost:9092 >/dev/null"],
                        "interval": "5s", "timeout": "10s", "retries": 24,
                        "start_period": "15s"},
        "restart": "unless-stopped",
    }


def _postgres() -> dict[str, Any]:
    env = {"POSTGRES_USER": "postgres", "ARBITER_DB": "arbiter",
           "ARBITER_OWNER_ROLE": d.OWNER_ROLE, "ARBITER_APP_ROLE": d.SERVICES_ROLE,
           **{env: f"${{{env}:?set it in .env}}" for env, _, _ in d.DB_PASSWORDS}}
    return {"image": d.POSTGRES_IMAGE, "environment": env,
            "volumes": ["pgdata:/var/lib/postgresql/data",
                        "./infra/postgres/init-roles.sh:/docker-entrypoint-initdb.d/"
                        "10-roles.sh:ro"],
            "healthcheck": {"test": ["CMD", "pg_isready", "-U", d.OWNER_ROLE, "-d",
                                     "arbiter", "-h", "127.0.0.1"],
                            "interval": "2s", "timeout": "3s", "retries": 30},
            "restart": "unless-stopped"}


def _jobs() -> dict[str, Any]:
    migrate = {"image": IMAGE, "build": BUILD,
               "command": ["sh", "-c", 'exec arbiter db upgrade --db "$$ARBITER_OWNER_STORE"'],
               "environment": {**d.MIGRATE_CONFIG,
                               d.OWNER_STORE.env: d.OWNER_STORE.compose_value()},
               "depends_on": {"postgres": HEALTHY}, "restart": "on-failure:3", **HARDENED}
    topics = {"image": IMAGE, "build": BUILD,
              "command": ["python", "-m", "arbiter_services", "topics", "--replication", "1",
                          "--config", "min.insync.replicas=1",
                          "--config", "retention.ms=604800000"],
              "environment": {"ARBITER_BROKER": "${ARBITER_BROKER:-kafka:9092}"},
              "depends_on": {"kafka": HEALTHY}, "restart": "on-failure:3", **HARDENED}
    return {"migrate": migrate, "topics": topics}


def _observability() -> dict[str, Any]:
    return {
        "otel-collector": {"image": d.OTEL_IMAGE,
                           "command": ["--config=/etc/otelcol/config.yaml"],
                           "volumes": ["./infra/otel/collector.yaml:/etc/otelcol/config.yaml:ro"],
                           "depends_on": ["jaeger"], "restart": "unless-stopped"},
        "jaeger": {"image": d.JAEGER_IMAGE, "ports": ["16686:16686"],
                   "restart": "unless-stopped"},
        "prometheus": {"image": d.PROMETHEUS_IMAGE,
                       "command": ["--config.file=/etc/prometheus/prometheus.yml"],
                       "volumes": ["./infra/prometheus/prometheus.yml:"
                                   "/etc/prometheus/prometheus.yml:ro"],
                       "ports": ["9090:9090"], "restart": "unless-stopped"},
    }


def _tansu() -> dict[str, Any]:
    """The development broker, memory only (`arbiter up` runs it without Docker)."""
    return {"image": d.TANSU_IMAGE,
            "command": ["broker", "--listener-url", "tcp://0.0.0.0:9092",
                        "--advertised-listener-url", f"tcp://{TANSU_BROKER}",
                        "--storage-engine", "memory://tansu/"],
            "restart": "unless-stopped"}


def compose() -> dict[str, Any]:
    services: dict[str, Any] = {"kafka": _kafka(), "postgres": _postgres(), **_jobs()}
    for name in d.PROCESSES:
        services[name] = _process(name)
    services.update(_observability())
    return {"name": "arbiter", "services": services,
            "volumes": {"pgdata": {}, "kafka-data": {}}}


def _without_kafka(depends_on: dict[str, Any]) -> Override:
    return Override({**{k: v for k, v in depends_on.items() if k != "kafka"},
                     "tansu": STARTED})


def tansu_override() -> dict[str, Any]:
    """`infra/compose.tansu.yml`: Tansu instead of Kafka, on top of docker-compose.yml."""
    base = compose()["services"]
    services: dict[str, Any] = {
        "kafka": {"profiles": ["kafka"]},  # in a profile nobody activates: not started
        "tansu": _tansu(),
        "topics": {"environment": {"ARBITER_BROKER": TANSU_BROKER},
                   "depends_on": _without_kafka(base["topics"]["depends_on"])}}
    for name in d.PROCESSES:
        services[name] = {"environment": {"ARBITER_BROKER": TANSU_BROKER,
                                          "ARBITER_TOPICS": "keeper"},
                          "depends_on": _without_kafka(base[name]["depends_on"])}
    return {"services": services}


def render() -> str:
    head = ("# Generated by `make deploy-files` (arbiter_ops/compose.py); do not edit. The "
            "same processes as `make up` and k8s/.\n# Secrets: copy .env.example to .env "
            "and fill it in. See docs/deploy.md.\n")
    return head + yaml.dump(compose(), Dumper=_Dumper, sort_keys=False,
                            default_flow_style=False, width=100)


def render_tansu() -> str:
    head = ("# Generated by `make deploy-files` (arbiter_ops/compose.py); do not edit.\n"
            "# The development broker (Tansu, memory only) instead of Kafka:\n"
            f"#   docker compose -f docker-compose.yml -f {TANSU_FILE} up -d\n"
            "# `!override` replaces docker-compose.yml's depends_on (Compose 2.24+).\n")
    return head + yaml.dump(tansu_override(), Dumper=_Dumper, sort_keys=False,
                            default_flow_style=False, width=100)
