"""The bench's load generator against a real server: a measured batch is never run on stale connections, and a
batch in which a flow failed is not turned into a figure.

The server is the bench's askback app on uvicorn with a keep-alive timeout shorter than the generator's idle
wait (`settled` sleeps at least 0.8 s), so every warm-up connection has been closed by the server before the
measured batch starts: exactly what uvicorn's 5 s timeout did to the `--workers` runs, without waiting 5 s.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bench import load
from bench.run import Results, every_flow_completed, ratio, table, workers_table
from bench.session import Session, greet_body

from tests.conftest import free_port
from tests.support.processes import stop

ROOT = Path(__file__).resolve().parents[1]
KEEP_ALIVE = 0.5  # seconds: below the idle wait of `settled`, so the warm-up connections are closed meanwhile
SERVE = """
import sys, uvicorn
from bench.servers import BUILDERS
uvicorn.run(BUILDERS["askback"](), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning",
            http="h11", loop="asyncio", timeout_keep_alive=float(sys.argv[2]))
"""


@pytest.fixture(scope="module")
def bench_server() -> Iterator[tuple[int, int]]:
    port = free_port()
    process = subprocess.Popen([sys.executable, "-c", SERVE, str(port), str(KEEP_ALIVE)], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        asyncio.run(_until_answering(port, process))
        yield port, process.pid
    finally:
        stop(process)  # type: ignore[arg-type]


async def _until_answering(port: int, process: subprocess.Popen[str]) -> None:
    for _ in range(300):  # bounded: 30 s
        if process.poll() is not None:
            pytest.fail(f"the bench server exited: {process.stderr.read() if process.stderr else ''}")
        tally = load.Tally()
        conn = load.Connection("127.0.0.1", port)
        await load.one_flow(conn, 2, tally)
        await conn.close()
        if tally.flows == 1:
            return
        await asyncio.sleep(0.1)
    pytest.fail("the bench server never completed a flow")


def test_the_measured_batch_runs_on_fresh_connections_after_the_idle_wait(bench_server: tuple[int, int]) -> None:
    port, pid = bench_server
    concurrency, min_flows = 4, 40
    result = load._run(load.measure(port, pid, rounds=2, concurrency=concurrency, warmup=0.3, seconds=0.1,
                                    min_flows=min_flows))
    assert result["warmup_flows"] > 0, result
    # Every flow of the batch completed: on the warm-up's connections, the first flow of each would fail.
    assert result["measured_errors"] == 0 and result["errors"] == 0, result["error_samples"]
    assert result["flows"] >= min_flows, result
    assert every_flow_completed(result, "askback K=4") is result


def _failed_batch() -> dict[str, Any]:
    return {"flows": 68, "errors": 32, "measured_errors": 32,
            "error_samples": ["ConnectionResetError: connection closed before a response"]}


def test_a_batch_with_a_failed_flow_is_not_a_figure() -> None:
    with pytest.raises(RuntimeError, match=r"--workers 2: 32 flows failed \(32 of them in the measured batch, 68 "
                                           r"completed\), so its figure is not reported"):
        every_flow_completed(_failed_batch(), "askback serve --workers 2")
    warm_only = {**_failed_batch(), "errors": 1, "measured_errors": 0}
    with pytest.raises(RuntimeError, match="1 flows failed"):  # a failure in the warm-up is said too
        every_flow_completed(warm_only, "askback serve --workers 1")


def test_a_failed_workers_run_is_named_in_the_table_and_kept_out_of_the_ratio() -> None:
    one = {"flows_per_s": 1000.0, "cpu_ms_per_flow": 1.0, "p50_ms": 1.0, "p99_ms": 2.0, "errors": 0}
    two = {**one, "flows_per_s": 1500.0}
    results = Results(workers=[{1: one, 2: two}], workers_failed=["askback serve --workers 2: 32 flows failed"])
    text = workers_table(results)
    assert "**1.50**" in text  # the ratio of the run that completed, alone
    assert "1 of 2 runs of the `--workers` measurement failed" in text and "32 flows failed" in text
    nothing = workers_table(Results(workers_failed=["askback serve --workers 1: 3 flows failed"]))
    assert "not measured" in nothing and "3 flows failed" in nothing


def test_a_server_batch_with_a_failed_flow_is_left_out_of_the_medians_and_ratios_and_named() -> None:
    def batch(cpu: float) -> dict[str, Any]:
        return {"cpu_ms_per_flow": cpu, "flows_per_s": 1000.0, "p50_ms": 1.0, "p99_ms": 2.0, "rss_mib": 50.0,
                "state_bytes": 200, "errors": 0}

    # Run 2's askback K=16 batch failed: only run 1 gives the K = 16 ratio; K = 1 has both runs.
    results = Results(runs=[{"askback": {1: batch(0.3), 16: batch(0.3)}, "mcpserver": {1: batch(1.5), 16: batch(1.5)}},
                            {"askback": {1: batch(0.5)}, "mcpserver": {1: batch(1.5), 16: batch(9.0)}}],
                      batches_failed=[("askback", 16, 32, "run 2 askback K=16: 32 flows failed")])
    assert ratio(results, "mcpserver", 16) == 5.0
    assert ratio(results, "mcpserver", 1) == 4.0  # the median of 5.0 and 3.0
    text = table(results)
    assert "1 batches had failed flows and are left out of every figure" in text and "32 flows failed" in text
    rows = {tuple(cell.strip() for cell in line.split("|")[1:3]): line for line in text.splitlines()}
    assert rows[("askback", "16")].rstrip(" |").endswith("32") and rows[("askback", "1")].rstrip(" |").endswith("0")


def test_the_2025_11_25_flow_asks_on_the_back_channel_of_one_session_per_client(bench_server: tuple[int, int]) -> None:
    port, pid = bench_server
    concurrency, min_flows = 4, 40
    result = load._run(load.measure(port, pid, rounds=2, concurrency=concurrency, warmup=0.3, seconds=0.1,
                                    min_flows=min_flows, era=load.LEGACY))
    # Each flow was asked exactly once over its call's stream and ended "Hello Ada from Paris", on fresh
    # sessions after the idle wait closed the warm-up's connections.
    assert result["era"] == load.LEGACY and result["warmup_flows"] > 0, result
    assert result["measured_errors"] == 0 and result["errors"] == 0, result["error_samples"]
    assert result["flows"] >= min_flows, result


def test_a_2025_11_25_call_with_nothing_to_ask_is_answered_on_its_session(bench_server: tuple[int, int]) -> None:
    port, _ = bench_server

    async def flow() -> load.Tally:
        tally = load.Tally()
        session = Session("127.0.0.1", port)
        ident, body = greet_body()
        # Both values sent: the server completes without a question, which is not the flow being measured.
        complete = body.replace(b'{"name":"Ada"}', b'{"name":"Ada","city":"Paris"}')
        done, asked = await session.call(complete, ident, {"city": "Paris"})
        assert asked == 0 and done["result"]["content"][0]["text"] == "Hello Ada from Paris", done
        await load.session_flow(session, tally)
        await session.close()
        return tally

    tally = load._run(flow())
    assert tally.flows == 1 and tally.errors == 0, tally.samples


def test_a_session_outlives_connections_the_server_closed_while_they_idled(bench_server: tuple[int, int]) -> None:
    port, _ = bench_server

    async def flows() -> load.Tally:
        tally = load.Tally()
        session = Session("127.0.0.1", port)
        await session.open()
        await load.session_flow(session, tally)
        await asyncio.sleep(KEEP_ALIVE * 3)  # both of the session's connections are closed by the server meanwhile
        await load.session_flow(session, tally)
        await session.close()
        return tally

    tally = load._run(flows())
    assert tally.flows == 2 and tally.errors == 0, tally.samples
