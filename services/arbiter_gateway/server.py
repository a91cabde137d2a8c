"""Assemble a gateway: its broker (publisher + feed), its store reads and its app."""

from __future__ import annotations

import os
import secrets

from fastapi import FastAPI
from faststream.kafka import KafkaBroker
from opentelemetry.sdk.trace import TracerProvider

from arbiter_gateway.app import Gateway, create_app
from arbiter_gateway.auth import Tokens
from arbiter_gateway.feed import Feed, gateway_router
from arbiter_gateway.reads import Reads
from arbiter_services.app import new_broker
from arbiter_services.liveness import BrokerLink
from arbiter_services.observability import Metrics
from arbiter_services.recovery import TopicKeeper
from arbiter_services.settings import Settings
from arbiter_store import EventStore


def gateway_secret() -> bytes:
    """ARBITER_GATEWAY_SECRET (shared by every gateway instance), or a random one for a
    single instance."""
    raw = os.environ.get("ARBITER_GATEWAY_SECRET")
    return raw.encode() if raw else secrets.token_bytes(32)


def build_gateway(store: EventStore, s: Settings, tracer: TracerProvider,
                  secret: bytes | None = None, broker: KafkaBroker | None = None,
                  start_broker: bool = True) -> tuple[FastAPI, Gateway]:
    metrics = Metrics("gateway")
    broker = broker or new_broker(s, metrics, tracer, "arbiter-gateway")
    feed = Feed()
    router, publishers = gateway_router(feed, s)
    broker.include_router(router)
    gw = Gateway(Reads(store), broker, Tokens(secret or gateway_secret()), feed, metrics,
                 publishers)
    gw.link = BrokerLink(s.broker_grace_s)
    if start_broker and s.keeps_topics:  # the local broker: re-create topics it lost
        gw.keeper = TopicKeeper(s.broker)
    return create_app(gw, start_broker=start_broker), gw
