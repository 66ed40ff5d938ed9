"""A follower never shows a question as waiting once its answer was taken in.

After a restart, the answer to a parked task makes it run again from the start; its question is asked again
(its answer already stored), taken in at once, and the answer dropped. A follower reads each state the runner
writes and asks the store which answers wait: if it asks after the drop, about the state from before it, it
must show the newer state, not the question again (A2A then answered "input required" for an answered task).
The store is made slow here so that the follower always asks late.
"""

from __future__ import annotations

import asyncio
import base64
import os
from typing import Any

import pytest

import askback
from askback.flow import Ready
from askback.mcp.tasks import McpTaskWire
from askback.tasks.runner import TaskRunner


def _app() -> askback.App:
    key = base64.urlsafe_b64encode(os.urandom(32)).decode().rstrip("=")
    app = askback.App("follow-race", keys=key, store="memory://")

    @app.tool(task="optional", namespace=locals())
    async def job(work: askback.Work) -> str:
        return "went" if await work.confirm("Go?") else "stayed"

    return app


async def _parked(runner: TaskRunner, task_id: str, app: askback.App) -> str:
    async for state in runner.follow(task_id, None, app.tools):
        if state.status == "input_required":
            return state.outstanding[0].key
    raise AssertionError("the task never asked")


@pytest.mark.anyio
async def test_a_follower_after_a_restart_shows_the_answered_task_finishing_not_its_question() -> None:
    app = _app()
    await app.start()
    try:
        before = TaskRunner(app.runtime, McpTaskWire(), ttl=60, lease=5)
        task_id, _ = await before.create(app.tools["job"], Ready({}, {}), None)
        key = await asyncio.wait_for(_parked(before, task_id, app), 10)
        await before.stop()  # the process goes away with the task parked on its question

        after = TaskRunner(app.runtime, McpTaskWire(), ttl=60, lease=5)
        has_answer = after.records.has_answer

        async def late(*args: Any) -> bool:
            await asyncio.sleep(0.05)  # the follower's question reaches the store after the runner moved on
            return await has_answer(*args)

        after.records.has_answer = late  # type: ignore[method-assign]
        await after.update(task_id, None, {key: {"action": "accept", "content": {"confirm": True}}}, app.tools)
        shown = []
        async for state in after.follow(task_id, None, app.tools):
            shown.append((state.status, [q.key for q in state.outstanding]))
            if state.terminal or (state.status == "input_required" and state.outstanding):
                break
        assert shown[-1][0] == "completed", shown
        assert not [keys for status, keys in shown if status == "input_required" and keys], shown
        await after.stop()
    finally:
        await app.stop()
