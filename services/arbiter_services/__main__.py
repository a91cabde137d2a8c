"""`python -m arbiter_services ...`: the services' runtime commands (the image's).

    run ROLE       a service (turn-orchestrator, stack-resolver, sba-checker, variants)
                   or the relay, until SIGTERM
    topics         create every missing topic on a broker (a one-shot job: compose's
                   `topics` service; on Kubernetes Strimzi's topic operator owns them)
    wait-store     wait until the event store is reachable and migrated (each pod's init
                   container on Kubernetes, after the migration Job; exit 1 on timeout)

The gateway is `python -m arbiter_gateway`; the local cluster, the bench and the
deployment files are the operations package's (`python -m arbiter_ops`).
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from arbiter_services import settings as settings_mod


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="arbiter_services", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    run = sub.add_parser("run")
    run.add_argument("role")
    run.add_argument("--store")
    run.add_argument("--broker")
    run.add_argument("--http-port", type=int)
    run.add_argument("--http-host")
    topics = sub.add_parser("topics")
    topics.add_argument("--broker", default=None, help="default: ARBITER_BROKER")
    topics.add_argument("--replication", type=int, default=1)
    topics.add_argument("--config", action="append", default=[], metavar="KEY=VALUE",
                        help="a topic config, e.g. min.insync.replicas=1")
    topics.add_argument("--wait", type=float, default=120,
                        help="retry for this many seconds while the broker is away")
    wait = sub.add_parser("wait-store")
    wait.add_argument("--store", help="default: ARBITER_STORE")
    wait.add_argument("--timeout", type=float, default=600)
    a = ap.parse_args(argv)
    s = settings_mod.from_env()
    if a.cmd == "wait-store":
        from arbiter_services.logs import setup_logging
        from arbiter_services.stores import wait_until_migrated
        setup_logging("wait-store", s.log_level)
        return wait_until_migrated(a.store or s.store, a.timeout)
    if a.cmd == "run":
        from arbiter_services.process import run_role
        run_role(a.role, s.with_(store=a.store, broker=a.broker, http_port=a.http_port,
                                 http_host=a.http_host))
        return 0
    from arbiter_services.observability import log, setup_logging
    from arbiter_services.topic_admin import wait_and_ensure
    setup_logging("topics", s.log_level)
    config = dict(kv.split("=", 1) for kv in a.config)
    made = asyncio.run(wait_and_ensure(a.broker or s.broker, a.replication, config, a.wait))
    log().info("topics created", created=made, replication=a.replication, config=config)
    return 0


if __name__ == "__main__":
    sys.exit(main())
