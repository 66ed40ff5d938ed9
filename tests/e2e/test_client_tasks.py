"""`askback.Client` following a task over real loopback HTTP: what goes over the wire, checked on a scripted server.

The mock records every request, so the rules of the tasks extension are checked on what was sent: the extension
declared in the request's capabilities, `tasks/get` polled with `Mcp-Name: <taskId>`, the task's questions put
to the answerer once and sent with `tasks/update`, the task's `requestState` echoed exactly, `tasks/cancel` sent
when the call is interrupted — and never when it only stops to be resumed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from starlette.types import ASGIApp

import askback
from askback.client import (
    CallableAnswerer,
    Client,
    DeadlineExceeded,
    FileAnswerer,
    Later,
    Pending,
    Postponed,
    TaskCancelled,
    TaskFailed,
)
from askback.types import Capabilities
from tests.support.mcpmock import Mock, form, text

pytestmark = pytest.mark.anyio
Serve = Callable[[askback.App | ASGIApp], str]
TASKS = "io.modelcontextprotocol/tasks"
CONFIRM = form("Delete these 3 files?", confirm={"type": "boolean"})
ODD_STATE = ' {"node": "a b"} ==\n'


def created(task_id: str = "task-7", **extra: Any) -> dict[str, Any]:
    return {"resultType": "task", "taskId": task_id, "status": "working", "createdAt": "2026-12-01T10:00:00Z",
            "lastUpdatedAt": "2026-12-01T10:00:00Z", "ttlMs": 60_000, "pollIntervalMs": 50, **extra}


def status(state: str, task_id: str = "task-7", **extra: Any) -> dict[str, Any]:
    return {"resultType": "complete", "taskId": task_id, "status": state, "createdAt": "2026-12-01T10:00:00Z",
            "lastUpdatedAt": "2026-12-01T10:00:01Z", "ttlMs": 60_000, "pollIntervalMs": 50, **extra}


class Job:
    """A scripted task: working, then asks CONFIRM, then completes with what was answered."""

    def __init__(self, *, state: str | None = None) -> None:
        self.answer: Any = None
        self.cancelled = False
        self.state = state

    def mock(self) -> Mock:
        extra = {"requestState": self.state} if self.state is not None else {}
        return Mock(
            {"cleanup": lambda p, n: created(**extra)},
            methods={"tasks/get": self.get, "tasks/update": self.update, "tasks/cancel": self.cancel},
        )

    def get(self, params: dict[str, Any], number: int) -> dict[str, Any]:
        if params.get("taskId") != "task-7":
            return {"error": {"code": -32602, "message": "unknown task"}}
        if self.cancelled:
            return status("cancelled", statusMessage="cancelled by the client")
        if self.answer is None:
            if number == 1:
                return status("working", statusMessage="found 3 stale files")
            return status("input_required", inputRequests={"confirm-1": CONFIRM})
        confirmed = self.answer.get("content", {}).get("confirm")
        return status("completed", result=text(f"deleted 3 files: {confirmed}"))

    def update(self, params: dict[str, Any], number: int) -> dict[str, Any]:
        self.answer = params["inputResponses"].get("confirm-1")
        return {"resultType": "complete"}

    def cancel(self, params: dict[str, Any], number: int) -> dict[str, Any]:
        self.cancelled = True
        return {"resultType": "complete"}


async def test_a_task_is_followed_to_its_result_with_its_question_answered_once(serve: Serve) -> None:
    job = Job(state=ODD_STATE)
    mock = job.mock()
    asked: list[str] = []

    def answer(question: askback.client.Question) -> Any:
        asked.append(question.key)
        return True

    async with Client(serve(mock.app()), answerer=CallableAnswerer(answer)) as client:
        result = await client.call_tool("cleanup", {"folder": "/tmp/x"})
    assert result.content[0].text == "deleted 3 files: True"  # type: ignore[union-attr]
    assert asked == ["confirm-1"]
    call = mock.calls("cleanup")[0]
    assert call.params["_meta"]["io.modelcontextprotocol/clientCapabilities"]["extensions"] == {TASKS: {}}
    assert len(mock.calls("cleanup")) == 1  # the tool is called once; the rest is the task's own methods
    for sent in mock.of("tasks/get") + mock.of("tasks/update"):
        assert sent.headers["mcp-name"] == "task-7" and sent.headers["mcp-method"] == sent.method
        assert sent.params["taskId"] == "task-7" and sent.params["requestState"] == ODD_STATE
    (update,) = mock.of("tasks/update")
    assert update.params["inputResponses"] == {"confirm-1": {"action": "accept", "content": {"confirm": True}}}
    assert mock.of("tasks/cancel") == []


async def test_without_tasks_the_extension_is_not_declared(serve: Serve) -> None:
    mock = Mock({"t": lambda p, n: text("ok")})
    async with Client(serve(mock.app()), answerer=FileAnswerer({}), tasks=False) as client:
        await client.call_tool("t")
    assert mock.calls("t")[0].params["_meta"]["io.modelcontextprotocol/clientCapabilities"] == {
        "elicitation": {"form": {}}}


async def test_an_interrupted_call_cancels_its_task(serve: Serve) -> None:
    job = Job()
    mock = job.mock()

    async def never(question: askback.client.Question) -> Any:
        await anyio.sleep(30)

    async with Client(serve(mock.app()), answerer=CallableAnswerer(never)) as client:
        with anyio.move_on_after(1.0):  # the caller gives up (as Ctrl-C does) while the person is being asked
            await client.call_tool("cleanup")
    (cancel,) = mock.of("tasks/cancel")
    assert cancel.params["taskId"] == "task-7" and cancel.headers["mcp-name"] == "task-7"


async def test_a_failed_answerer_cancels_the_task(serve: Serve) -> None:
    mock = Job().mock()
    async with Client(serve(mock.app()), answerer=FileAnswerer({})) as client:
        with pytest.raises(askback.client.UnknownQuestion):
            await client.call_tool("cleanup")
    assert len(mock.of("tasks/cancel")) == 1


async def test_a_deadline_ends_the_wait_not_the_task_and_resume_follows_it(serve: Serve, tmp_path: Path) -> None:
    job = Job()
    mock = job.mock()
    mock.methods["tasks/get"] = lambda p, n: status("working", statusMessage=f"poll {n}")
    url = serve(mock.app())
    async with Client(url, answerer=CallableAnswerer(lambda q: True), timeout=0.5) as client:
        with pytest.raises(DeadlineExceeded) as raised:
            await client.call_tool("cleanup")
    pending = raised.value.pending
    assert pending is not None and pending.task_id == "task-7"
    assert mock.of("tasks/cancel") == []  # the task goes on at the server
    saved = Pending.load(pending.save(tmp_path / "task.json"))
    mock.methods["tasks/get"] = job.get
    async with Client(url, answerer=CallableAnswerer(lambda q: False)) as client:
        result = await client.resume(saved)
    assert result.content[0].text == "deleted 3 files: False"  # type: ignore[attr-defined]
    assert len(mock.calls("cleanup")) == 1  # resuming a task never calls the tool again


async def test_postponed_task_questions_are_saved_and_answered_on_resume(serve: Serve, tmp_path: Path) -> None:
    job = Job()
    mock = job.mock()
    url = serve(mock.app())
    async with Client(url, answerer=Later(Capabilities(form=True))) as client:
        with pytest.raises(Postponed) as raised:
            await client.call_tool("cleanup")
    pending = raised.value.pending
    assert pending is not None and pending.task_id == "task-7"
    assert [q.key for q in pending.questions] == ["confirm-1"]
    assert mock.of("tasks/cancel") == [] and mock.of("tasks/update") == []
    saved = Pending.load(pending.save(tmp_path / "task.json"))
    async with Client(url, answerer=FileAnswerer({"confirm": True})) as client:
        result = await client.resume(saved)
    assert result.content[0].text == "deleted 3 files: True"  # type: ignore[attr-defined]
    assert len(mock.of("tasks/update")) == 1 and len(mock.calls("cleanup")) == 1


async def test_a_failed_or_cancelled_task_ends_the_call_with_its_reason(serve: Serve) -> None:
    failing = Mock({"job": lambda p, n: created()}, methods={
        "tasks/get": lambda p, n: status("failed", error={"code": -32603, "message": "disk \x1b[2J full"})})
    async with Client(serve(failing.app()), answerer=FileAnswerer({})) as client:
        with pytest.raises(TaskFailed, match="disk") as raised:
            await client.call_tool("job")
    assert raised.value.code == -32603
    cancelled = Mock({"job": lambda p, n: created()}, methods={
        "tasks/get": lambda p, n: status("cancelled", statusMessage="stopped by an operator")})
    async with Client(serve(cancelled.app()), answerer=FileAnswerer({})) as client:
        with pytest.raises(TaskCancelled, match="stopped by an operator"):
            await client.call_tool("job")
    assert failing.of("tasks/cancel") == [] and cancelled.of("tasks/cancel") == []


async def test_status_changes_reach_an_answerer_that_watches(serve: Serve) -> None:
    job = Job()
    mock = job.mock()
    seen: list[tuple[str, str | None]] = []

    class Watching(CallableAnswerer):
        def task_status(self, task_id: str, state: str, message: str | None) -> None:
            seen.append((state, message))

    async with Client(serve(mock.app()), answerer=Watching(lambda q: True)) as client:
        await client.call_tool("cleanup")
    assert seen == [("working", None), ("working", "found 3 stale files"), ("input_required", None),
                    ("completed", None)]
