"""A small 2026-07-28 client for the tasks extension, over real HTTP: each request as the wire carries it."""

from __future__ import annotations

import itertools
import time
from typing import Any

import httpx

EXTENSION = "io.modelcontextprotocol/tasks"
WITH_TASKS: dict[str, Any] = {"elicitation": {"form": {}}, "extensions": {EXTENSION: {}}}
_ids = itertools.count(1)


class TaskClient:
    def __init__(self, url: str, capabilities: dict[str, Any] | None = None,
                 headers: dict[str, str] | None = None) -> None:
        self.url = url
        self.capabilities = WITH_TASKS if capabilities is None else capabilities
        self.headers = headers or {}
        self.http = httpx.Client(timeout=30)

    def request(self, method: str, params: dict[str, Any], *, name: str | None = None,
                headers: dict[str, str] | None = None) -> dict[str, Any]:
        """The JSON-RPC response (`result` or `error`) of one request."""
        meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": {"name": "tasks-tests", "version": "1"},
                "io.modelcontextprotocol/clientCapabilities": self.capabilities}
        body = {"jsonrpc": "2.0", "id": next(_ids), "method": method, "params": {**params, "_meta": meta}}
        sent = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
                "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method, **self.headers}
        if name is not None:
            sent["Mcp-Name"] = name
        sent.update(headers or {})
        response = self.http.post(self.url, json=body, headers=sent)
        return dict(response.json())

    def call(self, tool: str, arguments: dict[str, Any], **extra: Any) -> dict[str, Any]:
        return self.request("tools/call", {"name": tool, "arguments": arguments, **extra}, name=tool)

    def get(self, task_id: str) -> dict[str, Any]:
        return self.request("tasks/get", {"taskId": task_id}, name=task_id)

    def update(self, task_id: str, responses: dict[str, Any]) -> dict[str, Any]:
        return self.request("tasks/update", {"taskId": task_id, "inputResponses": responses}, name=task_id)

    def cancel(self, task_id: str) -> dict[str, Any]:
        return self.request("tasks/cancel", {"taskId": task_id}, name=task_id)

    def wait(self, task_id: str, *statuses: str, seconds: float = 20) -> dict[str, Any]:
        """Poll `tasks/get` until the task is in one of `statuses` (or terminal); its last DetailedTask."""
        wanted = set(statuses) | {"completed", "failed", "cancelled"}
        deadline = time.monotonic() + seconds
        while True:
            task = self.get(task_id)["result"]
            if task["status"] in wanted:
                return task
            if time.monotonic() > deadline:
                raise AssertionError(f"task {task_id} stayed {task['status']}")
            time.sleep(0.05)


def accept(**content: Any) -> dict[str, Any]:
    return {"action": "accept", "content": content}
