"""Each way a task could read something other than what its function did, made to happen every time.

`test_cancel_race.py` races real requests; here each window is held open by a store that answers late (as
SQLite, whose writes run in a worker thread, does under load), so each rule is checked on every run:

- a read that saw the task `working` just before its runner finished must not settle it "the server stopped";
- an answer that arrives as a cancellation settles the task must not run the function again;
- a cancellation while the running task writes a state must not let that older state land after `cancelled`;
- a cancellation while the outcome of a function that returned is being written leaves it `completed`.
"""

from __future__ import annotations

import asyncio
import base64
import os
from collections.abc import AsyncIterator

import pytest

import askback
from askback.core.tasks import TaskState
from askback.flow import Ready
from askback.mcp.tasks import McpTaskWire
from askback.tasks.runner import TaskRunner

YES = {"action": "accept", "content": {"confirm": True}}
RAN: dict[askback.App, list[str]] = {}  # what each app's `charge` did, in order


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def app() -> AsyncIterator[askback.App]:
    key = base64.urlsafe_b64encode(os.urandom(32)).decode().rstrip("=")
    app = askback.App("settle-race", keys=key, store="memory://")
    done = RAN[app] = []

    @app.tool(task="optional", namespace=locals())
    async def charge(work: askback.Work) -> str:
        done.append("start")
        if not await work.confirm("Charge it?"):
            return "not charged"
        done.append("charge")
        return "charged"

    @app.tool(task="optional", namespace=locals())
    async def steps(work: askback.Work) -> str:
        await work.status("step one")
        await asyncio.sleep(30)
        return "done"

    await app.start()
    try:
        yield app
    finally:
        await app.stop()
        RAN.pop(app, None)


def ran(app: askback.App) -> list[str]:
    return list(RAN[app])


async def parked(runner: TaskRunner, app: askback.App, tool: str = "charge") -> tuple[str, str]:
    task_id, _ = await runner.create(app.tools[tool], Ready({}, {}), None)
    async for state in runner.follow(task_id, None, app.tools):
        if state.status == "input_required":
            return task_id, state.outstanding[0].key
    raise AssertionError("the task never asked")


async def settled(runner: TaskRunner, task_id: str, app: askback.App) -> TaskState:
    for _ in range(200):  # bounded: 10 s
        state = await runner.get(task_id, None, app.tools)
        if state.terminal:
            return state
        await asyncio.sleep(0.05)
    raise AssertionError("the task never settled")


def late_reads(runner: TaskRunner, seconds: float) -> None:
    """The next read of the task's record answers what the store held, `seconds` later."""
    read = runner.records.read
    once = [True]

    async def late(task_id: str, principal: str | None) -> TaskState | None:
        state = await read(task_id, principal)
        if once:
            once.clear()
            await asyncio.sleep(seconds)
        return state

    runner.records.read = late  # type: ignore[method-assign]


def late_writes(runner: TaskRunner, seconds: float, status: str) -> None:
    """Writes of a state in `status` land `seconds` later, even when their caller was cancelled meanwhile."""
    write = runner.records.write

    async def late(task_id: str, principal: str | None, state: TaskState) -> None:
        if state.status != status:
            return await write(task_id, principal, state)

        async def land() -> None:
            await asyncio.sleep(seconds)
            await write(task_id, principal, state)

        await asyncio.shield(asyncio.ensure_future(land()))

    runner.records.write = late  # type: ignore[method-assign]


async def answered_and_returned(runner: TaskRunner, app: askback.App, task_id: str, key: str) -> None:
    """Answer the task's question and wait until its function has returned (its outcome is being written)."""
    await runner.records.put_answer(task_id, None, key, YES, 10**10)
    for run in runner._running.values():
        run.wake.set()
    for _ in range(100):  # bounded: 1 s
        if ran(app)[-1:] == ["charge"]:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the function never returned")


@pytest.mark.anyio
async def test_a_read_from_before_the_runner_finished_does_not_settle_it_failed(app: askback.App) -> None:
    runner = TaskRunner(app.runtime, McpTaskWire(), ttl=60, lease=5)
    task_id, key = await parked(runner, app)
    late_writes(runner, 0.1, "completed")
    await answered_and_returned(runner, app, task_id, key)
    late_reads(runner, 0.3)  # the get reads `working`; meanwhile the runner writes `completed` and lets go
    shown = await runner.get(task_id, None, app.tools)
    assert shown.status != "failed", shown
    final = await settled(runner, task_id, app)
    assert final.status == "completed" and final.result is not None, final
    assert ran(app) == ["start", "charge"]


@pytest.mark.anyio
async def test_an_answer_arriving_as_a_cancel_settles_the_task_does_not_run_it_again(app: askback.App) -> None:
    runner = TaskRunner(app.runtime, McpTaskWire(), ttl=60, lease=5)
    task_id, key = await parked(runner, app)
    late_reads(runner, 0.3)  # the update reads the parked task; the cancellation settles it meanwhile
    update = asyncio.ensure_future(runner.update(task_id, None, {key: YES}, app.tools))
    await asyncio.sleep(0.05)
    await runner.cancel(task_id, None)
    await update
    await asyncio.sleep(0.3)  # a run started by the late answer would have charged by now
    final = await settled(runner, task_id, app)
    assert final.status == "cancelled", final
    assert ran(app) == ["start"]


@pytest.mark.anyio
async def test_a_state_being_written_at_the_cancel_never_lands_after_cancelled(app: askback.App) -> None:
    runner = TaskRunner(app.runtime, McpTaskWire(), ttl=60, lease=5)
    late_writes(runner, 0.3, "working")  # the status text's write is in flight when the cancel comes
    task_id, _ = await runner.create(app.tools["steps"], Ready({}, {}), None)
    await asyncio.sleep(0.05)
    await runner.cancel(task_id, None)
    await asyncio.sleep(0.4)  # the late write has landed by now, whichever order it took
    final = await settled(runner, task_id, app)
    assert final.status == "cancelled", final
    assert "stopped" not in str(final.status_message)


@pytest.mark.anyio
async def test_a_cancel_while_the_outcome_is_written_leaves_it_completed(app: askback.App) -> None:
    runner = TaskRunner(app.runtime, McpTaskWire(), ttl=60, lease=5)
    task_id, key = await parked(runner, app)
    late_writes(runner, 0.3, "completed")
    await answered_and_returned(runner, app, task_id, key)
    await runner.cancel(task_id, None)
    right_after = await runner.get(task_id, None, app.tools)
    assert right_after.status == "completed", right_after
    await asyncio.sleep(0.4)
    final = await settled(runner, task_id, app)
    assert final.status == "completed" and final.result is not None, final
    assert ran(app) == ["start", "charge"]
