"""The task-record holder: a task's rounds in askback's store, sealed and bound to the task and its principal."""

from __future__ import annotations

import os

import pytest

from askback.core.errors import InvalidRequestState, Rejection
from askback.core.progress import Progress
from askback.core.state import Keyring, StatePolicy
from askback.stores.memory import MemoryStore
from askback.tasks.holder import Asked, FlowRecord, TaskFlows

RING = Keyring([os.urandom(32)])


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def record(clock: Clock) -> FlowRecord:
    return FlowRecord("tool", "book", {"seats": 2, "name": "Zebulon"}, asked=(Asked("note", {"properties": {}}),),
                      progress=Progress({"seats": 2}, {}, {"note": "fp"}, 1), expires=clock.now + 60,
                      deadline=clock.now + 600)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_a_record_opens_only_for_its_task_principal_app_and_keys() -> None:
    clock = Clock()
    store = MemoryStore(clock=clock)
    flows = TaskFlows(store, RING, "app", StatePolicy(now=clock), "a2a")
    kept = record(clock)
    await flows.write("t1", "alice", kept, kept.deadline)
    assert await flows.read("t1", "alice") == kept
    raw = await store.get("a2a-task-flow:t1")
    assert raw is not None and b"Zebulon" not in raw and b"seats" not in raw and b"book" not in raw
    for audience, task_id, principal in [("app", "t1", "bob"), ("app", "t1", None), ("other", "t1", "alice")]:
        with pytest.raises(InvalidRequestState):
            await TaskFlows(store, RING, audience, StatePolicy(now=clock), "a2a").read(task_id, principal)
    with pytest.raises(InvalidRequestState):
        await TaskFlows(store, Keyring([os.urandom(32)]), "app", StatePolicy(now=clock), "a2a").read("t1", "alice")
    # Copied onto another task, it does not open there.
    await store.put("a2a-task-flow:t2", raw, kept.deadline)
    with pytest.raises(InvalidRequestState):
        await flows.read("t2", "alice")


@pytest.mark.anyio
async def test_a_round_and_a_flow_expire_as_a_sealed_state_does() -> None:
    clock = Clock()
    flows = TaskFlows(MemoryStore(clock=clock), RING, "app", StatePolicy(now=clock), "a2a")
    kept = record(clock)
    await flows.write("t1", None, kept, kept.deadline)
    clock.now += 61
    with pytest.raises(InvalidRequestState) as caught:
        await flows.read("t1", None)
    assert caught.value.reason is Rejection.ROUND_EXPIRED
    clock.now += 600
    with pytest.raises(InvalidRequestState) as caught:
        await flows.read("t1", None)
    assert caught.value.reason is Rejection.FLOW_EXPIRED


@pytest.mark.anyio
async def test_once_the_rounds_are_over_no_value_is_kept_and_a_late_answer_reads_as_a_replay() -> None:
    clock = Clock()
    store = MemoryStore(clock=clock)
    flows = TaskFlows(store, RING, "app", StatePolicy(now=clock), "a2a")
    kept = record(clock)
    await flows.write("t1", "alice", kept, kept.deadline)
    await flows.moved("t1", "alice", kept, "running", kept.deadline)
    running = await flows.read("t1", "alice")
    assert running.phase == "running" and running.arguments == {} and running.progress is None
    await flows.moved("t1", "alice", kept, "done", kept.deadline)
    with pytest.raises(InvalidRequestState) as caught:
        await flows.read("t1", "alice")
    assert caught.value.reason is Rejection.REPLAYED
