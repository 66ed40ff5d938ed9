"""A2A tasks on PostgreSQL (`ASKBACK_A2A_TASKS`): the SDK's versioned store, and two replicas serving one task.

Uses the PostgreSQL on 127.0.0.1:5432 (trust auth), in a database of its own per test; without one the tests
skip, and under CI=true that is a failure.
"""

from __future__ import annotations

import asyncio
import os
import re
import uuid
from collections.abc import AsyncIterator
from typing import Annotated, Any

import httpx
import pytest
from a2a.types import a2a_pb2 as pb
from a2a.utils.errors import A2AError
from google.protobuf import json_format
from pydantic import Field

import askback
from askback.demo import transfer
from tests.a2a.support import Agent, message, result_data, schema_of, state
from tests.conftest import IN_CI, LoopbackServer

ADMIN = os.environ.get("ASKBACK_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
NAME = "Wilhelmina-Oxenstierna"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def pg_url(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[str]:
    asyncpg = pytest.importorskip("asyncpg")
    try:
        admin = await asyncpg.connect(ADMIN, timeout=5)
    except (OSError, asyncpg.PostgresError) as exc:
        if IN_CI:
            pytest.fail(f"PostgreSQL is required under CI=true and is not reachable at {ADMIN}: {exc}")
        pytest.skip(f"LOUD SKIP: no PostgreSQL at {ADMIN} ({exc}); the PostgreSQL task store is not tested")
    name = f"askback_a2a_{uuid.uuid4().hex[:12]}"
    await admin.execute(f'CREATE DATABASE "{name}"')
    url = ADMIN.rsplit("/", 1)[0] + "/" + name
    monkeypatch.setenv("ASKBACK_A2A_TASKS", url)
    try:
        yield url
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


def booking_app(runs: list[Any]) -> askback.App:
    app = askback.App("booking")

    @app.tool()
    def book(
        seats: Annotated[int, Field(ge=1, le=9)],
        name: Annotated[str, Field(min_length=2)],
        ok: Annotated[bool, askback.Confirm("Book {seats} seats?")],
    ) -> dict[str, Any]:
        runs.append(name)
        return {"seats": seats, "name": name}

    return app


async def rows(url: str) -> str:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        return repr(await conn.fetch("select * from tasks"))
    finally:
        await conn.close()


@pytest.mark.anyio
async def test_tasks_on_postgresql_with_the_answers_sealed(pg_url: str) -> None:
    runs: list[Any] = []
    with LoopbackServer(booking_app(runs)) as server:
        async with Agent(f"http://127.0.0.1:{server.port}") as agent:
            task = await agent.call("book")
            task = await agent.answer(task, {"name": NAME})
            assert list(schema_of(task)["properties"]) == ["seats"]
            text = await rows(pg_url)
            assert task.id in text and NAME not in text
            task = await agent.answer(task, {"seats": 2})
            task = await agent.answer(task, {"ok": True})
            assert result_data(task) == {"seats": 2, "name": NAME}
    assert runs == [NAME]


@pytest.mark.anyio
async def test_two_replicas_serve_one_task_and_run_it_once(pg_url: str) -> None:
    runs: list[Any] = []
    # Two replicas: two apps, two servers, sharing the task database, the data dir's keys and askback's store.
    with LoopbackServer(booking_app(runs)) as one, LoopbackServer(booking_app(runs)) as two:
        async with Agent(f"http://127.0.0.1:{one.port}") as a, Agent(f"http://127.0.0.1:{two.port}") as b:
            task = await a.call("book", seats=3)
            task = await b.answer(task, {"name": "Ada"})  # the other replica continues it
            assert list(schema_of(task)["properties"]) == ["ok"]
            assert state(await a.get(task.id)) == "TASK_STATE_INPUT_REQUIRED"
            # The same final answer to both replicas at once: the function runs once, the task completes once.
            outcomes = await asyncio.gather(
                a.answer(task, {"ok": True}), b.answer(task, {"ok": True}), return_exceptions=True
            )
            # Each sender sees the completed task or a clear error; neither sees it rejected or failed.
            completed = [o for o in outcomes if not isinstance(o, BaseException)]
            errors = [o for o in outcomes if isinstance(o, BaseException)]
            assert [state(o) for o in completed] == ["TASK_STATE_COMPLETED"], outcomes
            assert len(errors) == 1 and isinstance(errors[0], A2AError), outcomes
            assert "not applied" in str(errors[0]) or "concurrently" in str(errors[0]), outcomes
            final = await b.get(task.id)
            assert state(final) == "TASK_STATE_COMPLETED" and result_data(final) == {"seats": 3, "name": "Ada"}
    assert runs == ["Ada"]


@pytest.mark.anyio
async def test_a_replica_continues_a_task_named_without_its_context_id(pg_url: str) -> None:
    """The versioned store answers the context of the task a message names, on a replica that never saw it."""
    runs: list[Any] = []
    with LoopbackServer(booking_app(runs)) as one, LoopbackServer(booking_app(runs)) as two:
        async with Agent(f"http://127.0.0.1:{one.port}") as a, Agent(f"http://127.0.0.1:{two.port}") as b:
            first = await a.call("book", seats=3)
            task = await b.send(message({"name": "Ada"}, task=first, context_id=""))
            assert state(task) == "TASK_STATE_INPUT_REQUIRED" and task.context_id == first.context_id
            done = await a.send(message({"ok": True}, task=first, context_id=""))
            assert state(done) == "TASK_STATE_COMPLETED" and done.context_id == first.context_id
            final = await b.get(first.id)
            assert state(final) == "TASK_STATE_COMPLETED" and result_data(final) == {"seats": 3, "name": "Ada"}
    assert runs == ["Ada"]


@pytest.mark.anyio
@pytest.mark.parametrize("tool", ["pay", "refund"])
async def test_cancel_on_one_replica_racing_the_final_message_on_the_other(pg_url: str, tool: str) -> None:
    """The SDK on the replica that does not run the message cancels by writing CANCELED in the shared store;
    what ends the task is decided first, as both replicas see it: `TASK_STATE_COMPLETED` iff it ran."""
    from tests.a2a.test_cancel_race import SETTLED, shop

    paid: list[str] = []
    wrong: list[str] = []
    with LoopbackServer(shop(paid)) as one, LoopbackServer(shop(paid)) as two:
        async with Agent(f"http://127.0.0.1:{one.port}") as a, Agent(f"http://127.0.0.1:{two.port}") as b:
            for n in range(16):
                order = f"{tool}-{n}"
                task = await a.call(tool, order=order)
                answer = {"ok": True} if tool == "pay" else {"confirm": True}
                lead = (n % 8 - 2) * 2 / 1000  # the cancellation leaves 4 ms before to 10 ms after the answer

                async def send(task: pb.Task = task, answer: Any = answer, lead: float = lead) -> Any:
                    await asyncio.sleep(max(0.0, -lead))
                    return await a.send(message(answer, task=task))

                async def cancel(task: pb.Task = task, lead: float = lead) -> Any:
                    await asyncio.sleep(max(0.0, lead))
                    return await b._client.cancel_task(pb.CancelTaskRequest(id=task.id))

                _, cancelled = await asyncio.gather(send(), cancel(), return_exceptions=True)
                final = await a.get(task.id)
                for _ in range(100):  # bounded: 5 s
                    if state(final) in SETTLED:
                        break
                    await asyncio.sleep(0.05)
                    final = await a.get(task.id)
                ran = paid.count(order)
                expected = "TASK_STATE_COMPLETED" if ran else "TASK_STATE_CANCELED"
                if ran > 1 or state(final) != expected:
                    wrong.append(f"{order}: ran {ran}, GetTask reads {state(final)}")
                if isinstance(cancelled, pb.Task) and state(cancelled) != expected:
                    wrong.append(f"{order}: ran {ran}, CancelTask was told {state(cancelled)}")
    assert not wrong, f"{len(wrong)} wrong of 16:\n" + "\n".join(wrong)


@pytest.mark.anyio
async def test_a_subscriber_on_the_other_replica_sees_the_page_step_finish_the_task(pg_url: str) -> None:
    def bank() -> askback.App:  # a replica of the demo's transfer: each replica builds its own App
        app = askback.App("askback-demo")
        app.tool(once=True)(transfer)
        return app

    def approve(url: str) -> None:
        with httpx.Client() as browser:
            page = browser.get(url)
            token = re.search(r'name="csrf" value="([^"]+)"', page.text)
            assert token is not None
            browser.post(url, data={"csrf": token.group(1), "decision": "approve"})

    with LoopbackServer(bank()) as one, LoopbackServer(bank()) as two:
        async with Agent(f"http://127.0.0.1:{one.port}", streaming=True) as a, \
                Agent(f"http://127.0.0.1:{two.port}", streaming=True) as b:
            first = {"tool": "transfer", "arguments": {"amount": 5000, "to": "DE44500105175407324931",
                                                       "from_account": "DE89370400440532013000"}}
            seen: list[str] = []  # what a client of replica two sees while replica one waits on the page
            async for event in a.stream(message(first)):
                update = event.status_update if event.HasField("status_update") else None
                if update is not None and update.status.state == pb.TASK_STATE_AUTH_REQUIRED:
                    status = event.status_update
                    url = json_url(status.status.message)
                    opened = asyncio.Event()

                    async def watch(task_id: str = status.task_id) -> None:
                        async for other in b._client.subscribe(pb.SubscribeToTaskRequest(id=task_id)):
                            opened.set()  # the subscription is open on replica two (it starts with the task)
                            if other.HasField("status_update"):
                                seen.append(pb.TaskState.Name(other.status_update.status.state))
                            if seen and seen[-1] == "TASK_STATE_COMPLETED":
                                return

                    watcher = asyncio.create_task(watch())
                    await asyncio.wait_for(opened.wait(), 30)
                    await asyncio.to_thread(approve, url)  # the page completes on replica one's stream
                    await asyncio.wait_for(watcher, 30)
                    break
            assert seen[-1:] == ["TASK_STATE_COMPLETED"], seen


def json_url(msg: Any) -> str:
    meta = json_format.MessageToDict(msg.metadata)
    return str(meta["https://askback.dev/extensions/input-schema/v1"]["pages"][0]["url"])
