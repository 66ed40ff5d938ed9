"""Two `askback serve` replicas sharing a private Redis that pauses, restarts empty, or comes back older.

Each round is sent to a chosen replica (no balancer), so a test decides which replica plays which round: the
faults that matter are the ones where the replica that notices is not the one that serves the next round.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from typing import Any

import anyio
import httpx
import pytest

from tests.replicas.conftest import FROZEN, Cluster, Replica, plan_body, post
from tests.support.redis import PrivateRedis

Make = Callable[..., Cluster]
# The field's pause was ~15 s against the store's 5 s socket timeout and its two retries; the same shape,
# shorter: every attempt times out (0.3 s each) well before Redis resumes (1.5 s).
SHORT_TIMEOUTS = "&socket_timeout=0.3&socket_connect_timeout=0.3"
# Crossing patterns of the four rounds of `plan` (a: replica a, b: replica b).
PATTERNS = ("abab", "baba", "aabb", "abba", "bbaa", "aaab", "bbba", "abaa", "babb", "aaaa", "bbbb", "baab")


@pytest.fixture
def redis_server(request: pytest.FixtureRequest) -> Iterator[PrivateRedis]:
    server = PrivateRedis(persistence=getattr(request, "param", "")).start()
    yield server
    server.stop()


def two_replicas(cluster: Make, redis: PrivateRedis, extra: str = "") -> tuple[Cluster, dict[str, Replica]]:
    c = cluster(start=False, ASKBACK_STORE=f"{redis.url}?app=faults-{os.urandom(4).hex()}{extra}")
    for replica in c.replicas.values():
        replica.start()
    return c, c.replicas


def mcp(replica: Replica) -> str:
    return f"http://127.0.0.1:{replica.port}/mcp"


async def rounds(client: httpx.AsyncClient, replicas: dict[str, Replica], flow: str, pattern: str,
                 state: str | None = None, first: int = 0) -> tuple[dict[str, Any], str | None]:
    """Play rounds `first`.. of a `plan` flow, round n on replica `pattern[n - first]`; the last answer, state."""
    body: dict[str, Any] = {}
    for offset, who in enumerate(pattern):
        number = first + offset
        body = (await post(client, mcp(replicas[who]), plan_body(flow, number, state))).body
        if number < 3:
            assert body.get("result", {}).get("resultType") == "input_required", f"{flow} round {number}: {body}"
            state = body["result"]["requestState"]
    return body, state


def completed(body: dict[str, Any], flow: str) -> bool:
    text = body.get("result", {}).get("content", [{}])[0].get("text", "")
    return str(text).startswith(f"planned {flow} ")


async def until(check: Callable[[], bool], seconds: float) -> None:
    """Wait, a bounded number of short sleeps, for `check` to hold; fail the test if it never does."""
    for _ in range(int(seconds / 0.05)):
        if check():
            return
        await anyio.sleep(0.05)
    pytest.fail(f"not within {seconds} s")


def logged(replica: Replica, *phrases: str) -> bool:
    text = replica.log.read_text() if replica.log.exists() else ""
    return any(p in text for p in phrases)


def test_a_final_round_told_to_retry_while_redis_was_paused_completes_once_on_the_other_replica(
        cluster: Make, redis_server: PrivateRedis, report: Callable[..., None]) -> None:
    c, r = two_replicas(cluster, redis_server, SHORT_TIMEOUTS)
    flows = ("p0", "p1", "p2")

    async def scenario() -> list[tuple[int, bool, dict[str, Any]]]:
        out = []
        async with httpx.AsyncClient(timeout=30) as client:
            for flow in flows:
                _, state = await rounds(client, r, flow, "aba")
                with redis_server.paused(1.5):
                    down = (await post(client, mcp(r["b"]), plan_body(flow, 3, state))).body
                retried = (await post(client, mcp(r["a"]), plan_body(flow, 3, state))).body  # the other replica
                replay = (await post(client, mcp(r["b"]), plan_body(flow, 3, state))).body
                out.append((down.get("error", {}).get("code"), completed(retried, flow), replay.get("error", {})))
        return out

    outcomes = anyio.run(scenario)
    assert all(code == -32603 for code, _, _ in outcomes), outcomes  # told: nothing was done, retry
    assert all(done for _, done, _ in outcomes), outcomes  # the retry it asked for completed
    assert all(replay == FROZEN for _, _, replay in outcomes), outcomes
    assert c.runs() == {flow: 1 for flow in flows}  # each ran exactly once
    report(flows=len(flows), told_retry=len(outcomes), retries_completed=len(flows), ran_twice=0)


def test_after_redis_restarted_empty_both_replicas_agree_within_the_bound_and_every_new_flow_completes(
        cluster: Make, redis_server: PrivateRedis, report: Callable[..., None]) -> None:
    c, r = two_replicas(cluster, redis_server)

    async def scenario() -> tuple[dict[str, Any], float, list[bool], list[dict[str, Any]]]:
        async with httpx.AsyncClient(timeout=30) as client:
            _, in_flight = await rounds(client, r, "before", "aba")  # crosses the loss
            redis_server.stop()
            redis_server.start()
            back = time.monotonic()
            # Each replica checks once a second; 20 s is generous for a loaded machine.
            await until(lambda: all(logged(x, "lost its contents") for x in r.values()), 20)
            agreed = time.monotonic() - back
            old = (await post(client, mcp(r["b"]), plan_body("before", 3, in_flight))).body
            done, replays = [], []
            for n, pattern in enumerate(PATTERNS):
                body, state = await rounds(client, r, f"after{n}", pattern)
                done.append(completed(body, f"after{n}"))
                other = "a" if pattern[-1] == "b" else "b"
                replays.append((await post(client, mcp(r[other]), plan_body(f"after{n}", 3, state))).body)
            return old, agreed, done, replays

    old, agreed, done, replays = anyio.run(scenario)
    assert old.get("error") == FROZEN  # in flight across the loss: refused, the safe side
    assert done == [True] * len(PATTERNS), done  # every flow started afterwards completes, whatever it crossed
    assert all(replay.get("error") == FROZEN for replay in replays)
    assert c.runs() == {f"after{n}": 1 for n in range(len(PATTERNS))}
    report(new_flows_completed=f"{sum(done)}/{len(PATTERNS)}", in_flight_refused=1, agreed_after_s=round(agreed, 2))


@pytest.mark.parametrize("redis_server", ["rdb"], indirect=True)
def test_a_replay_on_the_other_replica_after_redis_came_back_from_an_older_snapshot_is_refused(
        cluster: Make, redis_server: PrivateRedis, report: Callable[..., None]) -> None:
    c, r = two_replicas(cluster, redis_server)

    async def scenario() -> tuple[bool, dict[str, Any], list[bool]]:
        async with httpx.AsyncClient(timeout=30) as client:
            _, state = await rounds(client, r, "paid", "aba")
            redis_server.snapshot()  # has the identity, not the claim
            body, _ = await rounds(client, r, "paid", "a", state, first=3)
            ran = completed(body, "paid")
            redis_server.crash()
            redis_server.start()  # from the snapshot: the identity survives, the claim does not
            replay = (await post(client, mcp(r["b"]), plan_body("paid", 3, state))).body  # b made no claim
            # Flows started before both replicas agree may still be refused: the safe side.
            await until(lambda: all(logged(x, "lost its contents", "restarted with persistence")
                                    for x in r.values()), 20)
            after = []
            for n, pattern in enumerate(PATTERNS[:4]):
                done, _ = await rounds(client, r, f"new{n}", pattern)
                after.append(completed(done, f"new{n}"))
            return ran, replay, after

    ran, replay, after = anyio.run(scenario)
    assert ran and replay.get("error") == FROZEN, replay
    assert c.runs()["paid"] == 1  # not twice
    assert after == [True] * 4
    report(ran_twice=0, new_flows_completed=f"{sum(after)}/4")
