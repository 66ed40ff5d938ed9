"""The load generator: drives one server with K concurrent flows and reads the server's own CPU time.

Run in its own process by bench/run.py (python -m bench.load --port P --pid PID --rounds 2 --concurrency 16 ...).
It warms up, sizes the measured batch from the warm-up rate, waits for the server to go idle (no CPU spent in
two quarter-seconds in a row, so one-off work after the first requests stays out of the batch), opens fresh
connections (the server may have closed the idle warm-up ones), reads the server's utime+stime from
/proc/PID/stat, runs exactly that many flows, reads it again, and prints one JSON
object: flows, flows/s, per-request p50/p99, server CPU per flow, RSS, requestState bytes, errors.

A flow of `--rounds 2` is: `greet {"name": "Ada"}` -> `input_required` with one question -> the retry with the
answer and the exact `requestState` -> `complete` with "Hello Ada from Paris". `--rounds 1` sends both values at
once and expects `complete` (the floor servers). `--era 2025-11-25` runs the older protocol's flow instead
(bench/session.py): on a session initialized once per connection pair, `tools/call greet {"name": "Ada"}`, the
server's `elicitation/create` read from the call's SSE stream, the answer POSTed, the result read from the stream.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from bench.session import Session, greet_body
from bench.wire import FORM_CAPS, Connection, WireError, accept, call_body, rpc_body, single_request

CLK_TCK = os.sysconf("SC_CLK_TCK")
EXPECTED = "Hello Ada from Paris"
MODERN, LEGACY = "2026-07-28", "2025-11-25"
ERAS = (MODERN, LEGACY)


def process_tree(pid: int) -> list[int]:
    """`pid` and every live descendant (the worker processes of `askback serve --workers N`)."""
    found, pending = [], [pid]
    while pending:
        current = pending.pop()
        found.append(current)
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as fh:
                    pending.extend(int(child) for child in fh.read().split())
        except OSError:
            continue
    return found


def cpu_seconds(pid: int) -> float:
    """utime + stime of process `pid` and its descendants (all their threads), in seconds."""
    total = 0
    for member in process_tree(pid):
        try:
            with open(f"/proc/{member}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # fields 14 and 15 of proc(5), after "pid (comm)"
    return total / CLK_TCK


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    state_bytes: list[int] = field(default_factory=list)
    flows: int = 0
    errors: int = 0
    samples: list[str] = field(default_factory=list)
    requests: int = 0  # requests sent by task flows (their polls vary)

    def error(self, what: str) -> None:
        self.errors += 1
        if len(self.samples) < 5:
            self.samples.append(what[:400])


async def one_flow(conn: Connection, rounds: int, tally: Tally) -> None:
    perf = time.perf_counter
    try:
        if rounds == 1:
            t0 = perf()
            done = await conn.rpc(call_body("greet", {"name": "Ada", "city": "Paris"}), name="greet")
            tally.latencies.append(perf() - t0)
        else:
            t0 = perf()
            first = await conn.rpc(call_body("greet", {"name": "Ada"}), name="greet")
            t1 = perf()
            tally.latencies.append(t1 - t0)
            result = first.get("result") or {}
            if result.get("resultType") != "input_required":
                tally.error(f"round 1 not input_required: {json.dumps(first)[:300]}")
                return
            key, answer_field = single_request(result)
            state = result.get("requestState")
            if state is not None:
                tally.state_bytes.append(len(state))
            body = call_body("greet", {"name": "Ada"}, responses={key: accept(**{answer_field: "Paris"})}, state=state)
            t2 = perf()
            done = await conn.rpc(body, name="greet")
            tally.latencies.append(perf() - t2)
        result = done.get("result") or {}
        content = result.get("content") or [{}]
        if result.get("resultType") != "complete" or result.get("isError") or content[0].get("text") != EXPECTED:
            tally.error(f"final round not the expected result: {json.dumps(done)[:300]}")
            return
        tally.flows += 1
    except (WireError, OSError, ValueError, KeyError, asyncio.IncompleteReadError) as exc:
        tally.error(f"{type(exc).__name__}: {exc}")
        await conn.close()


def a2a_body(data: dict[str, Any], n: int, task: dict[str, Any] | None = None) -> bytes:
    message: dict[str, Any] = {"role": "ROLE_USER", "messageId": f"m{n}", "parts": [{"data": data}]}
    if task is not None:
        message.update(taskId=task["id"], contextId=task["contextId"])
    return json.dumps({"jsonrpc": "2.0", "id": n, "method": "SendMessage", "params": {"message": message}}).encode()


async def one_a2a_flow(conn: Connection, tally: Tally) -> None:
    """The two-round flow over A2A: `greet {"name": "Ada"}` -> input-required asking the city -> a second
    message on the task with `{"city": "Paris"}` -> completed with the same greeting."""
    perf = time.perf_counter
    try:
        t0 = perf()
        first = await conn.rpc(a2a_body({"tool": "greet", "arguments": {"name": "Ada"}}, 1), method="SendMessage")
        tally.latencies.append(perf() - t0)
        task = (first.get("result") or {}).get("task") or {}
        if task.get("status", {}).get("state") != "TASK_STATE_INPUT_REQUIRED":
            tally.error(f"message 1 not input-required: {json.dumps(first)[:300]}")
            return
        t1 = perf()
        done = await conn.rpc(a2a_body({"city": "Paris"}, 2, task), method="SendMessage")
        tally.latencies.append(perf() - t1)
        task = (done.get("result") or {}).get("task") or {}
        parts = (task.get("artifacts") or [{}])[0].get("parts") or [{}]
        if task.get("status", {}).get("state") != "TASK_STATE_COMPLETED" or parts[0].get("text") != EXPECTED:
            tally.error(f"message 2 not the expected result: {json.dumps(done)[:300]}")
            return
        tally.flows += 1
    except (WireError, OSError, ValueError, KeyError, asyncio.IncompleteReadError) as exc:
        tally.error(f"{type(exc).__name__}: {exc}")
        await conn.close()


TASK_CAPS = {**FORM_CAPS, "extensions": {"io.modelcontextprotocol/tasks": {}}}
TASK_POLL = 0.05  # seconds between two `tasks/get` of one flow: long enough that most flows poll once a phase


async def one_task_flow(conn: Connection, tally: Tally) -> None:
    """The same greeting as an MCP task that asks during its work: `tools/call greet_task {"name": "Ada"}` (tasks
    extension) -> a task -> `tasks/get` until input_required -> `tasks/update` with the city -> `tasks/get`
    until completed. The requests it took are counted in `tally.requests` (polls vary with timing)."""
    try:
        created = await conn.rpc(call_body("greet_task", {"name": "Ada"}, capabilities=TASK_CAPS), name="greet_task")
        task_id = (created.get("result") or {}).get("taskId")
        tally.requests += 1
        if not task_id:
            tally.error(f"no task: {json.dumps(created)[:300]}")
            return
        task = await _poll(conn, task_id, "input_required", tally)
        key, answer_field = single_request(task)
        answers = {key: accept(**{answer_field: "Paris"})}
        update = rpc_body("tasks/update", {"taskId": task_id, "inputResponses": answers}, TASK_CAPS)
        await conn.rpc(update, method="tasks/update", name=task_id)
        tally.requests += 1
        task = await _poll(conn, task_id, "completed", tally)
        content = (task.get("result") or {}).get("content") or [{}]
        if content[0].get("text") != EXPECTED:
            tally.error(f"task not the expected result: {json.dumps(task)[:300]}")
            return
        tally.flows += 1
    except (WireError, OSError, ValueError, KeyError, asyncio.IncompleteReadError) as exc:
        tally.error(f"{type(exc).__name__}: {exc}")
        await conn.close()


async def _poll(conn: Connection, task_id: str, wanted: str, tally: Tally) -> dict[str, Any]:
    while True:
        got = await conn.rpc(rpc_body("tasks/get", {"taskId": task_id}, TASK_CAPS), method="tasks/get", name=task_id)
        tally.requests += 1
        task: dict[str, Any] = got.get("result") or {}
        if task.get("status") == wanted:
            return task
        if task.get("status") in ("completed", "failed", "cancelled") or not task:
            raise ValueError(f"task {task.get('status')} while waiting for {wanted}: {json.dumps(got)[:300]}")
        await asyncio.sleep(TASK_POLL)


async def session_flow(session: Session, tally: Tally) -> None:
    """One 2025-11-25 flow: the call, its one back-channel question answered, the result off the same stream."""
    perf = time.perf_counter
    try:
        ident, body = greet_body()
        t0 = perf()
        done, asked = await session.call(body, ident, {"city": "Paris"})
        tally.latencies.append(perf() - t0)
        result = done.get("result") or {}
        content = result.get("content") or [{}]
        if asked != 1 or result.get("isError") or content[0].get("text") != EXPECTED:
            tally.error(f"asked {asked} times, then not the expected result: {json.dumps(done)[:300]}")
            return
        tally.flows += 1
    except (WireError, OSError, ValueError, KeyError, asyncio.IncompleteReadError) as exc:
        tally.error(f"{type(exc).__name__}: {exc}")
        await session.close()  # the next flow opens a new session


Client = Connection | Session


def clients(port: int, era: str, concurrency: int, a2a: bool = False) -> list[Client]:
    if era == LEGACY:
        return [Session("127.0.0.1", port) for _ in range(concurrency)]
    if a2a:
        return [Connection("127.0.0.1", port, "/a2a", headers={"A2A-Version": "1.0"}) for _ in range(concurrency)]
    return [Connection("127.0.0.1", port) for _ in range(concurrency)]


async def drive(port: int, rounds: int, concurrency: int, *, flows: int | None = None,
                seconds: float | None = None, conns: list[Client] | None = None,
                era: str = MODERN, a2a: bool = False, task: bool = False) -> tuple[Tally, float]:
    """Run `flows` flows (or for `seconds`) over `concurrency` clients; return the tally and wall time.
    `a2a`: the two-round flow as two A2A messages at `/a2a` instead of MCP rounds; `task`: as an MCP task."""
    tally = Tally()
    pool = conns or clients(port, era, concurrency, a2a)
    claimed = 0
    deadline = time.perf_counter() + seconds if seconds is not None else None

    async def worker(conn: Client) -> None:
        nonlocal claimed
        while True:
            if flows is not None:
                if claimed >= flows:
                    return
                claimed += 1
            elif deadline is not None and time.perf_counter() >= deadline:
                return
            if isinstance(conn, Session):
                await session_flow(conn, tally)
            elif a2a:
                await one_a2a_flow(conn, tally)
            elif task:
                await one_task_flow(conn, tally)
            else:
                await one_flow(conn, rounds, tally)

    t0 = time.perf_counter()
    await asyncio.gather(*(worker(c) for c in pool))
    return tally, time.perf_counter() - t0


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def settled(pid: int, *, quiet: float = 0.01, window: float = 0.25, limit: float = 15.0) -> None:
    """Wait until the server spends under `quiet` CPU seconds in two `window`s in a row (at most `limit` s).

    What a server does once after its first requests (askback loads the SDK's stack in a thread once it has
    answered; any server may finish lazy set-up) is not the steady cost of a flow, so it stays out of the batch.
    """
    await asyncio.sleep(0.3)
    calm, waited = 0, 0.0
    while calm < 2 and waited < limit:
        before = cpu_seconds(pid)
        await asyncio.sleep(window)
        waited += window
        calm = calm + 1 if cpu_seconds(pid) - before < quiet else 0


async def measure(port: int, pid: int, rounds: int, concurrency: int, warmup: float, seconds: float,
                  min_flows: int, era: str = MODERN) -> dict[str, Any]:
    conns = clients(port, era, concurrency)
    warm, warm_wall = await drive(port, rounds, concurrency, seconds=warmup, conns=conns)
    rate = warm.flows / warm_wall if warm_wall > 0 else 0.0
    target = max(min_flows, int(rate * seconds))
    await settled(pid)
    # Fresh connections for the measured batch: the idle wait can outlast the server's keep-alive timeout
    # (uvicorn's is 5 s), and a warm-up connection the server closed meanwhile would fail its first flow.
    for c in conns:
        await c.close()
    # A session's initialize is made here, outside the measured batch: a client keeps its session for its calls.
    conns = clients(port, era, concurrency)
    await asyncio.gather(*(c.open() for c in conns))
    rss_before = rss_kib(pid)
    cpu0 = cpu_seconds(pid)
    tally, wall = await drive(port, rounds, concurrency, flows=target, conns=conns)
    await asyncio.sleep(0.05)
    cpu1 = cpu_seconds(pid)
    for c in conns:
        await c.close()
    cpu = cpu1 - cpu0
    done = max(tally.flows, 1)
    return {
        "rounds": rounds,
        "era": era,
        "concurrency": concurrency,
        "flows": tally.flows,
        "warmup_flows": warm.flows,
        "wall_s": wall,
        "flows_per_s": tally.flows / wall if wall > 0 else 0.0,
        "p50_ms": percentile(tally.latencies, 0.50) * 1e3,
        "p99_ms": percentile(tally.latencies, 0.99) * 1e3,
        "server_cpu_s": cpu,
        "cpu_ms_per_flow": cpu / done * 1e3,
        "rss_mib": rss_kib(pid) / 1024,
        "rss_growth_mib": (rss_kib(pid) - rss_before) / 1024,
        "state_bytes": statistics.median(tally.state_bytes) if tally.state_bytes else 0,
        "errors": tally.errors + warm.errors,
        "measured_errors": tally.errors,  # failed flows of the measured batch: its figures describe fewer flows
        "error_samples": tally.samples + warm.samples,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True, help="the server process whose CPU time is read")
    parser.add_argument("--rounds", type=int, choices=(1, 2), default=2)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--warmup", type=float, default=1.0, help="warm-up seconds")
    parser.add_argument("--seconds", type=float, default=3.0, help="target length of the measured batch")
    parser.add_argument("--min-flows", type=int, default=200)
    parser.add_argument("--era", choices=ERAS, default=MODERN, help="the protocol the flows speak")
    args = parser.parse_args()
    work = measure(args.port, args.pid, args.rounds, args.concurrency, args.warmup, args.seconds, args.min_flows,
                   args.era)
    print(json.dumps(_run(work)))


def _run(work: Any) -> Any:
    """On uvloop when it is installed: the generator shares the cores with the server it measures, and every
    microsecond its event loop spends is one a server's workers cannot use (the same for every server measured)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(work)
    return uvloop.run(work)


if __name__ == "__main__":
    main()
