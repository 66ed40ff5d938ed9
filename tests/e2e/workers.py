"""Which worker of `askback serve --workers N` answered: one kept-alive connection pinned to each worker.

A TCP connection is accepted by exactly one worker process and stays with it, so a test that pins one connection
per worker (learning each worker's pid from the `worker_pid` probe tool) and checks that every response came over
the pinned connection knows which worker answered each request. Without that, a test of "every worker does X"
sees only the workers the kernel happened to hand its connections to.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.rawclient import RawClient

ROOT = Path(__file__).resolve().parents[2]

PROBE = '''
import importlib
import importlib.util
import os

_target = {target!r}
if _target.endswith(".py"):
    _spec = importlib.util.spec_from_file_location("probed_target", _target)
    _module = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(_module)
else:
    _module = importlib.import_module(_target)
app = _module.app


@app.tool()
def worker_pid() -> int:
    """Test probe: the id of the worker process that answered."""
    return os.getpid()


@app.tool()
def accepted_nodelay() -> list:
    """Test probe: TCP_NODELAY of every accepted (connected) TCP socket this worker holds, as 0 or 1."""
    import socket

    flags = []
    for name in os.listdir("/proc/self/fd"):
        try:
            sock = socket.socket(fileno=os.dup(int(name)))
        except OSError:
            continue
        with sock:
            if sock.type != socket.SOCK_STREAM or sock.family not in (socket.AF_INET, socket.AF_INET6):
                continue
            try:
                sock.getpeername()
            except OSError:
                continue  # the listener, or a socket not connected
            flags.append(1 if sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) else 0)
    return flags
'''


def probed(tmp_path: Path, target: str) -> str:
    """A file target serving `target`'s `app` plus the `worker_pid` tool.

    `target` is a file target relative to the repository ("tests/conformance/server.py") or a module
    ("askback.demo") whose `app` it is.
    """
    probe = tmp_path / "worker_probe.py"
    probe.write_text(PROBE.format(target=str(ROOT / target) if target.endswith(".py") else target))
    return f"{probe}:app"


@dataclass
class Worker:
    pid: int
    client: RawClient
    stream: Any  # the pinned connection (httpcore's network stream), held so that it cannot be mistaken

    def answered(self, response: httpx.Response) -> bool:
        """Whether `response` came over the pinned connection, so from this worker."""
        return response.extensions.get("network_stream") is self.stream

    def nodelay(self) -> list[int]:
        """TCP_NODELAY of each connection this worker has accepted (its own pinned one among them)."""
        response = self.client.call("accepted_nodelay")
        assert self.client.last is not None and self.answered(self.client.last), "the pinned connection was replaced"
        structured = response["result"].get("structuredContent")
        if isinstance(structured, dict) and "result" in structured:
            return [int(x) for x in structured["result"]]
        import json

        return [int(x) for x in json.loads(response["result"]["content"][0]["text"])]

    def pid_now(self) -> int:
        pid = int(self.client.call("worker_pid")["result"]["content"][0]["text"])
        assert self.client.last is not None and self.answered(self.client.last), "the pinned connection was replaced"
        return pid


def pin_workers(url: str, count: int, *, headers: dict[str, str] | None = None, tries: int = 60) -> list[Worker]:
    """One connection per worker, each with its worker's pid; fails if fewer than `count` workers ever answer."""
    pinned: dict[int, Worker] = {}
    for _ in range(tries):
        client = RawClient(url)
        client.http.headers.update(headers or {})
        response = client.call("worker_pid")
        assert "result" in response, response
        pid = int(response["result"]["content"][0]["text"])
        assert client.last is not None
        if pid in pinned:
            client.close()
            time.sleep(0.05)  # pacing only: a worker still starting gets its turn at the listener
            continue
        pinned[pid] = Worker(pid, client, client.last.extensions["network_stream"])
        if len(pinned) == count:
            return list(pinned.values())
    for worker in pinned.values():
        worker.client.close()
    pytest.fail(f"only {len(pinned)} of {count} workers answered {tries} new connections: {sorted(pinned)}")


def release(workers: list[Worker]) -> None:
    for worker in workers:
        worker.client.close()
