"""Shared fixtures: real servers on loopback, a fresh data directory per test, and service policy."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import uvicorn
from starlette.types import ASGIApp

import askback
from askback.mcp.http import http_app

IN_CI = os.environ.get("CI") == "true"


@pytest.fixture(autouse=True)
def _isolated_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads or writes the developer's real key or store."""
    monkeypatch.setenv("ASKBACK_DATA_DIR", str(tmp_path / "askback-data"))
    monkeypatch.delenv("ASKBACK_KEYS", raising=False)
    monkeypatch.delenv("ASKBACK_STORE", raising=False)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LoopbackServer:
    """An askback app served by uvicorn in a background thread on 127.0.0.1."""

    def __init__(self, app: askback.App | ASGIApp) -> None:
        self.port = free_port()
        asgi = http_app(app) if isinstance(app, askback.App) else app
        config = uvicorn.Config(asgi, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def __enter__(self) -> LoopbackServer:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the loopback server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture
def serve() -> Iterator[Callable[[askback.App | ASGIApp], str]]:
    """Serve an app (an askback App, or any ASGI app with MCP at /mcp) on loopback for this test; its MCP URL."""
    servers: list[LoopbackServer] = []

    def start(app: askback.App | ASGIApp) -> str:
        server = LoopbackServer(app).__enter__()
        servers.append(server)
        return server.url

    yield start
    for server in servers:
        server.__exit__(None, None, None)
