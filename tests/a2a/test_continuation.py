"""A message that names a task continues that task, in the task's own context, whether or not it repeats the
`contextId` (A2A lets a client leave it out: the agent infers it from the task). A `contextId` that is not the
task's is refused before anything runs. Through the official a2a-sdk client over loopback HTTP, counting what
the function did: it runs at most once, and what the client is told (and `GetTask` reads later) is what ran.
"""

from __future__ import annotations

import uuid
from typing import Annotated, Any

import pytest
from a2a.types import a2a_pb2 as pb
from a2a.utils.errors import A2AError
from pydantic import Field

import askback
from tests.a2a.support import Agent, message, result_data, state

NO_CONTEXT = ""  # the message carries a task id and no contextId


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def payments_app(paid: list[Any]) -> askback.App:
    app = askback.App("payments")

    @app.tool()
    def pay(
        amount: Annotated[int, Field(ge=1, le=10_000, description="Amount in EUR")],
        payee: Annotated[str, Field(min_length=2, description="Who is paid")],
        ok: Annotated[bool, askback.Confirm("Pay {amount} EUR to {payee}?")],
    ) -> dict[str, Any]:
        paid.append((amount, payee))
        return {"paid": amount, "to": payee}

    @app.tool(task="optional")
    async def refund(order: str, work: askback.Work) -> str:
        """Asks during its work before the irreversible step."""
        if not await work.confirm("Refund order {order}?", order=order):
            return "Kept."
        paid.append(("refund", order))
        return f"Refunded {order}."

    return app


async def told(agent: Agent, msg: pb.Message) -> pb.Task:
    """The task as the client was told it: the reply to a send, or the last state a stream announced (with the
    task's fields as a stream's first event carried them)."""
    if not agent.streaming:
        return await agent.send(msg)
    task: pb.Task | None = None
    async for event in agent.stream(msg):
        if event.HasField("task"):
            task = event.task
        elif event.HasField("status_update"):
            task = task or pb.Task(id=event.status_update.task_id)
            task.context_id = event.status_update.context_id
            task.status.CopyFrom(event.status_update.status)
        elif event.HasField("artifact_update"):
            task = task or pb.Task(id=event.artifact_update.task_id)
            task.artifacts.append(event.artifact_update.artifact)
    assert task is not None
    return task


def without_context(data: Any, task: pb.Task) -> pb.Message:
    msg = message(data, task=task, context_id=NO_CONTEXT)
    assert msg.task_id == task.id and msg.context_id == ""
    return msg


@pytest.mark.anyio
@pytest.mark.parametrize("streaming", [False, True], ids=["send", "stream"])
async def test_every_round_without_a_context_id_continues_the_task_and_pays_once(
    serve_agent: Any, streaming: bool
) -> None:
    paid: list[Any] = []
    async with Agent(serve_agent(payments_app(paid)), streaming=streaming) as agent:
        m1 = await told(agent, message({"tool": "pay", "arguments": {"amount": 50}}))
        assert state(m1) == "TASK_STATE_INPUT_REQUIRED"
        m2 = await told(agent, without_context({"payee": "Ada"}, m1))
        assert state(m2) == "TASK_STATE_INPUT_REQUIRED", m2
        assert (m2.id, m2.context_id) == (m1.id, m1.context_id)
        assert paid == []
        m3 = await told(agent, without_context({"ok": True}, m2))
        assert state(m3) == "TASK_STATE_COMPLETED", m3
        assert (m3.id, m3.context_id) == (m1.id, m1.context_id)
        assert result_data(m3) == {"paid": 50, "to": "Ada"}
        stored = await agent.get(m1.id)
        assert state(stored) == "TASK_STATE_COMPLETED" and stored.context_id == m1.context_id
        with pytest.raises(A2AError):  # a client that retries the last message pays nothing more
            await told(agent, without_context({"ok": True}, m2))
    assert paid == [(50, "Ada")]


@pytest.mark.anyio
@pytest.mark.parametrize("order_given", [True, False], ids=["work-only", "values-then-work"])
async def test_a_mid_work_answer_without_a_context_id_continues_the_work(serve_agent: Any, order_given: bool) -> None:
    paid: list[Any] = []
    async with Agent(serve_agent(payments_app(paid))) as agent:
        task = await agent.call("refund", **({"order": "A-17"} if order_given else {}))
        first = task
        if not order_given:  # the value first, by an ordinary round, then the function asks during its work
            assert state(task) == "TASK_STATE_INPUT_REQUIRED"
            task = await agent.send(without_context({"order": "A-17"}, task))
        assert state(task) == "TASK_STATE_INPUT_REQUIRED", task
        assert "Refund order A-17?" in task.status.message.parts[0].text
        done = await agent.send(without_context({"confirm": True}, task))
        assert state(done) == "TASK_STATE_COMPLETED", done
        assert done.context_id == first.context_id
        assert state(await agent.get(first.id)) == "TASK_STATE_COMPLETED"
    assert paid == [("refund", "A-17")]


@pytest.mark.anyio
@pytest.mark.parametrize("round_", ["values", "confirmation"])
async def test_another_context_id_is_refused_and_nothing_runs(serve_agent: Any, round_: str) -> None:
    paid: list[Any] = []
    async with Agent(serve_agent(payments_app(paid))) as agent:
        task = await agent.call("pay", amount=50, **({"payee": "Ada"} if round_ == "confirmation" else {}))
        assert state(task) == "TASK_STATE_INPUT_REQUIRED"
        answer = {"ok": True} if round_ == "confirmation" else {"payee": "Ada"}
        with pytest.raises(A2AError, match="does not match"):
            await agent.send(message(answer, task=task, context_id="ctx-" + uuid.uuid4().hex))
        untouched = await agent.get(task.id)
        assert state(untouched) == "TASK_STATE_INPUT_REQUIRED" and untouched.context_id == task.context_id
        assert paid == []
        if round_ == "confirmation":  # the task is intact: the right message still completes it, once
            done = await agent.send(without_context({"ok": True}, task))
            assert state(done) == "TASK_STATE_COMPLETED"
    assert paid == ([(50, "Ada")] if round_ == "confirmation" else [])


@pytest.mark.anyio
async def test_an_unknown_task_without_a_context_id_is_not_found_and_nothing_runs(serve_agent: Any) -> None:
    paid: list[Any] = []
    async with Agent(serve_agent(payments_app(paid))) as agent:
        ghost = pb.Task(id="no-such-task-" + uuid.uuid4().hex)
        with pytest.raises(A2AError, match="not found"):
            await agent.send(without_context({"ok": True}, ghost))
    assert paid == []
