"""Several replicas: one killed mid-flow, a three-phase key rotation under live flows, and a soak.

Each replica is a real `askback serve` process. They share a key ring and a SQLite store file, as the docs
tell several local workers to; the client balances between them and fails over when a connection breaks.
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import time
from collections.abc import Callable
from typing import Any

from bench.wire import Connection, accept, call_body

from askback.core.state import Keyring
from tests.stress.conftest import (
    FROZEN,
    FULL,
    Cluster,
    FlowStats,
    Replica,
    key_text,
    plan_flow,
    rss_mib,
    runs,
    size,
)


def _kid(key: str) -> bytes:
    return Keyring.from_text(key).sealing_key_id


def _token_kid(token: str) -> bytes:
    return base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))[1:5]


async def _round(conn: Connection, flow_id: str, number: int, state: str | None) -> dict[str, Any]:
    responses = [None, {"first": accept(first=flow_id)}, {"second": accept(second="b")}, {"ok": accept(ok=True)}]
    return await conn.rpc(call_body("plan", {}, responses=responses[number], state=state), name="plan")


def test_a_replica_killed_mid_flow_and_every_flow_completes_on_another(
        replicas: Callable[[str], Replica], replica_env: dict[str, str], report: Callable[..., None]) -> None:
    flows = size(8, 50)
    a, b = replicas("a").start(), replicas("b").start()

    async def scenario() -> dict[str, Any]:
        ids = [f"kill{i}" for i in range(flows)]
        states: dict[str, str] = {}
        # Rounds 1 and 2 of every flow on replica A.
        for flow_id in ids:
            conn = Connection("127.0.0.1", a.port)
            state = None
            for number in (0, 1):
                state = (await _round(conn, flow_id, number, state))["result"]["requestState"]
            states[flow_id] = state  # type: ignore[assignment]
            await conn.close()
        # Round 3 of every flow sent to A at once; A is killed while they are in flight.
        conns = [Connection("127.0.0.1", a.port) for _ in ids]
        for conn in conns:
            await conn.open()
        tasks = [asyncio.ensure_future(_round(conn, fid, 2, states[fid])) for conn, fid in zip(conns, ids, strict=True)]
        await asyncio.sleep(0.002)
        a.kill()
        outcomes = await asyncio.gather(*tasks, return_exceptions=True)
        cut = 0
        b_conn = Connection("127.0.0.1", b.port)
        for fid, outcome in zip(ids, outcomes, strict=True):
            if isinstance(outcome, BaseException):  # in flight when A died: resend the same round to B
                cut += 1
                outcome = await _round(b_conn, fid, 2, states[fid])
            assert "result" in outcome, f"{fid}: {outcome}"
            states[fid] = outcome["result"]["requestState"]
        # The final round of every flow, on B.
        for fid in ids:
            done = await _round(b_conn, fid, 3, states[fid])
            assert done.get("result", {}).get("content", [{}])[0].get("text") == f"planned {fid} then b", done
        # Replays of a finished single-use flow are refused on B ...
        for fid in ids[:3]:
            assert (await _round(b_conn, fid, 3, states[fid])).get("error") == FROZEN
        await b_conn.close()
        for conn in conns:
            await conn.close()
        return {"cut": cut, "states": states}

    outcome = asyncio.run(scenario())
    # ... and on A brought back, because the store is shared and survived the kill.
    a.start()

    async def replay_on_a() -> None:
        conn = Connection("127.0.0.1", a.port)
        for fid, state in list(outcome["states"].items())[:3]:
            assert (await _round(conn, fid, 3, state)).get("error") == FROZEN
        await conn.close()

    asyncio.run(replay_on_a())
    ran = runs(replica_env)
    assert sorted(ran) == sorted(f"kill{i}" for i in range(flows)), ran
    assert set(ran.values()) == {1}, f"a flow ran more than once: {ran}"
    report(flows=flows, cut_in_flight=outcome["cut"], completed_on_other=flows, ran_twice=0, replays_refused=6)


def test_three_phase_key_rotation_under_live_flows_drops_none(
        replicas: Callable[[str], Replica], replica_env: dict[str, str], report: Callable[..., None]) -> None:
    old, new = key_text(1), key_text(101)
    round_ttl = 3 if not FULL else 5
    pause = 0.6 if not FULL else 2.0
    workers = size(6, 20)
    env = {"ASKBACK_KEYS": old, "STRESS_ROUND_TTL": str(round_ttl)}
    pool = [replicas("r1").start(**env), replicas("r2").start(**env)]
    cluster = Cluster(pool)
    stats = FlowStats()
    phase = {"now": 0}
    spanning = [0]
    kids_by_phase: dict[int, set[bytes]] = {0: set(), 1: set(), 2: set(), 3: set()}
    stop = asyncio.Event()

    async def worker(number: int) -> None:
        conns: dict[int, Connection] = {}
        serial = 0
        while not stop.is_set():
            serial += 1
            started = phase["now"]
            ok = await plan_flow(cluster, f"rot{number}x{serial}", stats, think=0.15, conns=conns)
            if ok and phase["now"] != started:
                spanning[0] += 1
        for conn in conns.values():
            await conn.close()

    async def sample_kids() -> None:
        while not stop.is_set():
            conn = Connection("127.0.0.1", cluster.pick().port)
            try:
                result = (await conn.rpc(call_body("plan", {}), name="plan"))["result"]
                kids_by_phase[phase["now"]].add(_token_kid(result["requestState"]))
            except (OSError, KeyError):
                pass
            finally:
                await conn.close()
            await asyncio.sleep(0.1)

    async def roll(keys: str) -> None:
        for replica in pool:
            await asyncio.to_thread(replica.stop)
            await asyncio.to_thread(replica.start, ASKBACK_KEYS=keys)
            await asyncio.sleep(pause)

    async def scenario() -> None:
        tasks = [asyncio.ensure_future(worker(i)) for i in range(workers)]
        sampler = asyncio.ensure_future(sample_kids())
        await asyncio.sleep(pause)
        phase["now"] = 1
        await roll(f"{old},{new}")  # phase 1: every replica can open NEW; OLD still seals
        phase["now"] = 2
        await roll(f"{new},{old}")  # phase 2: NEW seals; OLD still opens
        await asyncio.sleep(round_ttl + 1)  # one round TTL: every state sealed with OLD has expired
        phase["now"] = 3
        await roll(new)  # phase 3: OLD retired
        await asyncio.sleep(pause)
        stop.set()
        await asyncio.gather(*tasks, sampler)

    t0 = time.monotonic()
    asyncio.run(scenario())
    ran = runs(replica_env)
    assert stats.dropped == 0, stats.problems
    assert stats.completed == len(stats.started_ids) and stats.completed > 0
    assert sorted(ran) == sorted(stats.started_ids) and set(ran.values()) == {1}, "each flow runs exactly once"
    assert spanning[0] > 0, "no flow was live across a phase change: the test proved nothing"
    assert kids_by_phase[0] <= {_kid(old)} and kids_by_phase[3] <= {_kid(new)} and kids_by_phase[3], kids_by_phase
    report(flows=stats.completed, dropped=stats.dropped, spanning_a_rollout=spanning[0], failovers=stats.failovers,
           ambiguous_final=stats.ambiguous_final, restarts=6, seconds=round(time.monotonic() - t0, 1))


def test_soak_concurrent_flows_no_errors_and_bounded_memory(
        replicas: Callable[[str], Replica], replica_env: dict[str, str], report: Callable[..., None]) -> None:
    seconds = 60.0 if FULL else 4.0
    workers = size(10, 50)
    server = replicas("soak").start()
    cluster = Cluster([server])
    stats = FlowStats()
    samples: list[tuple[float, float]] = []
    measured_from = [0]

    serials = itertools.count()

    async def worker(number: int, deadline: float) -> None:
        conns: dict[int, Connection] = {}
        while time.monotonic() < deadline:
            await plan_flow(cluster, f"soak{number}x{next(serials)}", stats, conns=conns)
        for conn in conns.values():
            await conn.close()

    async def sampler(t0: float, deadline: float) -> None:
        while time.monotonic() < deadline:
            samples.append((time.monotonic() - t0, rss_mib(server.pid)))
            await asyncio.sleep(min(1.0, seconds / 20))

    async def scenario() -> None:
        warm = time.monotonic() + min(5.0, seconds / 4)  # warm-up: caches, the SQLite file, allocator pools
        await asyncio.gather(*(worker(i, warm) for i in range(workers)))
        t0 = time.monotonic()
        deadline = t0 + seconds
        measured_from[0] = len(stats.started_ids)
        await asyncio.gather(sampler(t0, deadline), *(worker(i, deadline) for i in range(workers)))

    asyncio.run(scenario())
    ran = runs(replica_env)
    assert stats.dropped == 0, stats.problems
    assert set(ran.values()) == {1} and len(ran) == stats.completed
    first, last = samples[0][1], samples[-1][1]
    mid = samples[len(samples) // 2][1]
    growth = last - first
    flows = len(stats.started_ids) - measured_from[0]
    report(seconds=seconds, concurrent=workers, flows=flows, flows_per_s=round(flows / seconds, 1), errors=0,
           rss_start_mib=round(first, 1), rss_end_mib=round(last, 1), rss_growth_mib=round(growth, 1),
           rss_growth_second_half_mib=round(last - mid, 1))
    assert growth < 64, f"RSS grew {growth:.1f} MiB over the soak: {samples}"
