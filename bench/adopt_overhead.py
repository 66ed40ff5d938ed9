"""What `askback.adopt` costs a call that needs nothing asked, and what a whole asked flow takes.

`PYTHONPATH=src:. .venv/bin/python bench/adopt_overhead.py [CALLS]` serves the test app of
`tests/support/adopted.py` plain and adopted (the SDK's `streamable_http_app()` under uvicorn, each in a thread
on loopback), sends CALLS complete `deploy` calls to each over one keep-alive connection, and CALLS flows of
one asked round (call, then the retry with the answer) to the adopted one, interleaved, and prints the median and p95 of
each in milliseconds. It reports; nothing here asserts a time.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from tests.conftest import LoopbackServer  # noqa: E402
from tests.support import adopted  # noqa: E402
from tests.support.rawclient import RawClient  # noqa: E402

COMPLETE = {"service": "api", "env": "staging"}


def timed(fn: Callable[[], object], calls: int) -> list[float]:
    out = []
    for _ in range(calls):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def line(label: str, samples: list[float]) -> str:
    p95 = statistics.quantiles(samples, n=20)[-1]
    return f"{label:<34} median {statistics.median(samples):6.2f} ms   p95 {p95:6.2f} ms   ({len(samples)} calls)"


def main() -> None:
    import logging

    logging.getLogger("httpx").setLevel(logging.WARNING)  # MCPServer turns INFO logging on: one line per request
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    with LoopbackServer(adopted.build().streamable_http_app()) as plain, \
            LoopbackServer(adopted.adopted().streamable_http_app()) as adopted_server, \
            RawClient(plain.url) as plain_raw, RawClient(adopted_server.url) as raw:

        def flow() -> None:
            first = raw.call("deploy", {"service": "api"})["result"]
            (key,) = first["inputRequests"]
            answer = {key: {"action": "accept", "content": {"env": "staging"}}}
            done = raw.call("deploy", {"service": "api"}, responses=answer, state=first["requestState"])
            assert done["result"]["resultType"] == "complete"

        runs: dict[str, Callable[[], object]] = {
            "plain, complete call": lambda: plain_raw.call("deploy", COMPLETE),
            "adopted, complete call": lambda: raw.call("deploy", COMPLETE),
            "adopted, one asked round (2 calls)": flow,
        }
        samples: dict[str, list[float]] = {label: [] for label in runs}
        for fn in runs.values():
            timed(fn, 30)  # warm up
        # Interleaved, so a noisy neighbour on a shared machine slows each kind alike.
        for _ in range(calls):
            for label, fn in runs.items():
                samples[label] += timed(fn, 1)
        for label, taken in samples.items():
            print(line(label, taken))


if __name__ == "__main__":
    main()
