"""A request the fast route hands on to the SDK path is parsed once, by the SDK: never first by the fast route.

The fast route decides from the headers (version, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`) whether a request
can be one it answers, before it reads the body; only then does it parse. So a `tools/list`, an unknown tool or an
unknown prompt reach the SDK with a body nobody has parsed yet. Counted here by `json.loads`
calls on the server's thread whose input holds this request's unique id (the parser both the fast route and the
SDK's 2026-07-28 path use), over real loopback HTTP against the server as it runs (the fast route on, its
default).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Annotated, Any

import httpx
import pytest

import askback
from askback.mcp.fast import FastRoute
from askback.mcp.http import http_app
from tests.conftest import LoopbackServer

V = "2026-07-28"
CAPS = {"elicitation": {"form": {}}}


def _app() -> askback.App:
    app = askback.App("handoff", store="memory://")

    @app.tool()
    def greet(name: Annotated[str, askback.Ask("What is your name?")]) -> str:
        return f"Hello, {name}!"

    @app.tool(task="optional")
    def slow(name: Annotated[str, askback.Ask("Whose?")]) -> str:
        return name

    @app.prompt()
    def haiku(topic: Annotated[str, askback.Ask("About what?")]) -> str:
        return topic

    return app


class _Parses:
    """Counts `json.loads` calls on the server's thread whose input holds `marker`."""

    def __init__(self, thread: threading.Thread) -> None:
        self.thread = thread
        self.marker = ""
        self.count = 0

    def wrap(self, loads: Any) -> Any:
        def counting(text: Any, *args: Any, **kwargs: Any) -> Any:
            raw = text.encode() if isinstance(text, str) else bytes(text)
            if self.marker and threading.current_thread() is self.thread and self.marker.encode() in raw:
                self.count += 1
            return loads(text, *args, **kwargs)

        return counting


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[str, FastRoute, _Parses]]:
    asgi = http_app(_app())
    router = asgi._router
    assert isinstance(router, FastRoute), "the fast route is on by default"
    with LoopbackServer(asgi) as server:
        yield server.url, router, _Parses(server.thread)


def _modern(method: str, params: dict[str, Any], probe: str, name: str | None) -> tuple[dict[str, str], Any]:
    meta = {"io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": CAPS}
    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream",
               "mcp-protocol-version": V, "mcp-method": method}
    if name is not None:
        headers["mcp-name"] = name
    return headers, {"jsonrpc": "2.0", "id": probe, "method": method, "params": {**params, "_meta": meta}}


CASES: dict[str, tuple[str, dict[str, Any], str | None, bool]] = {
    # name: (method, params, Mcp-Name, answered by the fast route)
    "tools/list": ("tools/list", {}, None, False),
    "unknown tool": ("tools/call", {"name": "nope", "arguments": {}}, "nope", False),
    "task tool": ("tools/call", {"name": "slow", "arguments": {}}, "slow", True),
    "unknown prompt": ("prompts/get", {"name": "nope"}, "nope", False),
    "server/discover": ("server/discover", {}, None, False),
    "the fast route's own": ("tools/call", {"name": "greet", "arguments": {}}, "greet", True),
    "a prompt, the fast route's own": ("prompts/get", {"name": "haiku"}, "haiku", True),
}


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_each_request_is_parsed_once(served: tuple[str, FastRoute, _Parses], case: str,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    url, router, parses = served
    method, params, name, fast = CASES[case]
    probe = f"probe-{case}"
    headers, body = _modern(method, params, probe, name)
    monkeypatch.setattr(json, "loads", parses.wrap(json.loads))
    parses.marker, parses.count = probe, 0
    answered = router.counts.answered
    with httpx.Client(timeout=30) as http:
        response = http.post(url, headers=headers, content=json.dumps(body).encode())
    parses.marker = ""
    assert response.status_code in (200, 400, 404), response.text
    assert response.json()["id"] == probe
    assert router.counts.answered - answered == int(fast), router.counts.reasons
    assert parses.count == 1, f"{case}: the body was parsed {parses.count} times"
