"""Following a task without I/O: when a call becomes a task, what is polled, asked and sent, and how it ends."""

from __future__ import annotations

from typing import Any

import pytest

from askback.client import Pending, PendingFileError, ProtocolError, Server, TooManyRounds
from askback.client.connection import capabilities_wire
from askback.client.loop import Done, Limits, Loop, Started
from askback.client.tasks import TASKS_EXTENSION, InputNeeded, Poll, TaskCancelled, TaskFailed, TaskLoop
from askback.types import Capabilities

SERVER = Server(url="http://127.0.0.1:1/mcp")
CREATED = {"resultType": "task", "taskId": "t-1", "status": "working", "createdAt": "2026-12-01T10:00:00Z",
           "lastUpdatedAt": "2026-12-01T10:00:00Z", "ttlMs": 600_000, "pollIntervalMs": 250}
CONFIRM = {"method": "elicitation/create", "params": {"mode": "form", "message": "Delete these 3 files?",
                                                      "requestedSchema": {"type": "object", "properties": {
                                                          "confirm": {"type": "boolean"}}, "required": ["confirm"]}}}
NAME = {"method": "elicitation/create", "params": {"mode": "form", "message": "Name?", "requestedSchema": {
    "type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}}


def call(rounds: int = 0) -> Pending:
    return Pending(SERVER, "tools/call", {"name": "cleanup", "arguments": {}}, {}, None, rounds)


def task(status: str, **fields: Any) -> dict[str, Any]:
    return {"resultType": "complete", "taskId": "t-1", "status": status, **fields}


def test_a_tools_call_answered_with_a_task_is_started_only_when_the_client_declared_tasks() -> None:
    declared = Loop("tools/call", {"name": "cleanup"}, server=SERVER, protocol_version="2026-07-28", tasks=True)
    step = declared.receive(CREATED)
    assert isinstance(step, Started) and step.created["taskId"] == "t-1" and step.call.method == "tools/call"
    undeclared = Loop("tools/call", {"name": "cleanup"}, server=SERVER, protocol_version="2026-07-28")
    with pytest.raises(ProtocolError, match="returned a task"):
        undeclared.receive(CREATED)
    prompt = Loop("prompts/get", {"name": "p"}, server=SERVER, protocol_version="2026-07-28", tasks=True)
    with pytest.raises(ProtocolError, match="returned a task"):  # only tools/call may become a task
        prompt.receive(CREATED)


def test_the_extension_is_declared_in_the_request_capabilities() -> None:
    wire = capabilities_wire(Capabilities(form=True), {TASKS_EXTENSION: {}})
    assert wire == {"extensions": {"io.modelcontextprotocol/tasks": {}}, "elicitation": {"form": {}}}
    assert "extensions" not in capabilities_wire(Capabilities(form=True))


def test_polls_at_the_servers_interval_within_bounds() -> None:
    loop = TaskLoop(CREATED, call())
    assert loop.poll() == Poll(0.25)
    assert loop.receive(task("working", pollIntervalMs=0)) == Poll(0.05)  # never a busy loop
    assert loop.receive(task("working", pollIntervalMs=3_600_000)) == Poll(30.0)  # never an hour's stall
    no_interval = TaskLoop({"taskId": "t-1"}, call())
    assert [no_interval.poll().seconds for _ in range(6)] == [0.5, 1.0, 2.0, 4.0, 5.0, 5.0]
    assert no_interval.receive(task("working", pollIntervalMs=True)) == Poll(5.0)  # a bool is no interval


def test_questions_are_asked_once_and_answered_keys_never_again() -> None:
    loop = TaskLoop(CREATED, call())
    step = loop.receive(task("input_required", inputRequests={"confirm-1": CONFIRM, "name-1": NAME}))
    assert isinstance(step, InputNeeded)
    assert [q.key for q in step.pending.questions] == ["confirm-1", "name-1"]
    assert step.pending.task_id == "t-1" and step.pending.rounds == 1
    yes = {"action": "accept", "content": {"confirm": True}}
    assert loop.update_params({"confirm-1": yes}) == {"taskId": "t-1", "inputResponses": {"confirm-1": yes}}
    # The server has not read the update yet and lists both: only the unanswered one is asked.
    again = loop.receive(task("input_required", inputRequests={"confirm-1": CONFIRM, "name-1": NAME}))
    assert isinstance(again, InputNeeded) and [q.key for q in again.pending.questions] == ["name-1"]
    loop.update_params({"name-1": {"action": "accept", "content": {"name": "Ada"}}})
    # Everything listed was answered: wait for the server rather than ask anything.
    assert isinstance(loop.receive(task("input_required", inputRequests={"name-1": NAME})), Poll)


def test_the_tasks_request_state_is_echoed_exactly_and_the_latest_wins() -> None:
    odd = ' {"a": 1} ==\n'
    loop = TaskLoop({**CREATED, "requestState": odd}, call())
    assert loop.params() == {"taskId": "t-1", "requestState": odd}
    loop.receive(task("working", requestState="second"))
    assert loop.params()["requestState"] == "second"
    loop.receive(task("working"))  # no new state: the last one stays
    assert loop.update_params({})["requestState"] == "second"


def test_how_a_task_ends() -> None:
    loop = TaskLoop(CREATED, call())
    result = {"resultType": "complete", "content": [{"type": "text", "text": "deleted 3"}], "isError": False}
    assert loop.receive(task("completed", result=result)) == Done(result)
    failed = {"code": -32603, "message": "the job broke"}
    with pytest.raises(TaskFailed, match="the job broke") as raised:
        TaskLoop(CREATED, call()).receive(task("failed", error=failed))
    assert raised.value.code == -32603 and raised.value.task_id == "t-1"
    with pytest.raises(TaskCancelled, match="stopped by the operator"):
        TaskLoop(CREATED, call()).receive(task("cancelled", statusMessage="stopped by the operator"))


@pytest.mark.parametrize(
    "bad",
    [
        "not an object",
        task("sleeping"),
        task("completed"),  # no result
        task("completed", result=[1]),
        task("input_required"),  # no inputRequests
        task("input_required", inputRequests={"k": {"method": "nonsense"}}),
        {**task("working"), "taskId": "another"},
    ],
)
def test_a_malformed_task_is_a_protocol_error(bad: Any) -> None:
    with pytest.raises(ProtocolError):
        TaskLoop(CREATED, call()).receive(bad)


def test_a_created_task_without_an_id_is_a_protocol_error() -> None:
    with pytest.raises(ProtocolError, match="taskId"):
        TaskLoop({"resultType": "task", "status": "working"}, call())


def test_a_tasks_questions_count_against_max_rounds() -> None:
    loop = TaskLoop(CREATED, call(rounds=1), limits=Limits(max_rounds=2))
    loop.receive(task("input_required", inputRequests={"a": NAME}))
    with pytest.raises(TooManyRounds) as raised:
        loop.receive(task("input_required", inputRequests={"b": NAME}))
    assert raised.value.pending is not None and raised.value.pending.task_id == "t-1"


def test_status_changes_are_reported_once() -> None:
    loop = TaskLoop(CREATED, call())
    assert loop.changed is not None and loop.changed.status == "working"
    loop.receive(task("working"))
    assert loop.changed is None
    loop.receive(task("working", statusMessage="3 of 10 files"))
    assert loop.changed is not None and loop.changed.message == "3 of 10 files"


def test_a_pending_task_round_trips_as_version_2_and_version_1_readers_are_protected(tmp_path: Any) -> None:
    loop = TaskLoop({**CREATED, "requestState": "s1"}, call())
    step = loop.receive(task("input_required", inputRequests={"confirm-1": CONFIRM}))
    assert isinstance(step, InputNeeded)
    path = step.pending.save(tmp_path / "p.json")
    data = path.read_text()
    assert '"version": 2' in data and '"taskId": "t-1"' in data
    back = Pending.load(path)
    assert back.task_id == "t-1" and back.request_state == "s1" and [q.key for q in back.questions] == ["confirm-1"]
    plain = call().to_json()
    assert plain["version"] == 1 and "taskId" not in plain
    with pytest.raises(PendingFileError, match="taskId"):
        Pending.from_json({**back.to_json(), "taskId": None})
    with pytest.raises(PendingFileError, match="version 2"):
        Pending.from_json({**plain, "taskId": "t-1"})
