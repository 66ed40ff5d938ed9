"""HAProxy from Debian's packages in front of replicas on loopback, as the docs tell operators to run it.

Round-robin per request; a server that stops answering is taken out by a fast health check and a request whose
connection failed is sent to another server (`retries`, `option redispatch`). Every response names the server
that answered it in `X-Served-By`, so a test can see which replica played which round. `sticky=True` adds the
stick table that keeps a legacy (2025-11-25) session on the replica that holds it, keyed by `Mcp-Session-Id`.

Shared by the tests (tests/support/haproxy.py: a missing haproxy skips there, or fails under CI) and
bench/capacity.py (it raises `Missing`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from bench.redis_topologies import Missing

__all__ = ["CONFIG", "HAProxy", "Missing", "binary"]
from bench.stores import stop

CONFIG = """\
global
    maxconn 4096
    stats socket {stats} mode 600 level user

defaults
    mode http
    timeout connect 1s
    timeout client 30s
    timeout server 30s
    retries 3
    option redispatch 1
    # A request whose replica died before answering is resent to another; safe here because a single-use
    # final round runs at most once whatever is resent (the store decides), and other rounds are pure.
    retry-on conn-failure empty-response
    option http-buffer-request

frontend mcp
    bind 127.0.0.1:{port}
    default_backend replicas

backend replicas
    balance roundrobin
{sticky}    http-response set-header X-Served-By %[srv_name]
{servers}
"""

STICKY = """\
    # Legacy sessions live in one replica's memory: the session id the replica hands out pins the session to it.
    stick-table type string len 64 size 100k expire 30m
    stick store-response res.hdr(mcp-session-id)
    stick match req.hdr(mcp-session-id)
"""


def binary() -> str:
    found = shutil.which("haproxy") or ("/usr/sbin/haproxy" if os.path.exists("/usr/sbin/haproxy") else None)
    if found is None:
        raise Missing("haproxy is not installed (Debian: apt-get install haproxy; .ci/run installs it)")
    return found


class HAProxy:
    """One haproxy process balancing `servers` (name -> port) on its own loopback port."""

    def __init__(self, port: int, servers: dict[str, int], *, sticky: bool = False) -> None:
        self.port = port
        self.dir = Path(tempfile.mkdtemp(prefix="askback-haproxy-"))
        lines = "\n".join(f"    server {name} 127.0.0.1:{p} check inter 100ms fall 1 rise 1"
                          for name, p in servers.items())
        self.config = self.dir / "haproxy.cfg"
        self.stats_socket = self.dir / "stats.sock"
        self.config.write_text(CONFIG.format(port=port, servers=lines, sticky=STICKY if sticky else "",
                                             stats=self.stats_socket))
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> HAProxy:
        exe = binary()
        check = subprocess.run([exe, "-c", "-q", "-f", str(self.config)], capture_output=True, text=True)
        if check.returncode != 0:
            raise Missing(f"haproxy refused its configuration:\n{check.stdout}{check.stderr}")
        log = (self.dir / "haproxy.log").open("ab")
        self.process = subprocess.Popen([exe, "-db", "-f", str(self.config)], stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 15
        import socket

        while True:
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise Missing(f"haproxy did not start:\n{(self.dir / 'haproxy.log').read_text()[-1000:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return self
            except OSError:
                time.sleep(0.02)

    def stats(self) -> dict[str, dict[str, str]]:
        """HAProxy's counters per server (`show stat`): e.g. `wretr` retries, `wredis` redispatches."""
        import socket

        with socket.socket(socket.AF_UNIX) as s:
            s.connect(str(self.stats_socket))
            s.sendall(b"show stat\n")
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        header, *rows = data.decode().strip().splitlines()
        names = header.lstrip("# ").split(",")
        out = {}
        for row in rows:
            values = dict(zip(names, row.split(","), strict=False))
            if values.get("pxname") == "replicas":
                out[values["svname"]] = values
        return out

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)
            self.process = None
