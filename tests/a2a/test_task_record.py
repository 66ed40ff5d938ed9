"""An A2A task's rounds live in its record in askback's store: the SDK's task carries nothing of askback's."""

from __future__ import annotations

from typing import Annotated, Any

import pytest
from google.protobuf import json_format

import askback
from tests.a2a.support import Agent, result_data, schema_of, state

NAME = "Ottoline-Vandersteen"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_the_sdk_task_keeps_no_askback_record_in_any_round(serve_agent: Any) -> None:
    app = askback.App("booking")

    @app.tool()
    def book(name: str, ok: Annotated[bool, askback.Confirm("Book for {name}?")]) -> dict[str, Any]:
        return {"name": name}

    async with Agent(serve_agent(app)) as agent:
        task = await agent.call("book")
        seen = [task, await agent.get(task.id)]
        task = await agent.answer(task, {"name": NAME})
        assert list(schema_of(task)["properties"]) == ["ok"]
        seen += [task, await agent.get(task.id)]
        task = await agent.answer(task, {"ok": True})
        assert state(task) == "TASK_STATE_COMPLETED" and result_data(task) == {"name": NAME}
        seen += [task, await agent.get(task.id)]
    for shown in seen:
        assert "askback" not in json_format.MessageToDict(shown.metadata), json_format.MessageToDict(shown)
