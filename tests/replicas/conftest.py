"""Replicas on loopback as operators run them: `askback serve` processes sharing Redis, behind HAProxy.

Each test gets its own namespace in Redis (`?app=` in the store URL), one key ring, one run log, and a load
balancer whose address is the replicas' public URL (page links point at it, not at one replica).
"""

from __future__ import annotations

import base64
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from bench.wire import call_body

from tests.conftest import free_port
from tests.support.haproxy import HAProxy
from tests.support.redis import machine_or_private

ROOT = Path(__file__).resolve().parents[2]
TARGET = str(Path(__file__).with_name("replica_app.py"))
FROZEN = {"code": -32602, "message": "Invalid or expired requestState; start the request again without it."}


def key_text(seed: int) -> str:
    return base64.urlsafe_b64encode(bytes((seed + i) % 256 for i in range(32))).decode().rstrip("=")


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    url, private = machine_or_private()
    yield url
    if private is not None:
        private.stop()


class Replica:
    """One `askback serve tests/replicas/replica_app.py --port P` process (or another `target` app)."""

    def __init__(self, name: str, workdir: Path, env: dict[str, str], target: str = TARGET) -> None:
        self.name = name
        self.target = target
        self.port = free_port()
        self.log = workdir / f"{name}.log"
        self.env = env
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, **env: str) -> Replica:
        self.env = {**self.env, **env}
        with self.log.open("ab") as sink:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "askback.cli", "serve", self.target, "--port", str(self.port)],
                cwd=ROOT, env=self.env, stdout=sink, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                pytest.fail(f"replica {self.name} exited with {self.process.returncode}:\n{self.log.read_text()}")
            try:  # uvicorn listens only once the lifespan (store opened, key ring checked) has started
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return self
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"replica {self.name} did not start:\n{self.log.read_text()}")
                time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no shutdown, in-flight requests lost."""
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


@dataclass
class Cluster:
    """Replicas, the load balancer in front of them, and what they share."""

    replicas: dict[str, Replica]
    lb: HAProxy
    env: dict[str, str]
    extra: list[Any] = field(default_factory=list)

    @property
    def mcp(self) -> str:
        return f"{self.lb.url}/mcp"

    def runs(self) -> Counter[str]:
        """How many times each flow's function ran, across every replica."""
        path = Path(self.env["REPLICA_RUNLOG"])
        return Counter(path.read_text().split()) if path.exists() else Counter()


@pytest.fixture
def cluster(tmp_path: Path, redis_url: str) -> Iterator[Callable[..., Cluster]]:
    made: list[Cluster] = []

    def make(names: tuple[str, ...] = ("a", "b"), *, sticky: bool = False, start: bool = True,
             **env: str) -> Cluster:
        lb_port = free_port()
        shared = {k: v for k, v in os.environ.items() if not k.startswith(("ASKBACK_", "REPLICA_"))}
        shared.update(
            ASKBACK_KEYS=key_text(1),
            ASKBACK_STORE=f"{redis_url}?app=replicas-{os.urandom(5).hex()}",
            ASKBACK_PUBLIC_URL=f"http://127.0.0.1:{lb_port}",
            ASKBACK_DATA_DIR=str(tmp_path / "data"),
            REPLICA_RUNLOG=str(tmp_path / "runs.log"),
        )
        shared.update(env)
        replicas = {name: Replica(name, tmp_path, dict(shared)) for name in names}
        lb = HAProxy(lb_port, {name: r.port for name, r in replicas.items()}, sticky=sticky)
        made_cluster = Cluster(replicas, lb, shared)
        made.append(made_cluster)
        if start:
            for replica in replicas.values():
                replica.start()
            lb.start()
        return made_cluster

    yield make
    for c in made:
        c.lb.stop()
        for replica in c.replicas.values():
            replica.kill()


# -- a small client over the load balancer --------------------------------------------------------------
@dataclass
class Answer:
    served_by: str
    status: int
    body: dict[str, Any]


async def post(client: httpx.AsyncClient, url: str, body: bytes, *, attempts: int = 40) -> Answer:
    """POST one 2026-07-28 request through the LB; resend when the LB answers 502/503 (no replica could)."""
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
               "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call",
               "Mcp-Name": json.loads(body)["params"]["name"]}
    for _ in range(attempts):
        try:
            r = await client.post(url, content=body, headers=headers)
        except httpx.TransportError:
            await _pause()
            continue
        if r.status_code in (502, 503, 504):
            await _pause()
            continue
        return Answer(r.headers.get("x-served-by", ""), r.status_code, r.json())
    raise AssertionError("no replica answered through the load balancer")


async def _pause() -> None:
    import anyio

    await anyio.sleep(0.05)


ROUNDS: tuple[dict[str, Any] | None, ...] = (None, {"first": None}, {"second": {"action": "accept",
                                                                               "content": {"second": "b"}}},
                                             {"ok": {"action": "accept", "content": {"ok": True}}})


def plan_body(flow_id: str, number: int, state: str | None) -> bytes:
    responses = ROUNDS[number]
    if number == 1:
        responses = {"first": {"action": "accept", "content": {"first": flow_id}}}
    return call_body("plan", {}, responses=responses, state=state)


# -- figures: each test records what it measured; printed at the end of the run ----------------------------
_FIGURES: list[tuple[str, dict[str, Any]]] = []


@pytest.fixture
def report(request: pytest.FixtureRequest) -> Callable[..., None]:
    def record(**figures: Any) -> None:
        _FIGURES.append((request.node.name, figures))

    return record


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _FIGURES:
        terminalreporter.section("askback replica figures (Redis, HAProxy)")
        for name, figures in _FIGURES:
            terminalreporter.write_line(f"{name}: " + ", ".join(f"{k}={v}" for k, v in figures.items()))
