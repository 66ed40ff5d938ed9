"""What a shared store costs: CPU and latency per flow with Redis versus SQLite, single-use and not.

One askback server (uvicorn, one worker) serves `greet`, whose `city` is asked for: a flow is two requests. With
`--once` variants the tool is single-use, so the final round holds its run and starts it (two short scripts in
Redis, an `INSERT ... ON CONFLICT` and an `UPDATE` in SQLite); without, a flow never touches the store. Each
variant gets a fresh server; Redis is a private `redis-server` started here, so its own CPU time can be read and
added (SQLite's work happens inside the server process). The load generator is bench/load.py's, in this process.

    python bench/stores.py            # 3 runs per variant, medians, about two minutes
    python bench/stores.py --quick    # 1 short run per variant
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.load import cpu_seconds, measure  # noqa: E402
from bench.servers import KEY_TEXT  # noqa: E402

VARIANTS = (("sqlite", False), ("redis", False), ("sqlite", True), ("redis", True))
CONCURRENCY = (1, 16)


def serve(port: int) -> None:
    """The measured server (run as `python bench/stores.py --serve PORT`): store and once from the environment."""
    import uvicorn

    import askback
    from askback.mcp.http import http_app

    app = askback.App("bench-stores", keys=KEY_TEXT)

    @app.tool(once=os.environ.get("BENCH_ONCE") == "1")
    async def greet(name: str, city: Annotated[str, Field(description="City to greet from")]) -> str:
        """Greet someone from a city."""
        return f"Hello {name} from {city}"

    uvicorn.run(http_app(app), host="127.0.0.1", port=port, log_level="warning")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, process: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not start")


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def one_run(store: str, once: bool, concurrency: int, redis_port: int, redis_pid: int, workdir: Path,
            warmup: float, seconds: float) -> dict[str, Any]:
    port = free_port()
    url = f"redis://127.0.0.1:{redis_port}/0" if store == "redis" else f"sqlite:///{workdir / 'bench.sqlite3'}"
    env = {**os.environ, "ASKBACK_STORE": url, "ASKBACK_DATA_DIR": str(workdir / "data"),
           "BENCH_ONCE": "1" if once else "0"}
    server = subprocess.Popen([sys.executable, str(Path(__file__)), "--serve", str(port)], cwd=ROOT, env=env)
    try:
        wait_port(port, server, "the askback server")
        redis0 = cpu_seconds(redis_pid)
        result = asyncio.run(measure(port, server.pid, 2, concurrency, warmup, seconds, min_flows=200))
        # Redis's CPU over the warm-up and the batch, charged per flow of both (an upper bound for the batch).
        redis_cpu = cpu_seconds(redis_pid) - redis0 if store == "redis" else 0.0
        result["redis_cpu_ms_per_flow"] = redis_cpu / max(result["flows"] + result["warmup_flows"], 1) * 1e3
        return result
    finally:
        stop(server)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true", help="one short run per variant")
    parser.add_argument("--runs", type=int, default=None)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return
    binary = shutil.which("redis-server")
    if binary is None:
        sys.exit("bench/stores.py needs redis-server (Debian: apt-get install redis-server)")
    runs = args.runs or (1 if args.quick else 3)
    warmup, seconds = (0.5, 1.5) if args.quick else (1.0, 3.0)
    workdir = Path(tempfile.mkdtemp(prefix="askback-bench-stores-"))
    redis_port = free_port()
    redis = subprocess.Popen([binary, "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
                              "--appendonly", "no", "--dir", str(workdir)], stdout=subprocess.DEVNULL)
    rows: dict[tuple[str, bool, int], list[dict[str, Any]]] = {}
    try:
        wait_port(redis_port, redis, "redis-server")
        for _ in range(runs):
            for concurrency in CONCURRENCY:
                for store, once in VARIANTS:
                    r = one_run(store, once, concurrency, redis_port, redis.pid, workdir, warmup, seconds)
                    if r["errors"]:
                        sys.exit(f"{store} once={once}: {r['errors']} errors: {r['error_samples']}")
                    rows.setdefault((store, once, concurrency), []).append(r)
    finally:
        stop(redis)
        shutil.rmtree(workdir, ignore_errors=True)
    print(table(rows, runs))


def med(results: list[dict[str, Any]], key: str) -> float:
    return statistics.median(r[key] for r in results)


def table(rows: dict[tuple[str, bool, int], list[dict[str, Any]]], runs: int) -> str:
    lines = [
        f"Store cost per flow (2 requests; median of {runs} run(s); server = the askback process, "
        "Redis = redis-server's own CPU)",
        "",
        "| flow | K | store | flows/s | p50 ms/request | p99 ms/request | server CPU ms/flow | + Redis CPU ms/flow "
        "| CPU vs SQLite | p50 vs SQLite |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for concurrency in CONCURRENCY:
        for once in (False, True):
            base = rows[("sqlite", once, concurrency)]
            base_cpu, base_p50 = med(base, "cpu_ms_per_flow"), med(base, "p50_ms")
            for store in ("sqlite", "redis"):
                rs = rows[(store, once, concurrency)]
                cpu, redis_cpu = med(rs, "cpu_ms_per_flow"), med(rs, "redis_cpu_ms_per_flow")
                p50 = med(rs, "p50_ms")
                lines.append(
                    f"| {'single-use' if once else 'plain'} | {concurrency} | {store} | {med(rs, 'flows_per_s'):.0f} "
                    f"| {p50:.2f} | {med(rs, 'p99_ms'):.2f} | {cpu:.3f} | {redis_cpu:.3f} "
                    f"| {(cpu + redis_cpu) / base_cpu:.2f}x | {p50 / base_p50:.2f}x |"
                )
    return "\n".join(lines)


if __name__ == "__main__":
    main()
