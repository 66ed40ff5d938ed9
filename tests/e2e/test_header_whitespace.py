"""Whitespace around a header value is not part of it (RFC 9110 §5.5), whichever HTTP parser serves the app.

h11 drops it; httptools, askback's default parser, keeps trailing spaces and tabs. Sent as raw bytes, so no
client library tidies the header first.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Callable
from typing import Any

import pytest

import askback
from askback.mcp import http_app

Serve = Callable[[Any], str]


def tool_app() -> askback.App:
    app = askback.App("ows")

    @app.tool()
    def greet(name: str) -> str:
        return f"Hello {name}"

    return app


def post(url: str, headers: dict[str, str], body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    host_port = url.split("//", 1)[1].split("/", 1)[0]
    host, port = host_port.rsplit(":", 1)
    raw = json.dumps(body).encode()
    head = "".join(f"{k}:{v}\r\n" for k, v in headers.items())
    request = (f"POST /mcp HTTP/1.1\r\nHost: {host_port}\r\n{head}Content-Length: {len(raw)}\r\n"
               "Connection: close\r\n\r\n").encode() + raw
    with socket.create_connection((host, int(port))) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    status = int(data[9:12])
    return status, json.loads(data.split(b"\r\n\r\n", 1)[1])


@pytest.mark.parametrize("fast_route", [True, False], ids=["fast route", "SDK path"])
@pytest.mark.parametrize("padding", ["  ", "\t", " \t "])
def test_whitespace_around_routing_headers_is_ignored(serve: Serve, fast_route: bool, padding: str) -> None:
    url = serve(http_app(tool_app(), fast_route=fast_route))
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {}}
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "greet", "arguments": {"name": "Ada"}, "_meta": meta}}
    headers = {"Content-Type": f"{padding}application/json{padding}",
               "Accept": f"{padding}application/json, text/event-stream{padding}",
               "MCP-Protocol-Version": f"{padding}2026-07-28{padding}",
               "Mcp-Method": f"{padding}tools/call{padding}",
               "Mcp-Name": f"{padding}greet{padding}"}
    status, reply = post(url, headers, body)
    assert status == 200, reply
    assert reply["result"]["content"][0]["text"] == "Hello Ada"
