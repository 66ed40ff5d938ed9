"""What waiting for a replica adds to a single-use claim: `claim_run` + `start_run` latency, replicas=0 vs 1.

A private Sentinel deployment (one primary, two replicas, three sentinels; bench/redis_topologies.py)
on this machine; one store, claims one after another (no concurrency), medians and p99 of 2,000 claims each.

    python bench/claim_wait.py
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from askback.stores.redis import RedisStore  # noqa: E402
from bench.redis_topologies import PrivateSentinel  # noqa: E402

CLAIMS = 2000


async def claims(url: str) -> list[float]:
    store = RedisStore(url, watch_seconds=0)
    await store.open()
    took: list[float] = []
    try:
        future = time.time() + 600
        for i in range(CLAIMS):
            began = time.perf_counter()
            await store.claim_run(f"f{i}", "c", future, store.identity)
            assert await store.start_run(f"f{i}", "c", future)
            took.append((time.perf_counter() - began) * 1e3)
    finally:
        await store.close()
    return took


def main() -> None:
    deployment = PrivateSentinel().start()
    try:
        rows = []
        for replicas in (0, 1, 2):
            took = asyncio.run(claims(deployment.url(f"wait{replicas}", replicas=replicas)))
            took.sort()
            rows.append(f"| {replicas} | {statistics.median(took):.3f} | {took[int(len(took) * 0.99)]:.3f} |")
    finally:
        deployment.stop()
    print("| replicas= | claim + start, median ms | p99 ms |\n|---:|---:|---:|\n" + "\n".join(rows))


if __name__ == "__main__":
    main()
