"""A Sentinel-managed primary killed while single-use final rounds are in flight: no flow runs twice.

One primary, two replicas, three sentinels (bench/redis_topologies.py); two `askback serve` replicas
whose store is `redis+sentinel://…` (every write waits for one Redis replica, `replicas=1`). Each kill round
brings flows to their single-use final round, sends every final at once (half to each replica), and SIGKILLs the
Redis primary while they are in flight. A caller told "retry" resends the same final until it gets an answer that
is not retryable, as the error says to. Then every final is replayed once more. Counted across both replicas'
run log: no flow ran twice, and every flow either ran once or was refused. `ASKBACK_STRESS=full`: 500 finals,
three kills (each killed primary comes back as a replica before the next); reduced: 100 finals, one kill.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.replicas.conftest import FROZEN, Replica, key_text, plan_body, post
from tests.stress.conftest import size
from tests.support.redis_topologies import PrivateSentinel

RETRYABLE = -32603


@pytest.fixture
def sentinels() -> Iterator[PrivateSentinel]:
    deployment = PrivateSentinel(replicas=2, sentinels=3)
    try:
        yield deployment.start()
    finally:
        deployment.stop()


def test_a_primary_killed_under_concurrent_single_use_finals_runs_no_flow_twice(
        tmp_path: Path, sentinels: PrivateSentinel, report: Callable[..., None]) -> None:
    finals, kills = size(100, 500), size(1, 3)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ASKBACK_", "REPLICA_"))}
    env.update(ASKBACK_KEYS=key_text(7), ASKBACK_STORE=sentinels.url(f"failover-{os.urandom(4).hex()}"),
               ASKBACK_DATA_DIR=str(tmp_path / "data"), REPLICA_RUNLOG=str(tmp_path / "runs.log"))
    replicas = [Replica(name, tmp_path, dict(env)).start() for name in ("a", "b")]
    urls = [f"http://127.0.0.1:{r.port}/mcp" for r in replicas]
    runlog = tmp_path / "runs.log"

    def runs() -> dict[str, int]:
        counts: dict[str, int] = {}
        for line in runlog.read_text().split() if runlog.exists() else ():
            counts[line] = counts.get(line, 0) + 1
        return counts

    async def prepare(client: httpx.AsyncClient, flow_id: str, n: int) -> str:
        state: str | None = None
        for number in range(3):  # pure rounds: answered by whichever replica, no store write
            body = (await post(client, urls[(n + number) % 2], plan_body(flow_id, number, state))).body
            state = body["result"]["requestState"]
        assert state is not None
        return state

    async def final(client: httpx.AsyncClient, flow_id: str, state: str, n: int, seen: dict[str, Any]) -> str:
        """The final round, resent while the answer is a retryable error; what it came to."""
        for attempt in range(600):
            body = (await post(client, urls[(n + attempt) % 2], plan_body(flow_id, 3, state))).body
            seen["answered"] += 1
            if seen["answered"] == seen["kill_after"]:
                seen["go"].set()
            error = body.get("error")
            if error is None:
                assert body["result"]["content"][0]["text"] == f"planned {flow_id} then b", body
                return "ran"
            if error == FROZEN:
                return "refused"
            assert error["code"] == RETRYABLE and error["data"]["retryable"], body
            now = time.monotonic()
            seen["first_retry"] = seen["first_retry"] or now
            seen["last_retry"] = now
            seen["retries"] += 1
            seen["in_doubt"] += "did not confirm" in error["message"]
            await asyncio.sleep(0.05)
        raise AssertionError(f"{flow_id}: still told to retry after 30 s")

    async def one_kill(client: httpx.AsyncClient, k: int) -> dict[str, Any]:
        ids = [f"fail{k}n{i}" for i in range(finals)]
        states: dict[str, str] = {}
        for start in range(0, finals, 50):
            batch = ids[start:start + 50]
            for fid, state in zip(batch, await asyncio.gather(*(prepare(client, f, i) for i, f in enumerate(batch))),
                                  strict=True):
                states[fid] = state
        seen: dict[str, Any] = {"answered": 0, "kill_after": max(1, finals // 10), "go": asyncio.Event(),
                                "first_retry": 0.0, "last_retry": 0.0, "retries": 0, "in_doubt": 0}
        began = time.monotonic()
        tasks = [asyncio.ensure_future(final(client, fid, states[fid], i, seen)) for i, fid in enumerate(ids)]
        await seen["go"].wait()  # a tenth answered, the rest in flight
        killed, failover_s = await asyncio.to_thread(sentinels.kill_primary)
        outcomes = await asyncio.gather(*tasks)
        window = seen["last_retry"] - seen["first_retry"] if seen["retries"] else 0.0
        await asyncio.to_thread(sentinels.bring_back, killed)
        replays = [(await post(client, urls[i % 2], plan_body(fid, 3, states[fid]))).body
                   for i, fid in enumerate(ids)]
        assert all(r.get("error") == FROZEN for r in replays), [r for r in replays if r.get("error") != FROZEN][:3]
        return {"ran": outcomes.count("ran"), "refused": outcomes.count("refused"), "retries": seen["retries"],
                "in_doubt": seen["in_doubt"], "failover_s": round(failover_s, 2), "retry_window_s": round(window, 2),
                "all_answered_s": round(time.monotonic() - began, 2)}

    async def scenario() -> list[dict[str, Any]]:
        limits = httpx.Limits(max_connections=finals + 20, max_keepalive_connections=finals + 20)
        async with httpx.AsyncClient(timeout=60, limits=limits) as client:
            return [await one_kill(client, k) for k in range(kills)]

    try:
        rounds = asyncio.run(scenario())
    finally:
        for replica in replicas:
            replica.kill()
    counted = runs()
    assert max(counted.values()) == 1, {f: n for f, n in counted.items() if n > 1}  # no flow ran twice
    for k, figures in enumerate(rounds):
        ran = sum(1 for f in counted if f.startswith(f"fail{k}n"))
        assert ran == figures["ran"]  # what each caller was told is what happened
        assert figures["ran"] + figures["refused"] == finals
    report(finals_per_kill=finals, kills=kills, double_runs=0,
           **{f"kill{k}_{name}": value for k, figures in enumerate(rounds) for name, value in figures.items()})
