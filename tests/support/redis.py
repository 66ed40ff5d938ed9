"""A real Redis for tests: the machine's on 127.0.0.1:6379 when it answers, else a private `redis-server`.

Tests that stop and restart Redis always get a private server (never the machine's). Without a Redis and without
the `redis-server` binary a test is skipped with the reason, except under CI=true, where it fails: CI must run
every store against real Redis.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from tests.support.processes import stop

IN_CI = os.environ.get("CI") == "true"
MACHINE_PORT = 6379


def answers(port: int, host: str = "127.0.0.1") -> bool:
    """Whether a Redis answers PING on host:port."""
    try:
        with socket.create_connection((host, port), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            s.settimeout(0.5)
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _missing(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"no Redis for the Redis tests, and CI must run them: {reason}")
    pytest.skip(f"no Redis for the Redis tests: {reason}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PrivateRedis:
    """A `redis-server` of the tests' own on a free loopback port; stop and start it at will.

    Without `persist` a restart loses everything (the default of a cache); with it, Redis saves its contents
    when stopped (SIGTERM) and loads them when started again.
    """

    def __init__(self, *, persist: bool = False) -> None:
        self.persist = persist
        binary = shutil.which("redis-server")
        if binary is None:
            _missing("redis-server is not installed (Debian: apt-get install redis-server)")
        self.binary = str(binary)
        self.port = _free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="askback-redis-"))
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> PrivateRedis:
        log = (self.dir / "redis.log").open("ab")
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "3600 1" if self.persist else "",
             "--appendonly", "no", "--dir", str(self.dir)],
            stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 15
        while not answers(self.port):
            if self.process.poll() is not None or time.monotonic() > deadline:
                _missing(f"redis-server did not start: {(self.dir / 'redis.log').read_text()[-500:]}")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            stop(self.process)
        self.process = None


def machine_or_private() -> tuple[str, PrivateRedis | None]:
    """A Redis URL: the machine's if it answers, else a private server started now (returned, to be stopped)."""
    if answers(MACHINE_PORT):
        return f"redis://127.0.0.1:{MACHINE_PORT}/0", None
    private = PrivateRedis().start()
    return private.url, private
