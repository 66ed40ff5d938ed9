"""`CancelTask` racing the final message, through the a2a-sdk client over loopback HTTP, many times.

The rule of every wire: the function runs at most once, and what each client is told, and what `GetTask`
reads afterwards, says truthfully whether it ran: `TASK_STATE_COMPLETED` when it did, `TASK_STATE_CANCELED`
only when it did not. Both kinds of A2A task are raced: a tool whose last round is a confirmation (its
function runs within the message) and one that asks during its work (it runs on the task runner).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

import pytest
from a2a.types import a2a_pb2 as pb
from pydantic import Field

import askback
from tests.a2a.support import Agent, message, state

ROUNDS = 30
SETTLED = {"TASK_STATE_COMPLETED", "TASK_STATE_CANCELED", "TASK_STATE_FAILED", "TASK_STATE_REJECTED"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def shop(paid: list[str]) -> askback.App:
    app = askback.App("shop")

    @app.tool()
    async def pay(
        order: str,
        ok: Annotated[bool, askback.Confirm("Pay order {order}?")],
        note: Annotated[str, Field(description="unused")] = "",
    ) -> str:
        await asyncio.sleep(0)  # an async function: the cancellation may reach it before it pays
        paid.append(order)  # the irreversible step, last
        return f"Paid {order}."

    @app.tool(task="optional")
    async def refund(order: str, work: askback.Work) -> str:
        if not await work.confirm("Refund order {order}?", order=order):
            return "Kept."
        paid.append(order)
        return f"Refunded {order}."

    return app


async def one_race(agent: Agent, tool: str, order: str, shift: int) -> tuple[Any, Any, pb.Task]:
    task = await agent.call(tool, order=order)
    assert state(task) == "TASK_STATE_INPUT_REQUIRED", task
    answer = {"ok": True} if tool == "pay" else {"confirm": True}

    lead = (shift % 8 - 2) * 2 / 1000  # the cancellation leaves 4 ms before to 10 ms after the answer

    async def send() -> Any:
        await asyncio.sleep(max(0.0, -lead))
        return await agent.send(message(answer, task=task))

    async def cancel() -> Any:
        await asyncio.sleep(max(0.0, lead))
        return await agent._client.cancel_task(pb.CancelTaskRequest(id=task.id))

    sent, cancelled = await asyncio.gather(send(), cancel(), return_exceptions=True)
    final = await agent.get(task.id)
    for _ in range(100):  # bounded: a task still settling is read again (5 s)
        if state(final) in SETTLED:
            break
        await asyncio.sleep(0.05)
        final = await agent.get(task.id)
    return sent, cancelled, final


@pytest.mark.anyio
@pytest.mark.parametrize("tool", ["pay", "refund"])
async def test_cancel_racing_the_final_message_reads_completed_iff_it_ran(serve_agent: Any, tool: str) -> None:
    paid: list[str] = []
    wrong: list[str] = []
    outcomes: dict[str, int] = {}
    async with Agent(serve_agent(shop(paid))) as agent:
        for n in range(ROUNDS):
            order = f"{tool}-{n}"
            sent, cancelled, final = await one_race(agent, tool, order, n)
            ran = paid.count(order)
            final_state = state(final)
            outcomes[final_state] = outcomes.get(final_state, 0) + 1
            if ran > 1:
                wrong.append(f"{order}: ran {ran} times")
            expected = "TASK_STATE_COMPLETED" if ran else "TASK_STATE_CANCELED"
            if final_state != expected:
                wrong.append(f"{order}: ran {ran}, GetTask reads {final_state}")
            if len(final.artifacts) != ran:  # the outcome is published once, by whoever published it
                wrong.append(f"{order}: ran {ran}, {len(final.artifacts)} artifacts")
            for who, told in (("the message", sent), ("CancelTask", cancelled)):
                if isinstance(told, pb.Task) and state(told) in SETTLED and state(told) != expected:
                    wrong.append(f"{order}: ran {ran}, {who} was told {state(told)}")
                if isinstance(told, BaseException) and who == "the message" and ran:
                    wrong.append(f"{order}: ran, yet the message was answered {told!r}")
    assert not wrong, f"{len(wrong)} wrong in {ROUNDS} rounds ({outcomes}):\n" + "\n".join(wrong)
