"""Two replicas sharing Redis behind HAProxy (round-robin): every guarantee held across machines.

Flows whose rounds alternate between replicas, a page on one and the retry on the other, a replica killed
mid-flow, 100 concurrent replays of a single-use final round, a three-phase key rotation under live flows,
rings that disagree, and a legacy session kept on its replica by a stick table.
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from bench.wire import call_body
from mcp import types
from mcp.client.client import Client
from mcp.client.session import ClientRequestContext

from tests.replicas.conftest import FROZEN, ROOT, TARGET, Cluster, key_text, plan_body, post
from tests.stress.conftest import FULL, size

Make = Callable[..., Cluster]
URL_CAPS = {"elicitation": {"form": {}, "url": {}}}


async def play(client: httpx.AsyncClient, cluster: Cluster, flow_id: str, *, think: float = 0.0,
               upto: int = 4) -> tuple[list[str], dict[str, Any], str | None]:
    """Rounds 0..upto-1 of a `plan` flow through the LB: (who served each, the last answer, the last state)."""
    served: list[str] = []
    state: str | None = None
    last: dict[str, Any] = {}
    for number in range(upto):
        answer = await post(client, cluster.mcp, plan_body(flow_id, number, state))
        served.append(answer.served_by)
        last = answer.body
        assert "result" in last, f"{flow_id} round {number}: {last}"
        if number < 3:
            assert last["result"]["resultType"] == "input_required", last
            state = last["result"]["requestState"]
            if think:
                await asyncio.sleep(think)
    return served, last, state


def test_a_flow_whose_rounds_alternate_between_replicas_completes(cluster: Make) -> None:
    c = cluster()
    flows = 6

    async def scenario() -> list[list[str]]:
        async with httpx.AsyncClient() as client:
            out = []
            for i in range(flows):
                served, done, _ = await play(client, c, f"alt{i}")
                assert done["result"]["content"][0]["text"] == f"planned alt{i} then b"
                out.append(served)
            return out

    served = asyncio.run(scenario())
    assert all(set(s) == {"a", "b"} for s in served), served  # every flow crossed replicas
    assert all(s[i] != s[i + 1] for s in served for i in range(3)), served  # strictly alternating
    assert c.runs() == Counter({f"alt{i}": 1 for i in range(flows)})


def test_a_page_served_by_one_replica_and_the_retry_by_the_other(cluster: Make) -> None:
    c = cluster()
    secret = "sk_live_0123456789abcdef"

    async def scenario() -> tuple[str, str, str]:
        async with httpx.AsyncClient() as client:
            first = await post(client, c.mcp, call_body("connect", {"bank": "Acme"}, capabilities=URL_CAPS))
            assert "result" in first.body, first.body
            request = first.body["result"]["inputRequests"]["api_key"]["params"]
            url = request["url"]
            assert url.startswith(c.lb.url + "/askback/p/"), url  # the link points at the LB, not a replica
            page = await client.get(url)
            token = re.search(r'name="csrf" value="([^"]+)"', page.text)
            assert page.status_code == 200 and token is not None, page.text
            posted = await client.post(url, data={"csrf": token.group(1), "value": secret, "decision": "submit"})
            assert posted.status_code == 200 and "Received" in posted.text, posted.text
            stored_on = posted.headers["x-served-by"]
            # Round-robin: advance until the next request goes to the other replica, then retry there.
            while (await post(client, c.mcp, plan_body("probe", 0, None))).served_by != stored_on:
                pass
            retry = call_body("connect", {"bank": "Acme"}, responses={"api_key": {"action": "accept"}},
                              state=first.body["result"]["requestState"], capabilities=URL_CAPS)
            done = await post(client, c.mcp, retry)
            assert done.body["result"]["content"][0]["text"] == "connected Acme", done.body
            return page.headers["x-served-by"], stored_on, done.served_by

    page_on, stored_on, finished_on = asyncio.run(scenario())
    assert finished_on != stored_on, (page_on, stored_on, finished_on)
    assert c.runs()[f"connect:Acme:{len(secret)}"] == 1


def test_a_replica_killed_mid_flow_and_every_flow_finished_on_the_other(cluster: Make, report: Any) -> None:
    c = cluster()
    flows = size(20, 100)

    async def scenario() -> dict[str, Any]:
        limits = httpx.Limits(max_connections=flows + 10)
        async with httpx.AsyncClient(limits=limits, timeout=30) as client:
            ids = [f"kill{i}" for i in range(flows)]
            states: dict[str, str] = {}
            early_on_a = 0
            for fid in ids:  # rounds 1 and 2 of every flow, spread over both replicas
                served, _, state = await play(client, c, fid, upto=2)
                assert state is not None
                states[fid] = state
                early_on_a += "a" in served
            # Round 3 of every flow at once; replica a is killed while they are in flight.
            tasks = [asyncio.ensure_future(post(client, c.mcp, plan_body(fid, 2, states[fid]))) for fid in ids]
            await asyncio.sleep(0.005)
            c.replicas["a"].kill()
            answers = await asyncio.gather(*tasks)
            for fid, answer in zip(ids, answers, strict=True):
                assert "result" in answer.body, f"{fid}: {answer.body}"
                states[fid] = answer.body["result"]["requestState"]
            finals = await asyncio.gather(*(post(client, c.mcp, plan_body(fid, 3, states[fid])) for fid in ids))
            for fid, answer in zip(ids, finals, strict=True):
                assert answer.body["result"]["content"][0]["text"] == f"planned {fid} then b", answer.body
            replays = await asyncio.gather(*(post(client, c.mcp, plan_body(fid, 3, states[fid])) for fid in ids[:5]))
            assert all(r.body.get("error") == FROZEN for r in replays)
            counters = c.lb.stats()
            return {"flows_started_on_a": early_on_a,
                    "redispatched_by_lb": sum(int(v.get("wredis") or 0) for v in counters.values()),
                    "round3_on_a": sum(a.served_by == "a" for a in answers),
                    "finals_on_b": sum(f.served_by == "b" for f in finals)}

    figures = asyncio.run(scenario())
    ran = c.runs()
    assert sorted(ran) == sorted(f"kill{i}" for i in range(flows)) and set(ran.values()) == {1}, ran
    assert figures["finals_on_b"] == flows  # a is gone: the other replica finished every flow
    report(flows=flows, completed=flows, ran_twice=0, replays_refused=5, **figures)


def test_100_concurrent_replays_of_a_final_round_spread_over_both_run_it_once(cluster: Make, report: Any) -> None:
    c = cluster()
    replays, flows = 100, size(3, 10)

    async def scenario() -> tuple[Counter[str], Counter[str]]:
        outcomes: Counter[str] = Counter()
        served: Counter[str] = Counter()
        async with httpx.AsyncClient(limits=httpx.Limits(max_connections=replays + 10), timeout=30) as client:
            for i in range(flows):
                _, _, state = await play(client, c, f"replay{i}", upto=3)
                body = plan_body(f"replay{i}", 3, state)
                answers = await asyncio.gather(*(post(client, c.mcp, body) for _ in range(replays)))
                for a in answers:
                    served[a.served_by] += 1
                    if "result" in a.body and not a.body["result"].get("isError"):
                        outcomes["ran"] += 1
                    elif a.body.get("error") == FROZEN:
                        outcomes["refused"] += 1
                    else:
                        outcomes[f"other: {a.body}"] += 1
        return outcomes, served

    outcomes, served = asyncio.run(scenario())
    assert outcomes == Counter(ran=flows, refused=flows * (replays - 1)), outcomes
    assert served["a"] > 0 and served["b"] > 0, served
    assert c.runs() == Counter({f"replay{i}": 1 for i in range(flows)})
    report(flows=flows, concurrent_replays=replays, ran=outcomes["ran"], refused=outcomes["refused"],
           served_by_a=served["a"], served_by_b=served["b"])


def test_three_phase_key_rotation_across_replicas_under_live_flows_drops_none(cluster: Make, report: Any) -> None:
    old, new = key_text(1), key_text(101)
    round_ttl = 3 if not FULL else 5
    pause = 0.6 if not FULL else 2.0
    c = cluster(ASKBACK_KEYS=old, REPLICA_ROUND_TTL=str(round_ttl))
    workers = size(6, 20)
    phase = {"now": 0}
    completed, spanning, problems = [0], [0], []
    started: list[str] = []
    stop = asyncio.Event()

    async def worker(number: int, client: httpx.AsyncClient) -> None:
        serial = 0
        while not stop.is_set():
            serial += 1
            fid = f"rot{number}x{serial}"
            started.append(fid)
            at = phase["now"]
            try:
                _, done, _ = await play(client, c, fid, think=0.15)
            except AssertionError as exc:
                problems.append(str(exc)[:300])
                continue
            if done["result"]["content"][0]["text"] == f"planned {fid} then b":
                completed[0] += 1
                spanning[0] += phase["now"] != at

    async def roll(keys: str) -> None:
        for replica in c.replicas.values():
            await asyncio.to_thread(replica.stop)
            await asyncio.to_thread(replica.start, ASKBACK_KEYS=keys)
            await asyncio.sleep(pause)

    async def scenario() -> None:
        async with httpx.AsyncClient(timeout=30) as client:
            tasks = [asyncio.ensure_future(worker(i, client)) for i in range(workers)]
            await asyncio.sleep(pause)
            phase["now"] = 1
            await roll(f"{old},{new}")  # phase 1: every replica opens NEW; OLD still seals
            phase["now"] = 2
            await roll(f"{new},{old}")  # phase 2: NEW seals; OLD still opens
            await asyncio.sleep(round_ttl + 1)  # one round TTL: every state sealed with OLD has expired
            phase["now"] = 3
            await roll(new)  # phase 3: OLD retired
            await asyncio.sleep(pause)
            stop.set()
            await asyncio.gather(*tasks)

    t0 = time.monotonic()
    asyncio.run(scenario())
    ran = c.runs()
    assert problems == [], problems[:5]
    assert completed[0] == len(started) > 0
    assert sorted(ran) == sorted(started) and set(ran.values()) == {1}, "each flow runs exactly once"
    assert spanning[0] > 0, "no flow was live across a phase change: the test proved nothing"
    logs = "".join(r.log.read_text() for r in c.replicas.values())
    assert "same ASKBACK_KEYS" not in logs  # a correct rotation is never reported as a key mismatch
    report(flows=completed[0], dropped=0, spanning_a_phase=spanning[0], restarts=6,
           seconds=round(time.monotonic() - t0, 1))


def test_replicas_with_different_keys_are_reported_at_start(cluster: Make) -> None:
    c = cluster(start=False)
    c.replicas["a"].start()
    c.replicas["b"].start(ASKBACK_KEYS=key_text(50))
    log = c.replicas["b"].log.read_text()
    assert "same ASKBACK_KEYS" in log and "neither ring opens the other's states" in log, log
    assert "same ASKBACK_KEYS" not in c.replicas["a"].log.read_text()


def test_serve_refuses_a_shared_store_without_askback_keys(cluster: Make) -> None:
    c = cluster(start=False)
    env = {k: v for k, v in c.env.items() if k != "ASKBACK_KEYS"}
    done = subprocess.run([sys.executable, "-m", "askback.cli", "serve", TARGET, "--port", "1"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "set ASKBACK_KEYS to the same value on each" in done.stderr and "Traceback" not in done.stderr


# -- legacy sessions: one process, so the load balancer must keep a session on its replica ----------------
LEGACY_ANSWERS = {"first": "legacy", "second": "b", "ok": True}


async def legacy_plan(url: str) -> str:
    async def elicit(context: ClientRequestContext, params: types.ElicitRequestParams) -> types.ElicitResult:
        assert isinstance(params, types.ElicitRequestFormParams)
        [name] = params.requested_schema["properties"]
        return types.ElicitResult(action="accept", content={name: LEGACY_ANSWERS[name]})

    async with Client(url, mode="legacy", elicitation_callback=elicit) as client:
        assert client.protocol_version == "2025-11-25"
        for _ in range(3):  # several requests of one session, each a chance to land on the other replica
            await client.list_tools()
        result = await client.call_tool("plan", {})
    assert result.is_error is not True, result
    return str(result.content[0].text)  # type: ignore[union-attr]


def test_a_legacy_session_works_behind_the_lb_with_a_stick_table(cluster: Make) -> None:
    c = cluster(sticky=True)
    assert asyncio.run(legacy_plan(c.mcp)) == "planned legacy then b"
    assert c.runs() == Counter({"legacy": 1})


def test_without_sticky_routing_a_legacy_session_breaks(cluster: Make) -> None:
    """The control for the test above: round-robin alone sends the session's next request to the other replica."""
    c = cluster(sticky=False)
    with pytest.raises(BaseException) as lost:  # the SDK surfaces the lost session in several ways
        asyncio.run(asyncio.wait_for(legacy_plan(c.mcp), 30))
    assert "404" in repr(lost.value) or "Session not found" in repr(lost.value), repr(lost.value)
    assert c.runs() == Counter()
