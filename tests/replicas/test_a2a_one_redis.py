"""Two `askback serve` processes sharing one Redis serve one A2A task: its tasks are kept in askback's store,
with no task database of their own (`ASKBACK_A2A_TASKS=store://`)."""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from a2a.types import a2a_pb2 as pb

from tests.a2a.support import Agent, message, result_data, schema_of, state
from tests.a2a.test_postgres import json_url
from tests.replicas.conftest import Replica, key_text


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def pair(tmp_path: Path, redis_url: str) -> Iterator[tuple[Replica, Replica]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASKBACK_")}
    env.update(ASKBACK_KEYS=key_text(7), ASKBACK_STORE=f"{redis_url}?app=a2a-{os.urandom(5).hex()}",
               ASKBACK_A2A_TASKS="store://")
    a = Replica("a", tmp_path, {**env, "ASKBACK_DATA_DIR": str(tmp_path / "a")}, target="askback.demo").start()
    b = Replica("b", tmp_path, {**env, "ASKBACK_DATA_DIR": str(tmp_path / "b")}, target="askback.demo").start()
    yield a, b
    a.kill()
    b.kill()


@pytest.mark.anyio
async def test_one_task_is_served_across_two_processes_on_one_redis(pair: tuple[Replica, Replica],
                                                                    tmp_path: Path) -> None:
    a, b = pair
    async with Agent(f"http://127.0.0.1:{a.port}") as one, Agent(f"http://127.0.0.1:{b.port}") as two:
        task = await one.call("transfer", amount=50, to="DE89370400440532013000")
        assert list(schema_of(task)["properties"]) == ["from_account"]
        assert state(await two.get(task.id)) == "TASK_STATE_INPUT_REQUIRED"  # b reads what a wrote
        task = await two.answer(task, {"from_account": "DE02120300000000202051"})  # b continues it
        assert list(schema_of(task)["properties"]) == ["confirm"]
        done = await one.answer(task, {"confirm": True})  # and a finishes it
        assert state(done) == "TASK_STATE_COMPLETED"
        assert result_data(done)["status"] == "sent"
        final = await two.get(task.id)
        assert state(final) == "TASK_STATE_COMPLETED" and result_data(final) == result_data(done)
    # Neither process made a database of its own: the Redis both share is the only place the task lived.
    made = [p.name for p in tmp_path.glob("*/*") if p.suffix in (".db", ".sqlite3")]  # noqa: ASYNC240 (done)
    assert made == []


def approve(url: str) -> None:
    with httpx.Client() as browser:
        page = browser.get(url)
        token = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert token is not None
        browser.post(url, data={"csrf": token.group(1), "decision": "approve"})


@pytest.mark.anyio
async def test_a_subscriber_on_the_other_process_sees_the_page_step_finish_the_task(
        pair: tuple[Replica, Replica]) -> None:
    a, b = pair
    first = {"tool": "transfer", "arguments": {"amount": 5000, "to": "DE44500105175407324931",
                                               "from_account": "DE89370400440532013000"}}
    seen: list[str] = []  # what a client of b sees while a waits on the page, from the store they share
    async with Agent(f"http://127.0.0.1:{a.port}", streaming=True) as one, \
            Agent(f"http://127.0.0.1:{b.port}", streaming=True) as two:
        async for event in one.stream(message(first)):
            update = event.status_update if event.HasField("status_update") else None
            if update is not None and update.status.state == pb.TASK_STATE_AUTH_REQUIRED:
                opened = asyncio.Event()

                async def watch(task_id: str = update.task_id) -> None:
                    async for other in two._client.subscribe(pb.SubscribeToTaskRequest(id=task_id)):
                        opened.set()  # the subscription is open on b (it starts with the task)
                        if other.HasField("status_update"):
                            seen.append(pb.TaskState.Name(other.status_update.status.state))
                        if seen and seen[-1] == "TASK_STATE_COMPLETED":
                            return

                watcher = asyncio.create_task(watch())
                await asyncio.wait_for(opened.wait(), 30)
                await asyncio.to_thread(approve, json_url(update.status.message))  # a's stream goes on
                await asyncio.wait_for(watcher, 30)
                break
    assert seen[-1:] == ["TASK_STATE_COMPLETED"], seen
