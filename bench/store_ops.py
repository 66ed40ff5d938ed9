"""Store operations and bytes per flow kind, counted on a private Redis: the inputs of docs/scale.md.

One `askback serve askback.demo` process (A2A tasks in the store too) on a private `redis-server`. For each flow
kind, N flows are played over real HTTP and Redis's own counters are read before and after (`INFO
commandstats`: calls per command; `INFO stats`: bytes in and out; the INFO calls' own share is measured and
taken off), and the bytes each flow leaves in Redis until it expires (`MEMORY USAGE` of every key it made):

- plain: the demo's `greeting` resource, two rounds (a question, then the read), not single-use;
- single use: `transfer`, three rounds, the last one claimed;
- URL step: `connect_bank`, an API key entered on askback's page (ticket, secret, mark), then the retry;
- task: `clean_logs` as an MCP task, created, asked, answered, completed; its polls counted apart;
- A2A: `transfer` as an A2A task kept in the store (`ASKBACK_A2A_TASKS=store://`).

    python bench/store_ops.py            # 40 flows per kind (10 tasks), about half a minute
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import redis as redis_sync

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.servers import KEY_TEXT  # noqa: E402
from bench.stores import free_port, stop, wait_port  # noqa: E402
from bench.wire import call_body  # noqa: E402

HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
           "MCP-Protocol-Version": "2026-07-28"}
URL_CAPS = {"elicitation": {"form": {}, "url": {}}}


def rpc(http: httpx.Client, url: str, body: bytes, name: str, method: str = "tools/call") -> dict[str, Any]:
    r = http.post(url, content=body, headers={**HEADERS, "Mcp-Method": method, "Mcp-Name": name})
    return dict(r.json())


def accept(**content: Any) -> dict[str, Any]:
    return {"action": "accept", "content": content}


def single_use(http: httpx.Client, url: str, n: int) -> None:
    args = {"amount": "50", "to": "DE89370400440532013000"}
    first = rpc(http, url, call_body("transfer", args), "transfer")["result"]
    second = rpc(http, url, call_body("transfer", args, responses={"from_account": accept(
        from_account="DE02120300000000202051")}, state=first["requestState"]), "transfer")["result"]
    done = rpc(http, url, call_body("transfer", args, responses={"confirm": accept(confirm=True)},
                                    state=second["requestState"]), "transfer")
    assert done["result"]["structuredContent"]["status"] == "sent", done


def plain(http: httpx.Client, url: str, n: int) -> None:
    uri = f"demo://greeting/p{n}"
    body = {"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": uri, "_meta": _meta({})}}
    first = http.post(url, json=body, headers={**HEADERS, "Mcp-Method": "resources/read", "Mcp-Name": uri}).json()
    body["params"].update(inputResponses={"language": accept(language="en")},
                          requestState=first["result"]["requestState"])
    done = http.post(url, json=body, headers={**HEADERS, "Mcp-Method": "resources/read", "Mcp-Name": uri}).json()
    assert "Hello" in done["result"]["contents"][0]["text"], done


def _meta(caps: dict[str, Any]) -> dict[str, Any]:
    return {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "store-ops", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": caps or {"elicitation": {"form": {}}}}


def url_step(http: httpx.Client, url: str, n: int) -> None:
    first = rpc(http, url, call_body("connect_bank", {"bank": "acme"}, capabilities=URL_CAPS), "connect_bank")
    page_url = first["result"]["inputRequests"]["api_key"]["params"]["url"]
    page = http.get(page_url)
    token = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert token is not None, page.text
    posted = http.post(page_url, data={"csrf": token.group(1), "value": f"sk_test_{n:08d}abcdefgh",
                                       "decision": "submit"})
    assert posted.status_code == 200, posted.text
    done = rpc(http, url, call_body("connect_bank", {"bank": "acme"}, responses={"api_key": {"action": "accept"}},
                                    state=first["result"]["requestState"], capabilities=URL_CAPS), "connect_bank")
    assert done["result"]["structuredContent"]["status"] == "connected", done


def main() -> None:
    binary = shutil.which("redis-server")
    if binary is None:
        sys.exit("bench/store_ops.py needs redis-server (Debian: apt-get install redis-server)")
    flows = int(os.environ.get("STORE_OPS_FLOWS", "40"))
    workdir = Path(tempfile.mkdtemp(prefix="askback-store-ops-"))
    redis_port, port = free_port(), free_port()
    server_redis = subprocess.Popen([binary, "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
                                     "--appendonly", "no", "--dir", str(workdir)], stdout=subprocess.DEVNULL)
    env = {**os.environ, "ASKBACK_STORE": f"redis://127.0.0.1:{redis_port}/0?app=ops", "ASKBACK_KEYS": KEY_TEXT,
           "ASKBACK_A2A_TASKS": "store://", "ASKBACK_DATA_DIR": str(workdir / "data"),
           "ASKBACK_PUBLIC_URL": f"http://127.0.0.1:{port}"}
    app = None
    rows: list[tuple[str, dict[str, float]]] = []
    try:
        wait_port(redis_port, server_redis, "redis-server")
        app = subprocess.Popen([sys.executable, "-m", "askback.cli", "serve", "askback.demo", "--port", str(port)],
                               cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_port(port, app, "the askback server")
        r = redis_sync.Redis(port=redis_port)
        url = f"http://127.0.0.1:{port}/mcp"
        with httpx.Client(timeout=30) as http:
            for name, play in (("plain", plain), ("single use", single_use), ("URL step", url_step)):
                play(http, url, -1)  # warm: the identity, the replicas' record, scripts loaded
                rows.append((name, measure(r, lambda play=play: [play(http, url, i) for i in range(flows)],
                                           flows)))
        tasks = max(flows // 4, 5)
        rows.append(("task", measure(r, lambda: task_flows(url, tasks), tasks)))
        rows.append(("A2A", measure(r, lambda: asyncio.run(a2a_flows(f"http://127.0.0.1:{port}", flows)), flows)))
    finally:
        if app is not None:
            stop(app)
        stop(server_redis)
        shutil.rmtree(workdir, ignore_errors=True)
    print(table(rows))


def task_flows(url: str, count: int) -> int:
    """`clean_logs` as MCP tasks, run side by side; returns how many `tasks/get` polls were sent."""
    from tests.tasks.wire import TaskClient

    clients = [TaskClient(url) for _ in range(count)]
    ids = [c.call("clean_logs", {"folder": f"/var/log/{i}"}, task={"ttl": 600_000})["result"]["taskId"]
           for i, c in enumerate(clients)]
    polls = 0
    for c, task_id in zip(clients, ids, strict=True):
        while True:
            task = c.get(task_id)["result"]
            polls += 1
            if task["status"] == "input_required":
                (key, _), = task["inputRequests"].items()
                c.update(task_id, {key: accept(confirm=True)})
            elif task["status"] in ("completed", "failed", "cancelled"):
                assert task["status"] == "completed", task
                break
            time.sleep(0.25)
    return polls


async def a2a_flows(base: str, count: int) -> None:
    from tests.a2a.support import Agent, state

    async with Agent(base) as agent:
        for _ in range(count):
            task = await agent.call("transfer", amount=50, to="DE89370400440532013000")
            task = await agent.answer(task, {"from_account": "DE02120300000000202051"})
            done = await agent.answer(task, {"confirm": True})
            assert state(done) == "TASK_STATE_COMPLETED"


def counters(r: redis_sync.Redis) -> tuple[dict[str, int], int, int]:
    stats = r.info("commandstats")
    calls = {k.removeprefix("cmdstat_"): int(v["calls"]) for k, v in stats.items()}
    net = r.info("stats")
    return calls, int(net["total_net_input_bytes"]), int(net["total_net_output_bytes"])


def measure(r: redis_sync.Redis, play: Any, flows: int) -> dict[str, float]:
    keys_before = set(r.scan_iter(match="askback:*", count=1000))
    calls0, in0, out0 = counters(r)
    calls_probe, in_probe, out_probe = counters(r)  # what one INFO pair costs, taken off below
    overhead_in, overhead_out = in_probe - in0, out_probe - out0
    polls = play()
    calls1, in1, out1 = counters(r)
    ours = {"info": 2 * (calls_probe.get("info", 0) - calls0.get("info", 0))}
    ops = {k: v - calls_probe.get(k, 0) - ours.get(k, 0) for k, v in calls1.items()}
    ops = {k: v for k, v in ops.items() if v > 0 and k not in ("info", "scan", "memory|usage")}
    made = set(r.scan_iter(match="askback:*", count=1000)) - keys_before
    stored = sum(int(r.memory_usage(k) or 0) for k in made)
    row: dict[str, float] = {"ops": sum(ops.values()) / flows, "in": (in1 - in_probe - overhead_in) / flows,
                             "out": (out1 - out_probe - overhead_out) / flows, "stored": stored / flows}
    row.update({f"cmd:{k}": v / flows for k, v in sorted(ops.items())})
    if isinstance(polls, int):
        row["polls"] = polls / flows
    return row


def table(rows: list[tuple[str, dict[str, float]]]) -> str:
    lines = ["Store work per flow (Redis's own counters; bytes as Redis counts them on the wire)", "",
             "| flow | Redis commands | of which | bytes to Redis | bytes from Redis | bytes kept until expiry |",
             "|---|---:|---|---:|---:|---:|"]
    for name, row in rows:
        detail = ", ".join(f"{k.removeprefix('cmd:').upper()} {v:.1f}" for k, v in row.items() if k.startswith("cmd:"))
        if "polls" in row:
            detail += f" (with {row['polls']:.1f} `tasks/get` polls)"
        lines.append(f"| {name} | {row['ops']:.1f} | {detail} | {row['in']:.0f} | {row['out']:.0f} "
                     f"| {row['stored']:.0f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
