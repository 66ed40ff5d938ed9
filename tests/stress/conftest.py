"""The reliability suite's shared pieces: sizes, the figures report, replicas in subprocesses, a flow driver.

Sizes are small by default, so the suite runs inside the normal `pytest` run in well under a minute;
`ASKBACK_STRESS=full` (what `make stress` sets) selects the full sizes. Every test records its figures with
`report(...)`; they are printed at the end of the run and, with `ASKBACK_STRESS_REPORT=path`, written as JSON.
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from bench.wire import Connection, WireError, accept, call_body

from tests.conftest import free_port

FULL = os.environ.get("ASKBACK_STRESS") == "full"
ROOT = Path(__file__).resolve().parents[2]
TARGET = str(Path(__file__).with_name("stress_app.py"))
FROZEN = {"code": -32602, "message": "Invalid or expired requestState; start the request again without it."}
_FIGURES: list[tuple[str, dict[str, Any]]] = []


def size(reduced: int, full: int) -> int:
    """The reduced figure in a normal run, the full one under ASKBACK_STRESS=full."""
    return full if FULL else reduced


def key_text(seed: int) -> str:
    return base64.urlsafe_b64encode(bytes((seed + i) % 256 for i in range(32))).decode().rstrip("=")


@pytest.fixture
def report(request: pytest.FixtureRequest) -> Callable[..., None]:
    def record(**figures: Any) -> None:
        _FIGURES.append((request.node.name, figures))

    return record


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not _FIGURES:
        return
    terminalreporter.section(f"askback stress figures ({'full' if FULL else 'reduced'} sizes)")
    for name, figures in _FIGURES:
        shown = ", ".join(f"{k}={v:.3g}" if isinstance(v, float) else f"{k}={v}" for k, v in figures.items())
        terminalreporter.write_line(f"{name}: {shown}")
    target = os.environ.get("ASKBACK_STRESS_REPORT")
    if target:
        Path(target).write_text(json.dumps({"full": FULL, "tests": [{"test": n, **f} for n, f in _FIGURES]},
                                           indent=1))


# -- replicas: `askback serve` in subprocesses ---------------------------------------------------------------
class Replica:
    """One `askback serve tests/stress/stress_app.py` process on its own port."""

    def __init__(self, name: str, workdir: Path, env: dict[str, str]) -> None:
        self.name = name
        self.port = free_port()
        self.log = workdir / f"{name}.log"
        self.env = env
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, **env: str) -> Replica:
        self.env = {**self.env, **env}
        with self.log.open("ab") as sink:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "askback.cli", "serve", TARGET, "--port", str(self.port)],
                cwd=ROOT, env=self.env, stdout=sink, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                pytest.fail(f"replica {self.name} exited with {self.process.returncode}:\n{self.log.read_text()}")
            try:
                asyncio.run(_probe(self.port))
                return self
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"replica {self.name} did not start:\n{self.log.read_text()}")
                time.sleep(0.05)

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flushing, in-flight requests lost."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        """SIGINT: uvicorn finishes in-flight requests, then exits (a rolling restart's stop)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


async def _probe(port: int) -> None:
    conn = Connection("127.0.0.1", port)
    try:
        await conn.rpc(call_body("plan", {}), name="plan")
    finally:
        await conn.close()


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


@pytest.fixture
def replica_env(tmp_path: Path) -> dict[str, str]:
    """Environment shared by a test's replicas: one key ring, one SQLite store file, one run log."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ASKBACK_", "STRESS_"))}
    env.update(ASKBACK_KEYS=key_text(1), ASKBACK_STORE=f"sqlite:///{tmp_path / 'shared.sqlite3'}",
               ASKBACK_DATA_DIR=str(tmp_path / "data"), STRESS_RUNLOG=str(tmp_path / "runs.log"))
    return env


@pytest.fixture
def replicas(tmp_path: Path, replica_env: dict[str, str]) -> Iterator[Callable[[str], Replica]]:
    made: list[Replica] = []

    def make(name: str) -> Replica:
        replica = Replica(name, tmp_path, dict(replica_env))
        made.append(replica)
        return replica

    yield make
    for replica in made:
        replica.kill()


def runs(env: dict[str, str]) -> Counter[str]:
    """How many times each flow's function ran, across every replica."""
    path = Path(env["STRESS_RUNLOG"])
    return Counter(path.read_text().split()) if path.exists() else Counter()


# -- the flow driver --------------------------------------------------------------------------------------
@dataclass
class FlowStats:
    completed: int = 0
    dropped: int = 0  # a flow that could not finish: a frozen-state error, or anything unexpected
    failovers: int = 0  # requests resent to another replica after a connection failure
    ambiguous_final: int = 0  # a final round cut mid-request whose retry found it already done (check run log)
    problems: list[str] = field(default_factory=list)
    started_ids: list[str] = field(default_factory=list)

    def problem(self, text: str) -> None:
        self.dropped += 1
        if len(self.problems) < 8:
            self.problems.append(text[:500])


class Cluster:
    """Replicas behind a client-side balancer: round-robin, or pinned to one; a failed connection fails over."""

    def __init__(self, replicas: list[Replica]) -> None:
        self.replicas = replicas
        self._next = itertools.count()
        self.pinned: Replica | None = None

    def pick(self, avoid: Replica | None = None) -> Replica:
        if self.pinned is not None and self.pinned is not avoid:
            return self.pinned
        for _ in range(len(self.replicas)):
            replica = self.replicas[next(self._next) % len(self.replicas)]
            if replica is not avoid:
                return replica
        return self.replicas[0]


async def send(cluster: Cluster, conns: dict[int, Connection], body: bytes, stats: FlowStats,
               attempts: int = 40) -> tuple[dict[str, Any], bool]:
    """POST to a replica the cluster picks; on a connection failure resend elsewhere. Returns (response, retried)."""
    avoid: Replica | None = None
    retried = False
    for _ in range(attempts):
        replica = cluster.pick(avoid)
        conn = conns.get(replica.port)
        if conn is None:
            conn = conns[replica.port] = Connection("127.0.0.1", replica.port)
        try:
            return await conn.rpc(body, name="plan"), retried
        except (OSError, WireError, asyncio.IncompleteReadError):
            await conn.close()
            conns.pop(replica.port, None)
            stats.failovers += 1
            retried = True
            avoid = replica
            await asyncio.sleep(0.05)
    raise ConnectionError("no replica answered")


ROUND_ANSWERS = ({}, {"first": None}, {"second": accept(second="b")}, {"ok": accept(ok=True)})


async def plan_flow(cluster: Cluster, flow_id: str, stats: FlowStats, *, think: float = 0.0,
                    conns: dict[int, Connection] | None = None) -> bool:
    """Drive one `plan` flow (four requests) to completion; record what happened. True if it completed."""
    conns = {} if conns is None else conns
    stats.started_ids.append(flow_id)
    state = None
    for number in range(4):
        responses = {"first": accept(first=flow_id)} if number == 1 else (ROUND_ANSWERS[number] or None)
        body = call_body("plan", {}, responses=responses, state=state)
        try:
            response, retried = await send(cluster, conns, body, stats)
        except ConnectionError as exc:
            stats.problem(f"{flow_id} round {number + 1}: {exc}")
            return False
        if "error" in response:
            if number == 3 and retried and response["error"] == FROZEN:
                stats.ambiguous_final += 1  # the cut attempt ran it: the run log must show exactly one run
                stats.completed += 1
                return True
            stats.problem(f"{flow_id} round {number + 1}: {response['error']}")
            return False
        result = response.get("result") or {}
        if number < 3:
            if result.get("resultType") != "input_required" or "requestState" not in result:
                stats.problem(f"{flow_id} round {number + 1}: not asked: {json.dumps(result)[:300]}")
                return False
            state = result["requestState"]
            if think:
                await asyncio.sleep(think)
        elif result.get("resultType") != "complete" or result.get("isError") or \
                result["content"][0]["text"] != f"planned {flow_id} then b":
            stats.problem(f"{flow_id} final round: {json.dumps(result)[:300]}")
            return False
    stats.completed += 1
    return True
