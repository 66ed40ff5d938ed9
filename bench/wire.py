"""A small raw asyncio HTTP/1.1 client speaking MCP 2026-07-28 stateless requests.

Cheap on purpose: the load generator shares two cores with the server it measures, so every microsecond it
spends is one the server cannot use. One `Connection` is one keep-alive TCP connection; requests on it are
sequential. Bodies are built with `json.dumps`; responses parsed with `json.loads`; nothing else.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from typing import Any

PROTOCOL = "2026-07-28"
FORM_CAPS: dict[str, Any] = {"elicitation": {"form": {}}}
_ids = itertools.count(1)
_DUMPS = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


class WireError(Exception):
    """The server answered something that is not an HTTP response we can read."""


def meta(capabilities: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "io.modelcontextprotocol/protocolVersion": PROTOCOL,
        "io.modelcontextprotocol/clientInfo": {"name": "askback-bench", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": FORM_CAPS if capabilities is None else capabilities,
    }


def call_body(
    name: str,
    arguments: dict[str, Any],
    *,
    responses: Any = None,
    state: Any = None,
    capabilities: dict[str, Any] | None = None,
    extra: dict[str, Any] | None = None,
) -> bytes:
    """A `tools/call` JSON-RPC request body. `responses`/`state` may be any JSON value (None leaves them out)."""
    params: dict[str, Any] = {"name": name, "arguments": arguments, "_meta": meta(capabilities)}
    if responses is not None:
        params["inputResponses"] = responses
    if state is not None:
        params["requestState"] = state
    if extra:
        params.update(extra)
    return _DUMPS({"jsonrpc": "2.0", "id": next(_ids), "method": "tools/call", "params": params}).encode()


def rpc_body(method: str, params: dict[str, Any], capabilities: dict[str, Any] | None = None) -> bytes:
    """A JSON-RPC request body for any 2026-07-28 method (`tasks/get`, `tasks/update`...)."""
    body = {"jsonrpc": "2.0", "id": next(_ids), "method": method, "params": {**params, "_meta": meta(capabilities)}}
    return _DUMPS(body).encode()


class Connection:
    """One keep-alive HTTP/1.1 connection to `host:port`, posting JSON-RPC bodies to `path`."""

    def __init__(self, host: str, port: int, path: str = "/mcp", *, headers: dict[str, str] | None = None) -> None:
        self.host = host
        self.port = port
        self.path = path
        self.extra_headers = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self._reader, self._writer = await asyncio.open_connection(self.host, self.port)

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(ConnectionError, OSError):
                await self._writer.wait_closed()
        self._reader = self._writer = None

    def _head(self, method: str, name: str | None, length: int) -> bytes:
        name_header = f"Mcp-Name: {name}\r\n" if name else ""
        return (
            f"POST {self.path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
            f"MCP-Protocol-Version: {PROTOCOL}\r\nMcp-Method: {method}\r\n{name_header}{self.extra_headers}"
            f"Content-Length: {length}\r\n\r\n"
        ).encode("latin-1")

    async def post(self, body: bytes, *, method: str = "tools/call", name: str | None = None) -> tuple[int, bytes]:
        """Send one request; return (HTTP status, body). Reconnects once if the server closed the connection."""
        if self._writer is None:
            await self.open()
        assert self._reader is not None and self._writer is not None
        self._writer.write(self._head(method, name, len(body)) + body)
        status, headers, payload = await _read_response(self._reader)
        if b"connection: close" in headers:
            await self.close()
        return status, payload

    async def rpc(self, body: bytes, *, method: str = "tools/call", name: str | None = None) -> dict[str, Any]:
        """Send one request and return the decoded JSON-RPC response (raises WireError on HTTP >= 500 or non-JSON)."""
        status, payload = await self.post(body, method=method, name=name)
        if status >= 500:
            raise WireError(f"HTTP {status}: {payload[:300]!r}")
        try:
            data = json.loads(payload)
        except ValueError:
            raise WireError(f"HTTP {status}, not JSON: {payload[:300]!r}") from None
        if not isinstance(data, dict):
            raise WireError(f"HTTP {status}, not a JSON-RPC object: {payload[:300]!r}")
        data["_http_status"] = status
        return data


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, bytes, bytes]:
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError as exc:
        raise ConnectionResetError("connection closed before a response") from exc
    if not head.startswith(b"HTTP/1."):
        raise WireError(f"not an HTTP response: {head[:80]!r}")
    status = int(head[9:12])
    lower = head.lower()
    at = lower.find(b"\r\ncontent-length:")
    if at >= 0:
        end = lower.index(b"\r\n", at + 2)
        return status, lower, await reader.readexactly(int(lower[at + 17 : end]))
    if b"\r\ntransfer-encoding: chunked" in lower:
        chunks = []
        while True:
            size = int((await reader.readuntil(b"\r\n")).strip().split(b";")[0], 16)
            if size == 0:
                await reader.readuntil(b"\r\n")
                break
            chunks.append(await reader.readexactly(size))
            await reader.readexactly(2)
        return status, lower, b"".join(chunks)
    return status, lower + b"connection: close", await reader.read()


def single_request(result: dict[str, Any]) -> tuple[str, str]:
    """The one form question of an `input_required` result: (its key, its one field)."""
    requests = result["inputRequests"]
    [(key, request)] = requests.items()
    [field] = request["params"]["requestedSchema"]["properties"]
    return key, field


def accept(**content: Any) -> dict[str, Any]:
    return {"action": "accept", "content": content}
