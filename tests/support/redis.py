"""A real Redis for tests: the machine's on 127.0.0.1:6379 when it answers, else a private `redis-server`.

Tests that stop and restart Redis always get a private server (never the machine's). Without a Redis and without
the `redis-server` binary a test is skipped with the reason, except under CI=true, where it fails: CI must run
every store against real Redis.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from bench.redis_topologies import answers

from tests.support.processes import stop

IN_CI = os.environ.get("CI") == "true"
MACHINE_PORT = 6379


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

    Without `persistence` a restart loses everything (the default of a cache). `"rdb"`: RDB snapshots only,
    saved when stopped (SIGTERM) or by `snapshot()`, loaded when started again. `"aof"`: an append-only file
    with `appendfsync always`, every write on disk before Redis answers it (what keeps single use through any
    restart). `"aof-everysec"`: the AOF fsynced once a second, Redis's own default for AOF.
    """

    def __init__(self, *, persistence: str = "") -> None:
        assert persistence in ("", "rdb", "aof", "aof-everysec"), persistence
        self.persistence = persistence
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
        aof = self.persistence.startswith("aof")
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1",
             "--save", "3600 1" if self.persistence == "rdb" else "", "--appendonly", "yes" if aof else "no",
             "--appendfsync", "everysec" if self.persistence == "aof-everysec" else "always",
             "--dir", str(self.dir)],
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

    def crash(self) -> None:
        """SIGKILL: Redis saves nothing on the way down; a restart loads the last snapshot it wrote."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process = None

    def snapshot(self) -> None:
        """Write an RDB snapshot now (`SAVE`): what a crash followed by a restart comes back to."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as s:
            s.sendall(b"SAVE\r\n")
            s.settimeout(10)
            assert s.recv(16).startswith(b"+OK")

    @contextmanager
    def paused(self, seconds: float) -> Iterator[None]:
        """Freeze the server (SIGSTOP) for `seconds`, as a long fork, a swapped-out host or `DEBUG SLEEP` does.

        The kernel still accepts connections and buffers what clients send; Redis runs it when it resumes.
        Leaving the block waits until it has resumed, so a test never leaves a frozen server behind.
        """
        assert self.process is not None
        process = self.process
        process.send_signal(signal.SIGSTOP)
        timer = threading.Timer(seconds, process.send_signal, (signal.SIGCONT,))
        timer.start()
        try:
            yield
        finally:
            timer.join()
            process.send_signal(signal.SIGCONT)
            deadline = time.monotonic() + 15
            while not answers(self.port) and time.monotonic() < deadline:
                time.sleep(0.02)


def machine_or_private() -> tuple[str, PrivateRedis | None]:
    """A Redis URL: the machine's if it answers, else a private server started now (returned, to be stopped)."""
    if answers(MACHINE_PORT):
        return f"redis://127.0.0.1:{MACHINE_PORT}/0", None
    private = PrivateRedis().start()
    return private.url, private
