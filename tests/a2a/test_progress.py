"""A tool's `askback.Context` over A2A, with the a2a-sdk client: each `ctx.progress(...)` is a
`TASK_STATE_WORKING` status update carrying its message (or how much is done), then the result is the artifact;
a credential in a progress message never reaches the client; a log has no place on A2A and is not sent.
"""

from __future__ import annotations

from typing import Any

import pytest
from a2a.types import a2a_pb2 as pb

import askback
from askback.toolcontext import REDACTED
from tests.a2a.support import Agent, message, state

TOKEN = "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def reporting_app() -> askback.App:
    app = askback.App("reporting")

    @app.tool()
    async def crunch(items: int, ctx: askback.Context) -> str:
        await ctx.log("info", "starting")  # nowhere to go on A2A: not sent, never an error
        for done in range(1, items + 1):
            await ctx.progress(done, items, f"{done} of {items} crunched" if done < items else None)
        await ctx.progress(items + 1, message=f"leaked {TOKEN}")
        return f"crunched {items}"

    return app


def _working(event: Any) -> str | None:
    if not event.HasField("status_update"):
        return None
    status = event.status_update.status
    if status.state != pb.TASK_STATE_WORKING:
        return None
    return "\n".join(p.text for p in status.message.parts if p.HasField("text"))


@pytest.mark.anyio
async def test_progress_is_a_working_status_update_with_its_message(serve_agent: Any) -> None:
    async with Agent(serve_agent(reporting_app()), streaming=True) as agent:
        texts = [t async for event in agent.stream(message({"tool": "crunch", "arguments": {"items": 3}}))
                 if (t := _working(event)) is not None]
    assert texts[:3] == ["1 of 3 crunched", "2 of 3 crunched", "3 of 3"]  # no message: how much is done
    assert texts[3:] == [REDACTED]  # a credential-looking progress message is replaced before it leaves


@pytest.mark.anyio
async def test_the_task_completes_with_the_result_after_its_progress(serve_agent: Any) -> None:
    async with Agent(serve_agent(reporting_app())) as agent:
        task = await agent.send(message({"tool": "crunch", "arguments": {"items": 2}}))
    assert state(task) == "TASK_STATE_COMPLETED"
    (artifact,) = task.artifacts
    assert [p.text for p in artifact.parts] == ["crunched 2"]
    progress = [p.text for m in task.history if m.role == pb.ROLE_AGENT for p in m.parts]
    assert progress == ["1 of 2 crunched", "2 of 2", REDACTED]  # the status updates, kept in the history
