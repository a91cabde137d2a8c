"""`python -m arbiter_gateway [--store URL] [--broker HOST:PORT] [--http-port N]`: the
HTTP/WebSocket gateway as a process, until SIGTERM (settings: arbiter_services.settings,
and arbiter_gateway.settings for its secrets and credentials).

`python -m arbiter_gateway hash-password [--name NAME]`: a credential hash for
`ARBITER_JUDGES` / `ARBITER_ORGANISERS` (docs/security.md), the password read from
standard input (or asked for on a terminal); prints `NAME=scrypt:...` or the hash."""

from __future__ import annotations

import argparse
import getpass
import re
import sys

import uvicorn

from arbiter_gateway.passwords import NAME_PATTERN, hash_password
from arbiter_gateway.server import build_gateway
from arbiter_services import settings as settings_mod
from arbiter_services.observability import log, setup_logging, setup_tracing
from arbiter_services.process import serve
from arbiter_services.settings import Settings
from arbiter_services.stores import open_service_store


def run_gateway(s: Settings) -> None:
    setup_logging("gateway", s.log_level)
    if not s.store:
        log().error("set the event store: --store or ARBITER_STORE")
        raise SystemExit(2)
    tracer = setup_tracing("gateway")
    store = open_service_store(s.store, s.sqlite_sync)
    app, _ = build_gateway(store, s, tracer)
    log().info("starting", role="gateway", broker=s.broker, http_port=s.http_port or 8080,
               topics=s.topics, broker_grace_s=s.broker_grace_s)
    config = uvicorn.Config(app, host=s.http_host, port=s.http_port or 8080, log_config=None,
                            access_log=False, lifespan="on", timeout_graceful_shutdown=10)
    try:
        serve(config)
    finally:
        tracer.shutdown()
        store.close()
        log().info("stopped", role="gateway")


def hash_password_cli(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="arbiter_gateway hash-password")
    ap.add_argument("--name", help="print NAME=hash, an entry of ARBITER_JUDGES")
    a = ap.parse_args(argv)
    if a.name is not None and not re.match(NAME_PATTERN, a.name):
        print(f"a name matches {NAME_PATTERN}", file=sys.stderr)
        return 2
    password = (getpass.getpass("password: ") if sys.stdin.isatty()
                else sys.stdin.readline().rstrip("\n"))
    if len(password) < 8:
        print("a password has at least 8 characters", file=sys.stderr)
        return 2
    encoded = hash_password(password)
    print(f"{a.name}={encoded}" if a.name else encoded)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["hash-password"]:
        return hash_password_cli(args[1:])
    ap = argparse.ArgumentParser(prog="arbiter_gateway", description=__doc__)
    ap.add_argument("--store")
    ap.add_argument("--broker")
    ap.add_argument("--http-port", type=int)
    ap.add_argument("--http-host")
    a = ap.parse_args(args)
    run_gateway(settings_mod.from_env().with_(store=a.store, broker=a.broker,
                                              http_port=a.http_port, http_host=a.http_host))
    return 0


if __name__ == "__main__":
    sys.exit(main())
