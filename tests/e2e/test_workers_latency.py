"""`askback serve --workers N` answers as fast as one worker: every worker's accepted sockets get TCP_NODELAY.

Without it each small response waits for the client's delayed ACK, about 40 ms on Linux, so a request takes tens
of milliseconds instead of about one. The test reads the option itself, inside each worker (a probe tool lists
TCP_NODELAY of every connected TCP socket the worker holds), over a connection pinned to that worker, so it cannot
be moved by a loaded machine. Both run on h11 and asyncio: uvloop (the default loop) sets TCP_NODELAY on its own,
which would hide a listener that lost it. The latency itself is a figure for `make bench`, not an assertion here.
"""

import os

from tests.e2e.serving import started
from tests.e2e.workers import pin_workers, probed, release

TARGET = "tests/conformance/server.py"
PURE_PYTHON_STACK = ["--http", "h11", "--loop", "asyncio"]


def test_every_worker_sets_nodelay_on_the_sockets_it_accepts(tmp_path) -> None:  # type: ignore[no-untyped-def]
    env = {**os.environ, "ASKBACK_DATA_DIR": str(tmp_path / "data")}
    with started([probed(tmp_path, TARGET), "--port", "0", "--workers", "2", *PURE_PYTHON_STACK], env) as two:
        pinned = pin_workers(two.url, 2)
        try:
            flags = {w.pid: w.nodelay() for w in pinned}
        finally:
            release(pinned)
    assert len(flags) == 2, flags
    for pid, each in flags.items():
        assert each, (pid, "the worker holds no accepted connection, though one is pinned to it")
        assert all(each), (pid, each)


def test_one_worker_sets_nodelay_too(tmp_path) -> None:  # type: ignore[no-untyped-def]
    env = {**os.environ, "ASKBACK_DATA_DIR": str(tmp_path / "data")}
    with started([probed(tmp_path, TARGET), "--port", "0", *PURE_PYTHON_STACK], env) as one:
        pinned = pin_workers(one.url, 1)
        try:
            flags = pinned[0].nodelay()
        finally:
            release(pinned)
    assert flags and all(flags), flags
