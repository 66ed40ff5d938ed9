"""A scripted 2026-07-28 MCP server that records every request, to test what a client sends.

Each tool is a function `(params, call_number) -> result dict`; the mock answers `server/discover` and
`tools/list` itself and records each request's JSON-RPC id, params and headers in `requests`. Other methods
(`tasks/get`, …) are scripted in `methods` the same way; a result `{"error": {...}}` is sent as that
JSON-RPC error.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

Tool = Callable[[dict[str, Any], int], dict[str, Any] | Awaitable[dict[str, Any]]]


def form(message: str, **properties: dict[str, Any]) -> dict[str, Any]:
    """An `elicitation/create` form request with these properties (all required)."""
    return {"method": "elicitation/create", "params": {
        "mode": "form", "message": message,
        "requestedSchema": {"type": "object", "properties": properties, "required": list(properties)}}}


def url_step(message: str, url: str) -> dict[str, Any]:
    return {"method": "elicitation/create", "params": {"mode": "url", "message": message, "url": url,
                                                        "elicitationId": "e-1"}}


def text(value: str) -> dict[str, Any]:
    return {"resultType": "complete", "content": [{"type": "text", "text": value}]}


@dataclass
class Recorded:
    id: Any
    method: str
    params: dict[str, Any]
    headers: dict[str, str]


@dataclass
class Mock:
    tools: dict[str, Tool] = field(default_factory=dict)
    requests: list[Recorded] = field(default_factory=list)
    schemas: dict[str, dict[str, Any]] = field(default_factory=dict)  # a tool's inputSchema, when not `object`
    refuse_first: tuple[int, dict[str, Any]] | None = None  # (HTTP status, JSON-RPC error) for the first request
    methods: dict[str, Tool] = field(default_factory=dict)  # other methods, e.g. "tasks/get"

    def of(self, method: str) -> list[Recorded]:
        return [r for r in self.requests if r.method == method]

    def calls(self, tool: str) -> list[Recorded]:
        return [r for r in self.requests if r.method == "tools/call" and r.params.get("name") == tool]

    def app(self) -> Starlette:
        async def endpoint(request: Request) -> Response:
            body = await request.json()
            method, params = body.get("method"), body.get("params") or {}
            self.requests.append(Recorded(body.get("id"), method, params, dict(request.headers)))
            if "id" not in body:
                return Response(status_code=202)
            if self.refuse_first is not None and len(self.requests) == 1:
                status, error = self.refuse_first
                return JSONResponse({"jsonrpc": "2.0", "id": body["id"], "error": error}, status_code=status)
            if method == "server/discover":
                result: dict[str, Any] = {"resultType": "complete", "ttlMs": 0, "cacheScope": "private",
                                          "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}},
                                          "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "mock",
                                                                                            "version": "1"}}}
            elif method == "tools/list":
                result = {"resultType": "complete", "ttlMs": 0, "cacheScope": "private",
                          "tools": [{"name": n, "inputSchema": self.schemas.get(n, {"type": "object"})}
                                    for n in self.tools]}
            elif method == "tools/call" and params.get("name") in self.tools:
                number = len(self.calls(params["name"]))
                produced = self.tools[params["name"]](params, number)
                result = produced if isinstance(produced, dict) else await produced
            elif method in self.methods:
                produced = self.methods[method](params, len(self.of(method)))
                result = produced if isinstance(produced, dict) else await produced
                if set(result) == {"error"}:
                    return JSONResponse({"jsonrpc": "2.0", "id": body["id"], "error": result["error"]})
            else:
                return JSONResponse({"jsonrpc": "2.0", "id": body["id"],
                                     "error": {"code": -32601, "message": f"no {method}"}})
            return JSONResponse({"jsonrpc": "2.0", "id": body["id"], "result": result})

        return Starlette(routes=[Route("/mcp", endpoint, methods=["POST"])])
