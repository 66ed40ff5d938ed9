"""A2A tasks are durable and private: the SDK's database task store on SQLite in the data dir, answers sealed in
the row, tasks scoped to the principal that started them, and a task parked before a restart continues after."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Annotated, Any

import pytest
from a2a.utils.errors import A2AError
from pydantic import Field

import askback
from tests.a2a.support import Agent, result_data, schema_of, state
from tests.conftest import LoopbackServer

NAME = "Zebulon-Quartermain"
NOTE = "Fragile-Parcel-Notice"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def booking_app(runs: list[Any] | None = None, **kw: Any) -> askback.App:
    app = askback.App("booking", **kw)

    @app.tool()
    def book(
        seats: Annotated[int, Field(ge=1, le=9)],
        name: Annotated[str, Field(min_length=2)],
        note: str,
    ) -> dict[str, Any]:
        if runs is not None:
            runs.append(name)
        return {"seats": seats, "name": name, "note": note}

    return app


def rows_text(db: Path) -> str:
    """Every value of every row of every table, as one text."""
    with sqlite3.connect(db) as conn:
        tables = [r[0] for r in conn.execute("select name from sqlite_master where type='table'")]
        return "\n".join(repr(row) for t in tables for row in conn.execute(f"select * from {t}"))


def tasks_db() -> Path:
    return Path(os.environ["ASKBACK_DATA_DIR"]) / "a2a-tasks.db"


@pytest.mark.anyio
async def test_tasks_live_in_sqlite_in_the_data_dir_with_the_answers_sealed(serve_agent: Any) -> None:
    async with Agent(serve_agent(booking_app())) as agent:
        task = await agent.call("book", note=NOTE)
        task = await agent.answer(task, {"name": NAME})
        assert list(schema_of(task)["properties"]) == ["seats"]
        text = rows_text(tasks_db())
        assert task.id in text  # the task is in the SDK's table ...
        assert NAME not in text and NOTE not in text  # ... but neither the argument nor the answer in plain
        task = await agent.answer(task, {"seats": 2})
        assert result_data(task) == {"seats": 2, "name": NAME, "note": NOTE}


def by_header(request: askback.Request) -> str | None:
    return request.headers.get("x-user")


@pytest.mark.anyio
async def test_a_task_is_only_seen_and_continued_by_its_principal(serve_agent: Any) -> None:
    base = serve_agent(booking_app(principal=by_header))
    async with Agent(base, headers={"x-user": "alice"}) as alice, Agent(base, headers={"x-user": "bob"}) as bob:
        task = await alice.call("book", note="n")
        with pytest.raises(A2AError, match="not found"):
            await bob.get(task.id)
        with pytest.raises(A2AError, match="not found"):
            await bob.answer(task, {"name": "Mallory", "seats": 1})
        task = await alice.answer(task, {"name": "Alice", "seats": 1})
        assert result_data(task)["name"] == "Alice"


@pytest.mark.anyio
async def test_a_task_parked_before_a_restart_continues_after_it() -> None:
    runs: list[Any] = []
    with LoopbackServer(booking_app(runs)) as first:
        async with Agent(f"http://127.0.0.1:{first.port}") as agent:
            task = await agent.call("book", note="before")
            task = await agent.answer(task, {"name": "Ada"})
            assert list(schema_of(task)["properties"]) == ["seats"]
    # A new process would build a new App: keys, askback's store and the task table all come from the data dir.
    with LoopbackServer(booking_app(runs)) as second:
        async with Agent(f"http://127.0.0.1:{second.port}") as agent:
            assert state(await agent.get(task.id)) == "TASK_STATE_INPUT_REQUIRED"
            task = await agent.answer(task, {"seats": 4})
            assert state(task) == "TASK_STATE_COMPLETED"
            assert result_data(task) == {"seats": 4, "name": "Ada", "note": "before"}
    assert runs == ["Ada"]
