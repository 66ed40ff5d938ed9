"""Resident memory of each server, idle after start and steady after a batch of 2026-07-28 flows.

Each run starts every server in turn (bench/servers.py, the same uvicorn set-up for each), waits until it
listens and spends no CPU, reads VmRSS (idle), drives `--flows` two-round `greet` flows at `--concurrency`,
waits until it is quiet again and reads VmRSS (steady). Prints one line per run and the medians.

Every server imports from bytecode (`bench.run.compile_checkout`), as an installed package does.

Run: python -m bench.rss --runs 5 --flows 300 (from the project root).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys

from bench.load import MODERN, Tally, clients, drive, rss_kib, settled
from bench.run import Server, compile_checkout

KINDS = ("askback", "mcpserver")


async def batch(port: int, flows: int, concurrency: int) -> Tally:
    conns = clients(port, MODERN, concurrency)
    tally, _ = await drive(port, 2, concurrency, flows=flows, conns=conns)
    for c in conns:
        await c.close()
    return tally


def one(kind: str, flows: int, concurrency: int) -> dict[str, float]:
    server = Server(kind, sys.executable)
    try:
        server.wait_ready()
        asyncio.run(settled(server.pid))
        idle = rss_kib(server.pid) / 1024
        tally = asyncio.run(batch(server.port, flows, concurrency))
        asyncio.run(settled(server.pid))
        steady = rss_kib(server.pid) / 1024
        if tally.errors or tally.flows != flows:
            raise RuntimeError(f"{kind}: {tally.flows}/{flows} flows, errors {tally.samples}")
        return {"idle_mib": idle, "steady_mib": steady}
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--flows", type=int, default=300)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--servers", default=",".join(KINDS))
    args = parser.parse_args()
    kinds = [k for k in args.servers.split(",") if k]
    compile_checkout()
    rows: dict[str, list[dict[str, float]]] = {k: [] for k in kinds}
    for number in range(args.runs):
        for kind in kinds[number % len(kinds):] + kinds[: number % len(kinds)]:
            row = one(kind, args.flows, args.concurrency)
            rows[kind].append(row)
            print(json.dumps({"run": number, "server": kind, **row}), flush=True)
    for kind, got in rows.items():
        idle = statistics.median(r["idle_mib"] for r in got)
        steady = statistics.median(r["steady_mib"] for r in got)
        print(f"{kind}: idle {idle:.1f} MiB, steady after {args.flows} flows {steady:.1f} MiB (median of {len(got)})")


if __name__ == "__main__":
    main()
