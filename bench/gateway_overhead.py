"""What `askback gateway` adds to a forwarded call that needs nothing asked, over calling the upstream directly.

`PYTHONPATH=src:. .venv/bin/python bench/gateway_overhead.py [CALLS]` starts the test app of
`tests/support/adopted.py` (the SDK's `streamable_http_app()` under uvicorn) and `askback gateway` in front of
it, each in its own process on loopback, then sends CALLS complete `deploy` calls (2026-07-28, one keep-alive
connection each) to the upstream and through the gateway, interleaved, and prints p50 and p99 of each and of
the difference. It reports; nothing here asserts a time.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

import httpx  # noqa: E402
from tests.conftest import free_port  # noqa: E402
from tests.support.processes import stop  # noqa: E402
from tests.support.rawclient import RawClient  # noqa: E402

COMPLETE = {"service": "api", "env": "staging"}
_UPSTREAM = (
    "import logging, uvicorn; from tests.support import adopted; "
    "logging.disable(logging.INFO); "
    "uvicorn.run(adopted.build().streamable_http_app(), host='127.0.0.1', port={port}, log_level='warning')"
)


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def pct(samples: list[float], q: int) -> float:
    return statistics.quantiles(samples, n=100)[q - 1]


def wait_for(url: str, process: subprocess.Popen[Any], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"{url}: the process exited with {process.returncode}")
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise SystemExit(f"{url} did not start")


def main() -> None:
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}", "ASKBACK_DATA_DIR": tempfile.mkdtemp()}
    up_port, gw_port = free_port(), free_port()
    upstream = subprocess.Popen([sys.executable, "-c", _UPSTREAM.format(port=up_port)], cwd=ROOT, env=env)
    gateway: subprocess.Popen[bytes] | None = None
    try:
        wait_for(f"http://127.0.0.1:{up_port}/mcp", upstream)
        gateway = subprocess.Popen([sys.executable, "-m", "askback.cli", "gateway", f"http://127.0.0.1:{up_port}/mcp",
                                    "--port", str(gw_port)], cwd=ROOT, env=env)
        wait_for(f"http://127.0.0.1:{gw_port}/mcp", gateway)
        with RawClient(f"http://127.0.0.1:{up_port}/mcp") as direct, \
                RawClient(f"http://127.0.0.1:{gw_port}/mcp") as through:
            runs: dict[str, Callable[[], dict[str, Any]]] = {"direct": lambda: direct.call("deploy", COMPLETE),
                    "through the gateway": lambda: through.call("deploy", COMPLETE)}
            for fn in runs.values():
                for _ in range(50):
                    assert "result" in fn()  # warm up, and a failed call is not timed as a fast one
            samples: dict[str, list[float]] = {label: [] for label in runs}
            for _ in range(calls):  # interleaved: a noisy neighbour slows both alike
                for label, fn in runs.items():
                    samples[label].append(timed(fn))
        for label, taken in samples.items():
            print(f"{label:<22} p50 {pct(taken, 50):6.2f} ms   p99 {pct(taken, 99):6.2f} ms   ({len(taken)} calls)")
        added = [t - d for t, d in zip(samples["through the gateway"], samples["direct"], strict=True)]
        print(f"{'added (paired)':<22} p50 {pct(added, 50):6.2f} ms   p99 {pct(added, 99):6.2f} ms")
        gone_through, went_direct = samples["through the gateway"], samples["direct"]
        print(f"{'added (p50 - p50)':<22} {pct(gone_through, 50) - pct(went_direct, 50):6.2f} ms   "
              f"(p99 - p99) {pct(gone_through, 99) - pct(went_direct, 99):6.2f} ms")
    finally:
        if gateway is not None:
            stop(gateway)
        stop(upstream)


if __name__ == "__main__":
    main()
