"""The generated files are committed as generated: topics, AsyncAPI, compose, k8s/ and
infra/ come from one place (the topics module, `arbiter_ops.deployment`)."""

from __future__ import annotations

import typing

import yaml

from arbiter_core.kernel.commands import Command
from arbiter_core.kernel.decide import WORK_OWNERS
from arbiter_ops.asyncapi import asyncapi_yaml
from arbiter_ops.deployfiles import generated, stale
from arbiter_services.topics import COMMAND_CONSUMERS, SERVICES, TOPIC_BY_NAME, TOPICS, work_topic

from .harness import ROOT


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
    assert {c["address"] for c in doc["channels"].values()} == set(TOPIC_BY_NAME)
    assert {"CommandEnvelope", "WorkItem"} <= set(doc["components"]["schemas"])


def test_the_deployment_files_are_committed_as_generated() -> None:
    differ = [rel for rel, text in generated().items()
              if not (ROOT / rel).exists() or (ROOT / rel).read_text() != text]
    assert differ == [], "run `make deploy-files`"
    assert stale(ROOT) == []
