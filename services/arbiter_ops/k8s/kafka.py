"""The Kafka cluster and its topics, for Strimzi 0.49 or later (API `kafka.strimzi.io/v1`;
v1beta2 is deprecated there and goes in Strimzi 0.52 / 1.0): a `Kafka` in KRaft mode
(no ZooKeeper) with `KafkaNodePool`s, and a `KafkaTopic` per topic of the topics module.
Strimzi's topic operator owns the topics (the processes run with `ARBITER_TOPICS=operator`
and never create one; the brokers do not auto-create topics either)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arbiter_ops import deployment as d
from arbiter_services.topics import TOPICS

API = "kafka.strimzi.io/v1"
CLUSTER = "arbiter"


@dataclass(frozen=True)
class KafkaSize:
    brokers: int
    controllers: int  # 0: the brokers are the controllers too (one dual-role pool)
    replication: int
    min_insync: int
    broker_storage: str
    broker_cpu: str
    broker_memory: str
    retention_ms: int
    #: partitions per topic name (default: the topics module's)
    partitions: dict[str, int]


def _pool(name: str, roles: list[str], replicas: int, storage: str, cpu: str,
          memory: str) -> dict[str, Any]:
    return {"apiVersion": API, "kind": "KafkaNodePool",
            "metadata": {"name": name, "labels": {"strimzi.io/cluster": CLUSTER}},
            "spec": {"replicas": replicas, "roles": roles,
                     "storage": {"type": "jbod", "volumes": [{
                         "id": 0, "type": "persistent-claim", "size": storage,
                         "deleteClaim": False, "kraftMetadata": "shared"}]},
                     "resources": {"requests": {"cpu": cpu, "memory": memory},
                                   "limits": {"memory": memory}}}}


def cluster(size: KafkaSize) -> list[dict[str, Any]]:
    config = {"auto.create.topics.enable": False,
              "default.replication.factor": size.replication,
              "min.insync.replicas": size.min_insync,
              "offsets.topic.replication.factor": size.replication,
              "transaction.state.log.replication.factor": size.replication,
              "transaction.state.log.min.isr": size.min_insync,
              "group.initial.rebalance.delay.ms": 0}
    kafka = {"apiVersion": API, "kind": "Kafka", "metadata": {"name": CLUSTER},
             "spec": {"kafka": {"version": d.KAFKA_VERSION,
                                "listeners": [{"name": "plain", "port": 9092,
                                               "type": "internal", "tls": False}],
                                "config": config},
                      "entityOperator": {"topicOperator": {}}}}
    if size.controllers:
        pools = [_pool("controller", ["controller"], size.controllers, "20Gi", "500m",
                       "2Gi"),
                 _pool("broker", ["broker"], size.brokers, size.broker_storage,
                       size.broker_cpu, size.broker_memory)]
    else:
        pools = [_pool("dual", ["controller", "broker"], size.brokers, size.broker_storage,
                       size.broker_cpu, size.broker_memory)]
    return [kafka, *pools]


def topics(size: KafkaSize) -> list[dict[str, Any]]:
    return [{"apiVersion": API, "kind": "KafkaTopic",
             "metadata": {"name": t.name, "labels": {"strimzi.io/cluster": CLUSTER}},
             "spec": {"topicName": t.name,
                      "partitions": size.partitions.get(t.name, t.partitions),
                      "replicas": size.replication,
                      "config": {"retention.ms": size.retention_ms,
                                 "min.insync.replicas": size.min_insync}}}
            for t in TOPICS]
