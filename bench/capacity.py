"""The capacity model checked against a measurement here: 1, 2 and 4 askback replicas behind HAProxy, on one
Redis and then on a 3-primary Redis Cluster, all on this machine's loopback.

Each replica is bench/stores.py's server (`greet`, single-use: a flow is two requests, the last one holds and
starts the run in the store); HAProxy (bench/haproxy.py) balances every request round-robin; the load is
bench/load.py's, `--concurrency` flows at a time for `--seconds`. Read from /proc: the CPU time of every askback
replica, of every Redis process, of HAProxy and of this load generator, per completed flow. docs/scale.md
compares them with the model's per-core and per-primary figures.

    python bench/capacity.py                 # 4 s per row, 32 concurrent flows, about two minutes
    python bench/capacity.py --seconds 2     # quicker
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.haproxy import HAProxy  # noqa: E402
from bench.load import cpu_seconds, drive  # noqa: E402
from bench.redis_topologies import PrivateCluster  # noqa: E402
from bench.stores import free_port, stop, wait_port  # noqa: E402

REPLICAS = (1, 2, 4)


def _cpu(pids: list[int]) -> float:
    return sum(cpu_seconds(pid) for pid in pids)


def one_row(url: str, redis_pids: list[int], replicas: int, concurrency: int, seconds: float,
            workdir: Path) -> dict[str, Any]:
    env = {**os.environ, "ASKBACK_STORE": url, "ASKBACK_DATA_DIR": str(workdir / "data"), "BENCH_ONCE": "1"}
    servers: dict[str, tuple[int, subprocess.Popen[bytes]]] = {}
    lb: HAProxy | None = None
    try:
        for n in range(replicas):
            port = free_port()
            servers[f"r{n}"] = port, subprocess.Popen(
                [sys.executable, str(ROOT / "bench" / "stores.py"), "--serve", str(port)], cwd=ROOT, env=env)
        for name, (port, process) in servers.items():
            wait_port(port, process, f"askback replica {name}")
        lb = HAProxy(free_port(), {name: port for name, (port, _) in servers.items()}).start()
        assert lb.process is not None
        warm, _ = asyncio.run(drive(lb.port, 2, concurrency, seconds=1.0))
        askback = [p.pid for _, p in servers.values()]
        before = _cpu(askback), _cpu(redis_pids), cpu_seconds(lb.process.pid), time.process_time()
        tally, wall = asyncio.run(drive(lb.port, 2, concurrency, seconds=seconds))
        after = _cpu(askback), _cpu(redis_pids), cpu_seconds(lb.process.pid), time.process_time()
        flows = max(tally.flows, 1)
        per = [(b - a) / flows * 1e3 for a, b in zip(before, after, strict=True)]
        return {"replicas": replicas, "flows_per_s": tally.flows / wall, "askback_ms": per[0], "redis_ms": per[1],
                "haproxy_ms": per[2], "load_ms": per[3], "errors": tally.errors + warm.errors,
                "samples": tally.samples[:2]}
    finally:
        if lb is not None:
            lb.stop()
        for _, process in servers.values():
            stop(process)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--concurrency", type=int, default=32)
    args = parser.parse_args()
    binary = shutil.which("redis-server")
    if binary is None:
        sys.exit("bench/capacity.py needs redis-server (Debian: apt-get install redis-server)")
    workdir = Path(tempfile.mkdtemp(prefix="askback-bench-capacity-"))
    rows: list[tuple[str, dict[str, Any]]] = []
    redis_port = free_port()
    redis = subprocess.Popen([binary, "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
                              "--appendonly", "no", "--dir", str(workdir)], stdout=subprocess.DEVNULL)
    try:
        wait_port(redis_port, redis, "redis-server")
        for replicas in REPLICAS:
            rows.append(("one Redis", one_row(f"redis://127.0.0.1:{redis_port}/0", [redis.pid], replicas,
                                              args.concurrency, args.seconds, workdir)))
    finally:
        stop(redis)
    cluster = PrivateCluster(3)
    try:
        cluster.start()
        pids = [p.pid for p in cluster.processes.values()]
        for replicas in REPLICAS:
            rows.append(("Cluster, 3 primaries", one_row(cluster.url, pids, replicas, args.concurrency,
                                                         args.seconds, workdir)))
    finally:
        cluster.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"\nsingle-use flows (two requests each), {args.concurrency} at a time through HAProxy, "
          f"{args.seconds:g} s per row, {os.cpu_count()} cores\n")
    print("| store | askback replicas | flows/s | askback CPU ms/flow | Redis CPU ms/flow | HAProxy CPU ms/flow "
          "| load generator CPU ms/flow | errors |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for store, r in rows:
        print(f"| {store} | {r['replicas']} | {r['flows_per_s']:,.0f} | {r['askback_ms']:.2f} | {r['redis_ms']:.3f} "
              f"| {r['haproxy_ms']:.3f} | {r['load_ms']:.2f} | {r['errors']} |")
    for store, r in rows:
        for sample in r["samples"]:
            print(f"{store}, {r['replicas']} replicas: {sample}")


if __name__ == "__main__":
    main()
