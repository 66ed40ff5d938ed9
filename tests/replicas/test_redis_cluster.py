"""Two replicas behind HAProxy on a real 3-primary Redis Cluster (`ASKBACK_STORE=redis+cluster://…`).

Flows keep running while `redis-cli --cluster reshard` moves a quarter of the slots, keys and all, from one
primary to another: every flow runs once, every replay is refused. A primary restarted empty takes the claims of
its slots with it: the flows whose claims it held are refused when replayed, never run again, and flows started
afterwards complete.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from redis.crc import key_slot

from askback.stores.redis import BUCKETS
from tests.replicas.conftest import FROZEN, Cluster, plan_body, post
from tests.stress.conftest import size
from tests.support.redis_topologies import PrivateCluster, cli

Make = Callable[..., Cluster]
RETRYABLE = -32603


@pytest.fixture(scope="module")
def redis_cluster() -> Iterator[PrivateCluster]:
    nodes = PrivateCluster(3)
    try:
        yield nodes.start()
    finally:
        nodes.stop()


@pytest.fixture(scope="module")
def redis_url(redis_cluster: PrivateCluster) -> str:
    """What `cluster(...)` (tests/replicas/conftest.py) gives every replica as its store."""
    return redis_cluster.url


async def _round(client: httpx.AsyncClient, c: Cluster, flow_id: str, number: int, state: str | None,
                 retried: list[str]) -> dict[str, Any]:
    """One round through the balancer; a retryable store error is resent, as the error tells a caller to."""
    for _ in range(100):
        body = (await post(client, c.mcp, plan_body(flow_id, number, state))).body
        if body.get("error", {}).get("code") != RETRYABLE:
            return body
        retried.append(flow_id)
        await asyncio.sleep(0.05)
    raise AssertionError(f"{flow_id} round {number}: still unavailable")


async def _flow(client: httpx.AsyncClient, c: Cluster, flow_id: str, retried: list[str]) -> str:
    """Rounds 0–2 of a `plan` flow: the state of its single-use final round."""
    state: str | None = None
    for number in range(3):
        body = await _round(client, c, flow_id, number, state, retried)
        assert body["result"]["resultType"] == "input_required", body
        state = body["result"]["requestState"]
    assert state is not None
    return state


def test_flows_run_once_on_a_three_primary_cluster_while_a_reshard_moves_slots(
        cluster: Make, redis_cluster: PrivateCluster, report: Callable[..., None]) -> None:
    c = cluster()
    source, target = redis_cluster.ports[0], redis_cluster.ports[1]
    slots_before = len(redis_cluster.slots_of(source))
    moved = 4096
    workers, least = 8, size(6, 25)
    done = threading.Event()
    resharded: dict[str, Any] = {}

    def reshard() -> None:
        time.sleep(0.5)  # flows are under way
        began = time.monotonic()
        process = redis_cluster.reshard(source, target, moved)
        out, _ = process.communicate(timeout=300)
        resharded.update(code=process.returncode, seconds=time.monotonic() - began, tail=out[-400:])
        done.set()

    async def worker(client: httpx.AsyncClient, n: int, retried: list[str], flows: list[str]) -> None:
        i = 0
        while i < least or not done.is_set():
            flow_id = f"move{n}n{i}"
            state = await _flow(client, c, flow_id, retried)
            final = await _round(client, c, flow_id, 3, state, retried)
            assert final["result"]["content"][0]["text"] == f"planned {flow_id} then b", final
            replay = await _round(client, c, flow_id, 3, state, retried)
            assert replay.get("error") == FROZEN, replay
            flows.append(flow_id)
            i += 1

    async def scenario() -> tuple[list[str], list[str]]:
        retried: list[str] = []
        flows: list[str] = []
        async with httpx.AsyncClient(timeout=30) as client:
            await asyncio.gather(*(worker(client, n, retried, flows) for n in range(workers)))
        return flows, retried

    mover = threading.Thread(target=reshard)
    mover.start()
    try:
        flows, retried = asyncio.run(scenario())
    finally:
        mover.join(timeout=300)
    assert resharded.get("code") == 0, resharded
    assert len(redis_cluster.slots_of(source)) == slots_before - moved  # the slots did move
    assert c.runs() == Counter(dict.fromkeys(flows, 1))  # each flow once, replays refused
    report(flows=len(flows), reshard_s=round(resharded["seconds"], 1),
           slots_moved=moved, retried_rounds=len(retried))


def test_a_primary_restarted_empty_loses_its_claims_and_their_flows_are_refused_not_run_again(
        cluster: Make, redis_cluster: PrivateCluster, report: Callable[..., None]) -> None:
    c = cluster()
    # Not the primary of the home bucket (which holds the identity every copy follows): what is lost is only
    # the claims and identity copies of the buckets on that primary, which their own claims must notice.
    app = c.env["ASKBACK_STORE"].rsplit("app=", 1)[1]
    home = key_slot(f"askback:{{{app}:0}}:identity".encode())
    lost = next(p for p in redis_cluster.ports if home not in redis_cluster.slots_of(p))
    flows = size(12, 40)

    async def scenario() -> dict[str, int]:
        retried: list[str] = []
        async with httpx.AsyncClient(timeout=30) as client:
            finals = {f"ran{i}": await _flow(client, c, f"ran{i}", retried) for i in range(flows)}
            for flow_id, state in finals.items():
                body = await _round(client, c, flow_id, 3, state, retried)
                assert "result" in body, body
            waiting = {f"open{i}": await _flow(client, c, f"open{i}", retried) for i in range(flows)}
            keys_there = int(cli(lost, "dbsize").strip())
            redis_cluster.restart_empty(lost)  # its slots' claims and identity copies are gone
            replays = [await _round(client, c, f, 3, s, retried) for f, s in finals.items()]
            assert all(r.get("error") == FROZEN for r in replays), replays  # none ran again
            in_flight = [await _round(client, c, f, 3, s, retried) for f, s in waiting.items()]
            completed = sum("result" in r for r in in_flight)
            assert all("result" in r or r.get("error") == FROZEN for r in in_flight), in_flight
            for i in range(6):  # flows started now complete, on every replica
                state = await _flow(client, c, f"new{i}", retried)
                body = await _round(client, c, f"new{i}", 3, state, retried)
                assert body["result"]["content"][0]["text"] == f"planned new{i} then b", body
            return {"keys_lost": keys_there, "in_flight_completed": completed, "retried": len(retried)}

    figures = asyncio.run(scenario())
    runs = c.runs()
    assert max(runs.values()) == 1  # nothing ran twice
    assert all(runs[f"ran{i}"] == 1 for i in range(flows)) and all(runs[f"new{i}"] == 1 for i in range(6))
    assert figures["keys_lost"] > 0
    report(buckets=BUCKETS, flows_refused_after_the_loss=flows, **figures)
