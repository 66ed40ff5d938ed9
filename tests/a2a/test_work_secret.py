"""`work.ask(text, secret=True)` over A2A: never a form question; without the page step the task says it had started."""

from __future__ import annotations

from typing import Any

import pytest

import askback
from tests.a2a.support import Agent, state


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_a_secret_asked_during_the_work_is_no_form_and_the_task_says_the_work_had_started(
    serve_agent: Any,
) -> None:
    app = askback.App("ops")
    reached: list[str] = []

    @app.tool(task="optional")
    async def rotate(work: askback.Work) -> str:
        """Rotates a key, asking for the new one."""
        reached.append("started")
        key = await work.ask("Your new API key", secret=True)
        reached.append("asked")
        return f"rotated ({len(key.reveal())} characters)"

    async with Agent(serve_agent(app)) as agent:
        task = await agent.call("rotate")
        assert state(task) not in ("TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"), state(task)
        shown = str(task)
        assert "already started" in shown and "retry" not in shown.lower()
    assert reached == ["started"]
