"""Instructions per two-round flow, counted by valgrind: a figure a shared machine's load cannot move.

    python -m bench.instructions [--servers askback,floor,mcpserver] [--flows 300,900] [--concurrency 16]
                                 [--era 2025-11-25]
    python -m bench.instructions --servers askback,askback-a2a [--store sqlite] [--a2a-tasks URL]

`askback-a2a` is the same two-round flow as two A2A messages on one task (askback's server, at `/a2a`);
`askback-task` the same greeting as an MCP task that asks the city during its work (bench/load.py's task flow:
the call, `tasks/get` polls, `tasks/update`, polls; the requests per flow are printed, since polls vary);
`--store` picks askback's store (memory, or sqlite in a fresh file), where A2A tasks are kept too unless
`--a2a-tasks` names another task store (`ASKBACK_A2A_TASKS`: e.g. memory:// for the SDK's in-memory one, or
sqlite:///path for its database store). The ratios printed are to askback's MCP flow.

CPU seconds on a two-core machine that other work shares move by tens of percent between runs; instruction
counts do not (the same program, inputs and environment give the same count to a fraction of a percent). Each
server of `bench/servers.py` runs under `valgrind --tool=callgrind`, counting only inside its event loop
(`uv_run`: the requests and the HTTP server, not start-up), while `bench/load.py`'s client runs outside valgrind
and drives N two-round flows. Two runs with different N give the count per flow without start-up or warm-up:
(count(N2) - count(N1)) / (N2 - N1).

What instructions leave out: kernel time (the loopback TCP stack, epoll), and what the hardware does with the
instructions (cache misses). So a ratio here is close to, not equal to, the ratio of CPU seconds
`bench/run.py` measures; it says whether a change made a flow cheaper when the clock cannot.

`--era 2025-11-25` counts the older protocol's flow instead (bench/load.py's session flow: the question on the
back-channel, MCPServer served with sessions for it); its sessions are made in the warm-up, so the count per
flow holds no initialize. On this era askback does build its SDK path (it serves sessions); otherwise
the askback server never builds its SDK path here (this flow never needs it, and askback builds it only on
first need). Needs valgrind (Debian's package).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.load import ERAS, MODERN, clients, drive  # noqa: E402
from bench.run import free_port  # noqa: E402

COLLECTED = re.compile(r"Collected : (\d+)")


def callgrind(*options: str) -> list[str]:
    """valgrind's command line counting instructions only where `options` toggle collection on (none at start)."""
    return ["valgrind", "--tool=callgrind", "--collect-atstart=no", *options]


def count(kind: str, flows: int, concurrency: int, era: str = MODERN,
          env_extra: dict[str, str] | None = None) -> tuple[int, int]:
    """Instructions the server's event loop ran, from start-up to exit, with `flows` measured flows driven; and
    the requests those flows sent."""
    port = free_port()
    a2a, task = kind == "askback-a2a", kind == "askback-task"
    command = [*callgrind("--callgrind-out-file=/dev/null", "--toggle-collect=uv_run"), sys.executable, "-m",
               "bench.servers", "askback" if a2a or task else kind, "--port", str(port), "--http", "httptools",
               "--loop", "uvloop", "--era", era]
    # No bytecode written: a module first imported inside the event loop (askback builds parts on first need)
    # is compiled in both runs of a pair alike, where a .pyc written by the first would make the second cheaper
    # and the difference per flow too low (about half, for a tree without .pyc files, as a baseline is).
    env = {**os.environ, "PYTHONHASHSEED": "0", **(env_extra or {}), "PYTHONDONTWRITEBYTECODE": "1"}
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True)
    try:
        _wait_for(port, server)
        sent = asyncio.run(_drive(port, 20, flows, concurrency, era, a2a, task))  # warm-up: the same for every N
    finally:
        server.send_signal(signal.SIGINT)
        _, err = server.communicate(timeout=600)
    found = COLLECTED.findall(err)
    if not found:
        raise RuntimeError(f"valgrind printed no count for {kind}:\n{err[-2000:]}")
    return int(found[-1]), sent


async def _drive(port: int, warm: int, flows: int, concurrency: int, era: str, a2a: bool = False,
                 task: bool = False) -> int:
    """`warm` flows, a pause, then `flows` flows, on the same clients (a 2025-11-25 client keeps its session);
    the requests of the measured flows (counted by task flows only, else 0)."""
    pool = clients(port, era, concurrency, a2a)
    sent = 0
    for n in (warm, flows):
        tally, _ = await drive(port, 2, concurrency, flows=n, conns=pool, a2a=a2a, task=task)
        if tally.errors or tally.flows != n:
            raise RuntimeError(f"{tally.errors} errors in {tally.flows} flows: {tally.samples[:3]}")
        if n == warm:
            await asyncio.sleep(2)
        sent = tally.requests
    for client in pool:
        await client.close()
    return sent


def _wait_for(port: int, server: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 600  # start-up under valgrind takes tens of seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited with {server.returncode}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5)
        except urllib.error.HTTPError:
            return  # it answers (404 or 405 at the root): it is up
        except OSError:
            time.sleep(0.5)
            continue
        return
    raise RuntimeError("the server did not start within 10 minutes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", default="askback,floor")
    parser.add_argument("--flows", default="300,900", help="the two flow counts, N1,N2")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--store", default="memory", choices=("memory", "sqlite"), help="askback's store")
    parser.add_argument("--a2a-tasks", default="", help="ASKBACK_A2A_TASKS for the server (unset: askback's store)")
    parser.add_argument("--era", choices=ERAS, default=MODERN, help="the protocol the flows speak")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    low, high = (int(n) for n in args.flows.split(","))
    kinds = args.servers.split(",")
    per_flow: dict[str, float] = {}
    for kind in kinds:
        counts, sent = [], []
        for n in (low, high):
            with tempfile.TemporaryDirectory() as data:  # a fresh data dir (and SQLite file) per run
                env = {"ASKBACK_DATA_DIR": data, "ASKBACK_A2A_TASKS": args.a2a_tasks.replace("DATA", data)}
                if args.store == "sqlite":
                    env["BENCH_STORE"] = f"sqlite:///{data}/askback.sqlite3"
                instructions, requests = count(kind, n, args.concurrency, args.era, env)
                counts.append(instructions)
                sent.append(requests)
        per_flow[kind] = (counts[1] - counts[0]) / (high - low)
        polled = f"; {sent[0] / low:.2f} and {sent[1] / high:.2f} requests per flow" if sent[1] else ""
        print(f"{kind}: {per_flow[kind] / 1e6:.3f} M instructions per flow "
              f"({counts[0]:,} at {low} flows, {counts[1]:,} at {high}{polled})", flush=True)
    if "askback" in per_flow:
        for kind, value in per_flow.items():
            if kind != "askback":
                print(f"{kind} / askback = {value / per_flow['askback']:.2f}")


if __name__ == "__main__":
    main()
