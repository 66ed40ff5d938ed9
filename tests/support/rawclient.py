"""A raw JSON-RPC client for 2026-07-28 stateless requests: nothing between the test and the wire."""

from __future__ import annotations

import itertools
from typing import Any

import httpx

PROTOCOL = "2026-07-28"
ALL_CAPS: dict[str, Any] = {"elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}}


class RawClient:
    def __init__(self, url: str, *, capabilities: dict[str, Any] | None = None) -> None:
        self.url = url
        self.capabilities = ALL_CAPS if capabilities is None else capabilities
        self.ids = itertools.count(1)
        self.http = httpx.Client(timeout=30)
        self.last: httpx.Response | None = None  # the raw HTTP response of the latest `send`

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> RawClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def send(self, method: str, params: dict[str, Any] | None = None, *,
             capabilities: dict[str, Any] | None = None) -> dict[str, Any]:
        """POST one request; return the whole JSON-RPC response (result or error)."""
        params = dict(params or {})
        params["_meta"] = {
            "io.modelcontextprotocol/protocolVersion": PROTOCOL,
            "io.modelcontextprotocol/clientInfo": {"name": "raw-test-client", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": self.capabilities if capabilities is None else capabilities,
            **params.get("_meta", {}),
        }
        headers = {"MCP-Protocol-Version": PROTOCOL, "Accept": "application/json, text/event-stream",
                   "Mcp-Method": method}
        if isinstance(params.get("name"), str):
            headers["Mcp-Name"] = params["name"]
        elif isinstance(params.get("uri"), str):
            headers["Mcp-Name"] = params["uri"]
        body = {"jsonrpc": "2.0", "id": next(self.ids), "method": method, "params": params}
        response = self.http.post(self.url, json=body, headers=headers)
        self.last = response
        data: dict[str, Any] = response.json()
        return data

    def call(self, name: str, arguments: dict[str, Any] | None = None, *, responses: dict[str, Any] | None = None,
             state: str | None = None, **kw: Any) -> dict[str, Any]:
        params: dict[str, Any] = {"name": name, "arguments": arguments or {}}
        if responses is not None:
            params["inputResponses"] = responses
        if state is not None:
            params["requestState"] = state
        return self.send("tools/call", params, **kw)


def accept(**content: Any) -> dict[str, Any]:
    return {"action": "accept", "content": content}
