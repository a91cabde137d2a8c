"""`python -m arbiter_ops ...`: operating Arbiter (the processes themselves are
`python -m arbiter_services run ROLE` and `python -m arbiter_gateway`).

    up / down      Tansu + every process on this machine (pids in --run-dir)
    play           a bot game through a running gateway (`arbiter play --distributed`)
    bench          latency and throughput through the services (starts its own cluster);
                   --grand-melee: stack resolutions/s with 1 and 2 stack resolvers,
                   --full: and the time to finish the game
    asyncapi       print the AsyncAPI document generated from the apps
    deploy-files   write k8s/, docker-compose.yml, infra/ and .env.example, generated
                   from the topics module and the process list (`make deploy-files`)
    deploy-check   validate them offline (`make deploy-check`)
    profile ROLE   run a service under cProfile (--out DIR, or ARBITER_PROFILE)
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from arbiter_services import settings as settings_mod

DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/test"


def store_url(value: str, run_dir: Path) -> str:
    if value == "sqlite":
        return str((run_dir / "arbiter.sqlite").resolve())
    if value in ("postgres", "postgresql", "pg"):
        return DEFAULT_PG
    return value


def _exit_on_sigterm() -> None:
    import signal

    def stop(signum: int, _: object) -> None:
        raise SystemExit(128 + signum)
    signal.signal(signal.SIGTERM, stop)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="arbiter_ops", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    prof = sub.add_parser("profile")
    prof.add_argument("role")
    prof.add_argument("--out", help="default: ARBITER_PROFILE")
    prof.add_argument("--store")
    prof.add_argument("--broker")
    prof.add_argument("--http-port", type=int)
    up = sub.add_parser("up")
    up.add_argument("--store", default="sqlite", help="sqlite, postgres, or a store URL")
    up.add_argument("--run-dir", type=Path, default=Path(".arbiter"))
    up.add_argument("--broker-port", type=int, default=9092)
    up.add_argument("--gateway-port", type=int, default=8080)
    up.add_argument("--resolvers", type=int, default=1,
                    help="stack-resolver processes (one consumer group, work keyed "
                         "game:marker)")
    down = sub.add_parser("down")
    down.add_argument("--run-dir", type=Path, default=Path(".arbiter"))
    play = sub.add_parser("play")
    play.add_argument("--gateway", default="http://127.0.0.1:8080")
    play.add_argument("--players", type=int, default=4)
    play.add_argument("--seed", type=int, default=1)
    play.add_argument("--variant", default="free_for_all")
    play.add_argument("--game")
    play.add_argument("--resolvers", type=int, default=None,
                      help="start a local cluster with this many stack resolvers for the "
                           "game (instead of using a running gateway)")
    play.add_argument("--store", default="sqlite",
                      help="with --resolvers: sqlite, postgres, or a store URL")
    play.add_argument("--run-dir", type=Path, default=Path(".arbiter-play"))
    sub.add_parser("asyncapi").add_argument("--out", type=Path)
    bench_p = sub.add_parser("bench")
    bench_p.add_argument("--seconds", type=float, default=30)
    bench_p.add_argument("--deck-size", type=int, default=None)
    bench_p.add_argument("--grand-melee", action="store_true",
                         help="stack resolutions/s of one Grand Melee game with 1 and with "
                              "2 stack-resolver processes (--seconds each)")
    bench_p.add_argument("--players", type=int, default=100)
    bench_p.add_argument("--resolvers", type=int, nargs="+", default=[1, 2])
    bench_p.add_argument("--full", action="store_true",
                         help="with --grand-melee: also play the game to its end through "
                              "the gateway with the most resolvers (the time to finish)")
    sub.add_parser("deploy-files").add_argument("--root", type=Path, default=Path("."))
    sub.add_parser("deploy-check").add_argument("--root", type=Path, default=Path("."))
    a = ap.parse_args(argv)

    if a.cmd == "profile":
        import os

        from arbiter_ops.profiling import install
        from arbiter_services.process import run_role
        out = a.out or os.environ.get("ARBITER_PROFILE")
        if not out:
            raise SystemExit("set --out DIR or ARBITER_PROFILE")
        install(out, os.environ.get("ARBITER_INSTANCE") or a.role)
        run_role(a.role, settings_mod.from_env().with_(store=a.store, broker=a.broker,
                                                       http_port=a.http_port))
        return 0
    if a.cmd == "up":
        from arbiter_ops.launcher import Cluster
        cluster = Cluster(store_url(a.store, a.run_dir), a.run_dir, a.broker_port,
                          a.gateway_port, resolvers=a.resolvers)
        try:
            cluster.start()
        except BaseException:
            cluster.stop()
            raise
        cluster.write_pids()
        print(f"arbiter is up: gateway {cluster.gateway_url}, broker "
              f"{cluster.broker.bootstrap}, store {cluster.store}; logs in {a.run_dir}/")
        return 0
    if a.cmd == "down":
        from arbiter_ops.launcher import down as stop_all
        stopped = stop_all(a.run_dir)
        print("stopped " + (", ".join(stopped) if stopped else "nothing (not up)"))
        return 0
    if a.cmd == "play":
        from arbiter_ops.play import play_cli
        if a.resolvers is None:
            from arbiter_gateway.logins import StaffLogins
            return asyncio.run(play_cli(a.gateway, a.players, a.seed, a.variant, a.game,
                                        StaffLogins.load(a.run_dir)))
        from arbiter_ops.launcher import Cluster
        from arbiter_ops.tansu import free_port
        cluster = Cluster(store_url(a.store, a.run_dir), a.run_dir, free_port(),
                          resolvers=a.resolvers)
        _exit_on_sigterm()  # (a `timeout`): stop the cluster on the way out
        try:
            cluster.start(timeout=120)
            print(f"started {a.resolvers} stack resolver(s); logs in {a.run_dir}/")
            return asyncio.run(play_cli(cluster.gateway_url, a.players, a.seed, a.variant,
                                        a.game, cluster.logins, cluster.store))
        finally:
            cluster.stop()
    if a.cmd == "bench":
        if a.grand_melee:
            from arbiter_ops.melee_bench import bench as melee_bench
            melee_bench(a.players, a.seconds, tuple(a.resolvers), full=a.full)
            return 0
        from arbiter_ops.bench import main as bench
        bench(a.seconds, a.deck_size)
        return 0
    if a.cmd == "asyncapi":
        from arbiter_ops.asyncapi import asyncapi_yaml
        text = asyncapi_yaml()
        if a.out:
            a.out.write_text(text)
        else:
            sys.stdout.write(text)
        return 0
    if a.cmd == "deploy-files":
        from arbiter_ops.deployfiles import write_all
        for path in write_all(a.root):
            print(path)
        return 0
    if a.cmd == "deploy-check":
        from arbiter_ops.deploy_check import check
        return check(a.root)
    return 2


if __name__ == "__main__":
    sys.exit(main())
