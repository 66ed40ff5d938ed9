"""JSON on this wire is UTF-8: a body in another encoding is a parse error, in both protocol eras.

The SDK's 2026-07-28 path parses with `json.loads(bytes)`, which detects UTF-16 and UTF-32 and decodes lone
surrogates, so such bodies used to be parsed and run. Raw bytes over real loopback HTTP.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated

import httpx
import pytest

import askback
from tests.support.rawclient import PROTOCOL

Serve = Callable[[askback.App], str]


def counting_app() -> tuple[askback.App, list[str]]:
    app = askback.App("encodings")
    ran: list[str] = []

    @app.tool()
    def launch(code: str, ok: Annotated[bool, askback.Confirm("Launch {code}?")]) -> str:
        ran.append(code)
        return f"launched {code}"

    return app, ran


def launch_body() -> str:
    return json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "launch", "arguments": {"code": "A1"},
        "_meta": {"io.modelcontextprotocol/protocolVersion": PROTOCOL,
                  "io.modelcontextprotocol/clientInfo": {"name": "enc", "version": "1"},
                  "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}}}})


def post_bytes(url: str, body: bytes) -> httpx.Response:
    headers = {"MCP-Protocol-Version": PROTOCOL, "Accept": "application/json, text/event-stream",
               "Content-Type": "application/json", "Mcp-Method": "tools/call", "Mcp-Name": "launch"}
    return httpx.post(url, content=body, headers=headers, timeout=30)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"])
def test_a_utf16_or_utf32_body_is_a_parse_error(serve: Serve, encoding: str) -> None:
    """`utf-16`/`utf-32` write a BOM; the `-le`/`-be` spellings write none. Neither is run."""
    app, ran = counting_app()
    response = post_bytes(serve(app), launch_body().encode(encoding))
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["error"]["code"] == -32700, body
    assert "UTF-8" in body["error"]["message"], body
    assert body["id"] is None
    assert ran == []


def initialize(url: str, body: bytes) -> httpx.Response:
    return httpx.post(url, content=body, timeout=30, headers={"Accept": "application/json, text/event-stream",
                                                              "Content-Type": "application/json"})


INITIALIZE = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "enc", "version": "1"}}})


def test_a_legacy_request_in_utf16_is_a_parse_error_too(serve: Serve) -> None:
    app, _ = counting_app()
    response = initialize(serve(app), INITIALIZE.encode("utf-16"))
    assert response.status_code == 400, response.text
    assert response.json()["error"]["code"] == -32700


def test_a_utf8_bom_is_ignored_on_a_legacy_request_too(serve: Serve) -> None:
    """The SDK's session transport refused a BOM that its stateless path ignored; one rule for the endpoint."""
    app, _ = counting_app()
    response = initialize(serve(app), b"\xef\xbb\xbf" + INITIALIZE.encode("utf-8"))
    assert response.status_code == 200, response.text
    assert response.headers.get("mcp-session-id")


def test_invalid_utf8_is_a_parse_error(serve: Serve) -> None:
    app, ran = counting_app()
    body = launch_body().replace("A1", "A\udcff").encode("utf-8", "surrogatepass")
    response = post_bytes(serve(app), body)
    assert response.status_code == 400, response.text
    assert response.json()["error"]["code"] == -32700
    assert ran == []


def test_a_utf8_bom_is_ignored(serve: Serve) -> None:
    """RFC 8259: a sender MUST NOT add one, a parser MAY ignore it. Ignoring it loses nothing and breaks no one."""
    app, _ = counting_app()
    response = post_bytes(serve(app), b"\xef\xbb\xbf" + launch_body().encode("utf-8"))
    assert response.status_code == 200, response.text
    assert list(response.json()["result"]["inputRequests"]) == ["ok"]


def test_plain_utf8_with_non_ascii_text_is_served(serve: Serve) -> None:
    app, ran = counting_app()
    asked = post_bytes(serve(app), launch_body().replace("A1", "Ünïcødé-密码").encode("utf-8")).json()
    assert asked["result"]["resultType"] == "input_required", asked
    assert "Ünïcødé-密码" in asked["result"]["inputRequests"]["ok"]["params"]["message"]
    assert ran == []
