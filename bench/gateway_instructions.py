"""Instructions the gateway's process runs per forwarded call, counted by valgrind: a figure load cannot move.

    PYTHONPATH=src:. .venv/bin/python bench/gateway_instructions.py [--calls 200,600]

The upstream (the `MCPServer` test app of `tests/support/adopted.py`) runs as in bench/gateway_overhead.py;
`askback gateway` in front of it runs under `valgrind --tool=callgrind`, counting only inside its event loop
(`uv_run`: requests, not start-up). One keep-alive client sends N complete `deploy` calls (2026-07-28) after a
warm-up; two runs with different N give the count per call: (count(N2) - count(N1)) / (N2 - N1). The same is
counted for the upstream alone, called directly, for scale: what a forwarded call costs the gateway's process
against what the call costs the server that runs the tool.

Kernel time (the loopback TCP stack) is not counted: on a loaded two-core machine the wall-clock cost of each
extra socket write (the woken peer takes the CPU) is not in these figures, only in bench/gateway_overhead.py.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from tests.conftest import free_port  # noqa: E402
from tests.support.processes import stop  # noqa: E402
from tests.support.rawclient import RawClient  # noqa: E402

from bench.gateway_overhead import _UPSTREAM, COMPLETE, wait_for  # noqa: E402
from bench.instructions import COLLECTED, callgrind  # noqa: E402

_UPSTREAM_UVLOOP = _UPSTREAM.replace("log_level='warning'", "log_level='warning', loop='uvloop', http='httptools'")


def counted(command: list[str], port: int, calls: int, env: dict[str, str], target: str | None = None) -> int:
    """Instructions `command` (a server on `port`) ran in its event loop for `calls` calls sent to `target`."""
    process = subprocess.Popen([*callgrind("--callgrind-out-file=/dev/null", "--toggle-collect=uv_run"), *command],
                               cwd=ROOT, env={**env, "PYTHONHASHSEED": "0"}, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    try:
        wait_for(f"http://127.0.0.1:{port}/mcp", process, seconds=600)  # start-up under valgrind is slow
        with RawClient(target or f"http://127.0.0.1:{port}/mcp") as client:
            for _ in range(20 + calls):
                assert "result" in client.call("deploy", COMPLETE)
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=600)
    found = COLLECTED.findall(err)
    if not found:
        raise SystemExit(f"valgrind printed no count:\n{err[-2000:]}")
    return int(found[-1])


def per_call(command: list[str], port: int, low: int, high: int, env: dict[str, str]) -> float:
    return (counted(command, port, high, env) - counted(command, port, low, env)) / (high - low)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", default="200,600", help="the two numbers of calls, N1,N2")
    low, high = (int(n) for n in parser.parse_args().calls.split(","))
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}", "ASKBACK_DATA_DIR": tempfile.mkdtemp()}
    up_port, gw_port = free_port(), free_port()
    upstream_alone = [sys.executable, "-c", _UPSTREAM_UVLOOP.format(port=up_port)]
    print(f"upstream, called directly: {per_call(upstream_alone, up_port, low, high, env) / 1e6:.3f} M "
          "instructions per call")
    upstream = subprocess.Popen(upstream_alone, cwd=ROOT, env=env)
    try:
        wait_for(f"http://127.0.0.1:{up_port}/mcp", upstream)
        gateway = [sys.executable, "-m", "askback.cli", "gateway", f"http://127.0.0.1:{up_port}/mcp",
                   "--port", str(gw_port), "--loop", "uvloop", "--http", "httptools"]
        print(f"gateway process, per forwarded call: {per_call(gateway, gw_port, low, high, env) / 1e6:.3f} M "
              "instructions")
    finally:
        stop(upstream)


if __name__ == "__main__":
    main()
