"""Inside a task, a tool's `ctx.progress` becomes the task's status message (whoever follows the task reads it)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import askback
from tests.tasks.wire import TaskClient


def _app() -> askback.App:
    app = askback.App("task-progress")

    @app.tool(task="optional")
    async def index(ctx: askback.Context) -> str:
        await ctx.progress(1, 4)
        await ctx.progress(2, 4, "half of the pages read")
        await asyncio.sleep(0.3)
        await ctx.progress(3, 4, "key ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8 used")
        await asyncio.sleep(0.3)
        return f"indexed for {ctx.principal or 'nobody'}"

    return app


def test_progress_in_a_task_is_its_status_message_and_never_a_secret(serve: Callable[[askback.App], str]) -> None:
    client = TaskClient(serve(_app()))
    task_id = client.call("index", {})["result"]["taskId"]
    seen: list[str] = []
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        task: dict[str, Any] = client.get(task_id)["result"]
        message = task.get("statusMessage")
        if message and (not seen or seen[-1] != message):
            seen.append(message)
        if task["status"] != "working":
            break
        time.sleep(0.02)
    assert "half of the pages read" in seen
    assert "[redacted]" in seen
    assert not any("ghp_" in m for m in seen)
    assert client.wait(task_id)["result"]["content"][0]["text"] == "indexed for nobody"
