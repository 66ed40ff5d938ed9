"""`askback serve --workers N` answers as fast as one worker: accepted sockets get TCP_NODELAY.

Without it each small response waits for the client's delayed ACK, about 40 ms on Linux, so a request takes
tens of milliseconds instead of about one. The two servers are measured in the same run and compared; the
difference being looked for is an order of magnitude, far above scheduling noise. Both run on h11 and asyncio:
uvloop (the default loop) sets TCP_NODELAY on its own, which would hide a listener that lost it.
"""

import contextlib
import os
import statistics
import time

import httpx

from tests.e2e.serving import started
from tests.e2e.workers import Worker, pin_workers, probed, release

TARGET = "tests/conformance/server.py"
PURE_PYTHON_STACK = ["--http", "h11", "--loop", "asyncio"]
BODY = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "latency", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {}}}}
HEADERS = {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list",
           "Accept": "application/json, text/event-stream"}


def median_ms(url: str, n: int = 40, http: httpx.Client | None = None, worker: Worker | None = None) -> float:
    """The median time of `n` requests on one kept-alive connection: the delayed ACK shows on each response."""
    times = []
    with httpx.Client(timeout=10) if http is None else contextlib.nullcontext(http) as client:
        client.post(url, json=BODY, headers=HEADERS)
        for _ in range(n):
            start = time.perf_counter()
            response = client.post(url, json=BODY, headers=HEADERS)
            times.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200
            assert worker is None or worker.answered(response), "the connection left its worker"
    return statistics.median(times)


def test_several_workers_answer_without_waiting_for_a_delayed_ack(tmp_path) -> None:  # type: ignore[no-untyped-def]
    env = {**os.environ, "ASKBACK_DATA_DIR": str(tmp_path / "data")}
    with started([TARGET, "--port", "0", *PURE_PYTHON_STACK], env) as one:
        single = median_ms(one.url)
    # Each worker measured on a connection pinned to it: every worker's accepted sockets must have TCP_NODELAY.
    with started([probed(tmp_path, TARGET), "--port", "0", "--workers", "2", *PURE_PYTHON_STACK], env) as two:
        pinned = pin_workers(two.url, 2)
        try:
            workers = {w.pid: median_ms(two.url, http=w.client.http, worker=w) for w in pinned}
        finally:
            release(pinned)
    assert len(workers) == 2, workers
    for each in workers.values():
        assert each < 30, (single, workers)  # the delayed ACK alone would make it about 40 ms
        assert each < 4 * single + 10, (single, workers)
