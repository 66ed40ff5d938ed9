"""The A2A task store over askback's `Store`: each kind of store (memory, SQLite, Redis) keeps tasks, versions,
owners and events as the SDK's versioned stores do."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from a2a.server.cluster import ConcurrentTaskModificationError, TaskVersion
from a2a.server.context import ServerCallContext
from a2a.types import a2a_pb2 as pb

from askback.a2a.taskstore import StoreEventStream, StoreTaskStore
from askback.stores import MemoryStore, SQLiteStore
from askback.stores.base import Store
from tests.support.redis import machine_or_private

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    url, private = machine_or_private()
    yield url
    if private is not None:
        private.stop()


@pytest.fixture(params=["memory", "sqlite", "redis"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    kind: Store
    if request.param == "memory":
        kind = MemoryStore()
    elif request.param == "sqlite":
        kind = SQLiteStore(tmp_path / "askback.sqlite3")
    else:
        from askback.stores.redis import RedisStore

        kind = RedisStore(request.getfixturevalue("redis_url"), app=f"a2a-tasks-{os.urandom(5).hex()}")
    await kind.open()
    yield kind
    await kind.close()


def by_owner(call: ServerCallContext) -> str:
    return str(call.state["owner"])


def as_owner(owner: str) -> ServerCallContext:
    return ServerCallContext(state={"owner": owner})


def tasks_in(store: Store) -> StoreTaskStore:
    return StoreTaskStore(lambda: store, time.time, 600, owner_resolver=by_owner)


def a_task(task_id: str, state: pb.TaskState.ValueType = pb.TASK_STATE_WORKING, seconds: int = 0) -> pb.Task:
    task = pb.Task(id=task_id, context_id="ctx-" + task_id, status=pb.TaskStatus(state=state))
    task.status.timestamp.FromSeconds(1_700_000_000 + seconds)
    task.metadata.update({"askback.record": "sealed"})
    return task


@pytest.mark.anyio
async def test_a_task_round_trips_with_its_version(store: Store) -> None:
    tasks = tasks_in(store)
    alice = as_owner("alice")
    first = await tasks.save(a_task("t1"), event=None, prev_version=TaskVersion.MISSING, context=alice)
    stored = await tasks.get("t1", alice)
    assert stored is not None and stored.task == a_task("t1") and stored.version == first
    done = a_task("t1", pb.TASK_STATE_COMPLETED)
    second = await tasks.save(done, event=done, prev_version=first, context=alice)
    assert second.is_after(first)
    again = await tasks.get("t1", alice)
    assert again is not None and again.task == done and again.version == second
    await tasks.delete("t1", alice)
    assert await tasks.get("t1", alice) is None


@pytest.mark.anyio
async def test_another_owner_can_neither_read_nor_list_a_task(store: Store) -> None:
    tasks = tasks_in(store)
    await tasks.save(a_task("mine"), prev_version=TaskVersion.MISSING, context=as_owner("alice"))
    assert await tasks.get("mine", as_owner("bob")) is None
    assert list((await tasks.list(pb.ListTasksRequest(), as_owner("bob"))).tasks) == []
    listed = await tasks.list(pb.ListTasksRequest(), as_owner("alice"))
    assert [t.id for t in listed.tasks] == ["mine"]


@pytest.mark.anyio
async def test_of_two_writers_that_read_one_version_exactly_one_wins(store: Store) -> None:
    tasks = tasks_in(store)
    alice = as_owner("alice")
    first = await tasks.save(a_task("t"), prev_version=TaskVersion.MISSING, context=alice)
    outcomes = await asyncio.gather(
        *(tasks.save(a_task("t", pb.TASK_STATE_INPUT_REQUIRED), prev_version=first, context=alice)
          for _ in range(4)), return_exceptions=True)
    assert sum(isinstance(o, TaskVersion) for o in outcomes) == 1, outcomes
    assert sum(isinstance(o, ConcurrentTaskModificationError) for o in outcomes) == 3, outcomes
    with pytest.raises(ConcurrentTaskModificationError):  # a second first write of the same task
        await tasks.save(a_task("t"), prev_version=TaskVersion.MISSING, context=alice)


@pytest.mark.anyio
async def test_a_cancellation_overwrites_a_running_task_but_not_an_ended_one(store: Store) -> None:
    tasks = tasks_in(store)
    alice = as_owner("alice")
    first = await tasks.save(a_task("t"), prev_version=TaskVersion.MISSING, context=alice)
    await tasks.save(a_task("t", pb.TASK_STATE_INPUT_REQUIRED), prev_version=first, context=alice)
    cancelled = await tasks.save(a_task("t", pb.TASK_STATE_CANCELED), prev_version=first, context=alice)  # stale
    stored = await tasks.get("t", alice)
    assert stored is not None and stored.version == cancelled and stored.task.status.state == pb.TASK_STATE_CANCELED
    with pytest.raises(ConcurrentTaskModificationError):
        await tasks.save(a_task("t", pb.TASK_STATE_CANCELED), prev_version=cancelled, context=alice)


@pytest.mark.anyio
async def test_list_filters_orders_newest_first_and_pages(store: Store) -> None:
    tasks = tasks_in(store)
    alice = as_owner("alice")
    for n in range(5):
        state = pb.TASK_STATE_COMPLETED if n % 2 else pb.TASK_STATE_WORKING
        await tasks.save(a_task(f"t{n}", state, seconds=n), prev_version=TaskVersion.MISSING, context=alice)
    page = await tasks.list(pb.ListTasksRequest(page_size=2), alice)
    assert [t.id for t in page.tasks] == ["t4", "t3"] and page.total_size == 5
    rest = await tasks.list(pb.ListTasksRequest(page_size=10, page_token=page.next_page_token), alice)
    assert [t.id for t in rest.tasks] == ["t2", "t1", "t0"] and not rest.next_page_token
    done = await tasks.list(pb.ListTasksRequest(status=pb.TASK_STATE_COMPLETED), alice)
    assert [t.id for t in done.tasks] == ["t3", "t1"]
    await tasks.delete("t4", alice)
    assert [t.id for t in (await tasks.list(pb.ListTasksRequest(), alice)).tasks] == ["t3", "t2", "t1", "t0"]


@pytest.mark.anyio
async def test_a_subscriber_reads_every_event_after_its_version(store: Store) -> None:
    tasks = tasks_in(store)
    stream = StoreEventStream(lambda: store, poll_seconds=0.02)
    alice = as_owner("alice")
    version = await tasks.save(a_task("t"), prev_version=TaskVersion.MISSING, context=alice)
    seen: list[tuple[str, TaskVersion]] = []

    async def follow() -> None:
        async for item in stream.subscribe("t", after=version):
            assert isinstance(item.event, pb.TaskStatusUpdateEvent)
            seen.append((pb.TaskState.Name(item.event.status.state), item.version))
            if item.event.status.state == pb.TASK_STATE_COMPLETED:
                return

    follower = asyncio.create_task(follow())
    written = []
    for state in (pb.TASK_STATE_INPUT_REQUIRED, pb.TASK_STATE_WORKING, pb.TASK_STATE_COMPLETED):
        await asyncio.sleep(0.05)
        if state == pb.TASK_STATE_WORKING:  # a write without an event: nothing to deliver, and no gap
            version = await tasks.save(a_task("t", state), prev_version=version, context=alice)
            continue
        event = pb.TaskStatusUpdateEvent(task_id="t", context_id="ctx-t", status=pb.TaskStatus(state=state))
        version = await tasks.save(a_task("t", state), event=event, prev_version=version, context=alice)
        written.append((pb.TaskState.Name(state), version))
    await asyncio.wait_for(follower, 10)
    assert seen == written


def test_store_tasks_keep_tasks_in_the_apps_store_and_open_no_database() -> None:
    """a2a-sdk's request handler imports SQLAlchemy itself (its cluster package loads its database stream when
    SQLAlchemy is installed); with `ASKBACK_A2A_TASKS=store://` askback opens no engine and loads no driver."""
    code = ("import sys; from askback.demo import app; from askback.a2a import A2AServer; s = A2AServer(app); "
            "print(type(s.tasks.store).__name__, s.tasks.engine, 'aiosqlite' in sys.modules)")
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASKBACK_")}
    env["ASKBACK_A2A_TASKS"] = "store://"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True, timeout=120)
    assert out.stdout.split() == ["StoreTaskStore", "None", "False"], out.stderr
