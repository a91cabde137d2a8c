"""Assemble a gateway: its broker (publisher + feed), its store reads and its app."""

from __future__ import annotations

from fastapi import FastAPI
from faststream.kafka import KafkaBroker
from opentelemetry.sdk.trace import TracerProvider

from arbiter_gateway.app import Gateway, create_app
from arbiter_gateway.feed import Feed, gateway_router
from arbiter_gateway.reads import Reads
from arbiter_gateway.settings import GatewaySettings
from arbiter_services.app import new_broker
from arbiter_services.liveness import BrokerLink
from arbiter_services.observability import Metrics, log
from arbiter_services.recovery import TopicKeeper
from arbiter_services.settings import Settings
from arbiter_store import EventStore


def build_gateway(store: EventStore, s: Settings, tracer: TracerProvider,
                  security: GatewaySettings | None = None, broker: KafkaBroker | None = None,
                  start_broker: bool = True) -> tuple[FastAPI, Gateway]:
    """`security`: the gateway's secrets and credentials (default: the environment's,
    `arbiter_gateway.settings`)."""
    security = security or GatewaySettings()
    metrics = Metrics("gateway")
    broker = broker or new_broker(s, metrics, tracer, "arbiter-gateway")
    feed = Feed()
    router, publishers = gateway_router(feed, s)
    broker.include_router(router)
    gw = Gateway(Reads(store), broker, security, feed, metrics, publishers)
    gw.link = BrokerLink(s.broker_grace_s)
    if not gw.judges.entries:
        log().warning("no judge credentials (ARBITER_JUDGES): nobody can log in as a judge")
    if not gw.organisers.entries:
        log().warning("no organiser credentials (ARBITER_ORGANISERS): nobody can create "
                      "a game")
    if start_broker and s.keeps_topics:  # the local broker: re-create topics it lost
        gw.keeper = TopicKeeper(s.broker)
    return create_app(gw, start_broker=start_broker), gw
