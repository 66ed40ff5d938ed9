"""Questions during the work over A2A: a tool taking `askback.Work` runs on the task runner MCP tasks use.

The values missing before the work are asked as for any tool; then the function runs, and each question it
asks is a `TASK_STATE_INPUT_REQUIRED` status with the same text part and schema data part as every other A2A
question; the client's next message on the task answers it (validated as on MCP: an invalid answer is asked
again, saying why). `work.status` texts are `TASK_STATE_WORKING` messages; completion is the artifact, an
exception `TASK_STATE_FAILED` (nothing of it shown), `CancelTask` the runner's cooperative cancel.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

import pytest
from a2a.types import a2a_pb2 as pb
from a2a.utils.errors import A2AError
from pydantic import Field

import askback
from tests.a2a.support import Agent, extension_meta, message, schema_of, state, status_parts

SECRET = "hunter2-in-a-stack-trace"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def work_app(runs: list[str], **kw: Any) -> askback.App:
    app = askback.App("ops", **kw)

    @app.tool(task="optional")
    async def clean(folder: Annotated[str, Field(description="Folder to clean")], work: askback.Work) -> str:
        """Finds stale files, then asks before deleting them."""
        runs.append(f"scan:{folder}")
        await work.status("Scanning {folder}", folder=folder)
        stale = [f"{folder}/old-{n}.log" for n in range(3)]
        if not await work.confirm("Delete these {n} files from {folder}?", n=len(stale), folder=folder):
            runs.append("kept")
            return f"Kept {len(stale)} files."
        runs.append(f"delete:{folder}")
        return f"Deleted {len(stale)} files from {folder}."

    @app.tool(task="optional")
    async def survey(work: askback.Work) -> dict[str, Any]:
        """Asks a value, then a choice."""
        days = await work.ask("How many days back?", Annotated[int, Field(ge=1, le=90)], field="days")
        keep = await work.choose("Which copy do we keep?", [askback.Option("a", "Copy A"),
                                                            askback.Option("b", "Copy B")])
        runs.append(f"survey:{days}:{keep}")
        return {"days": days, "keep": keep}

    @app.tool(task="optional")
    async def broken(work: askback.Work) -> str:
        """Raises after its first status."""
        await work.status("Starting")
        raise RuntimeError(f"database password {SECRET}")

    return app


def texts_of(task: pb.Task) -> str:
    return "\n".join(p.text for a in task.artifacts for p in a.parts if p.HasField("text"))


@pytest.mark.anyio
async def test_a_mid_work_confirmation_answered_yes_runs_the_rest_of_the_work(serve_agent: Any) -> None:
    runs: list[str] = []
    async with Agent(serve_agent(work_app(runs))) as agent:
        task = await agent.call("clean")  # the folder is missing: asked before the work starts
        assert list(schema_of(task)["properties"]) == ["folder"]
        assert runs == []
        task = await agent.answer(task, {"folder": "/data"})
        assert state(task) == "TASK_STATE_INPUT_REQUIRED", status_parts(task)
        text, _ = status_parts(task)
        assert text == "Delete these 3 files from /data?"
        schema = schema_of(task)
        assert schema["properties"]["confirm"]["type"] == "boolean" and schema["required"] == ["confirm"]
        assert extension_meta(task)["kind"] == "input"
        assert runs == ["scan:/data"]
        task = await agent.answer(task, {"confirm": True})
        assert state(task) == "TASK_STATE_COMPLETED", status_parts(task)
        assert texts_of(task) == "Deleted 3 files from /data."
    assert runs == ["scan:/data", "delete:/data"]


@pytest.mark.anyio
async def test_a_mid_work_confirmation_answered_no_keeps_the_files(serve_agent: Any) -> None:
    runs: list[str] = []
    async with Agent(serve_agent(work_app(runs))) as agent:
        task = await agent.call("clean", folder="/srv")
        assert status_parts(task)[0] == "Delete these 3 files from /srv?"
        task = await agent.answer(task, {"confirm": False})
        assert state(task) == "TASK_STATE_COMPLETED"
        assert texts_of(task) == "Kept 3 files."
    assert runs == ["scan:/srv", "kept"]


@pytest.mark.anyio
async def test_status_texts_are_working_messages_on_the_stream(serve_agent: Any) -> None:
    async with Agent(serve_agent(work_app([])), streaming=True) as agent:
        seen: list[tuple[str, str]] = []
        async for event in agent.stream(message({"tool": "clean", "arguments": {"folder": "/logs"}})):
            if event.HasField("status_update"):
                status = event.status_update.status
                text = "\n".join(p.text for p in status.message.parts if p.HasField("text"))
                seen.append((pb.TaskState.Name(status.state), text))
        assert ("TASK_STATE_WORKING", "Scanning /logs") in seen
        assert seen[-1] == ("TASK_STATE_INPUT_REQUIRED", "Delete these 3 files from /logs?")


@pytest.mark.anyio
async def test_an_invalid_answer_is_asked_again_saying_why_then_a_choice(serve_agent: Any) -> None:
    runs: list[str] = []
    async with Agent(serve_agent(work_app(runs))) as agent:
        task = await agent.call("survey")
        assert state(task) == "TASK_STATE_INPUT_REQUIRED"
        assert list(schema_of(task)["properties"]) == ["days"]
        task = await agent.answer(task, {"days": 500})
        assert state(task) == "TASK_STATE_INPUT_REQUIRED"
        assert list(schema_of(task)["properties"]) == ["days"]
        why = extension_meta(task)["reasons"]["days"]
        assert "less than or equal to 90" in why and why in status_parts(task)[0]
        task = await agent.answer(task, {"days": 7})
        assert [o["const"] for o in schema_of(task)["properties"]["choice"]["oneOf"]] == ["a", "b"]
        task = await agent.answer(task, {"choice": "z"})  # not one of the options: asked again
        assert "not one of the options" in extension_meta(task)["reasons"]["choice"]
        task = await agent.answer(task, {"choice": "b"})
        assert state(task) == "TASK_STATE_COMPLETED", status_parts(task)
    # 7 arrived as the double 7.0 and was coerced back to the int the question asked for.
    assert runs == ["survey:7:b"]


@pytest.mark.anyio
async def test_a_declined_mid_work_question_ends_the_task_canceled(serve_agent: Any) -> None:
    runs: list[str] = []
    async with Agent(serve_agent(work_app(runs))) as agent:
        task = await agent.call("survey")
        task = await agent.answer(task, {"action": "decline"})
        assert state(task) == "TASK_STATE_CANCELED"
        text, data = status_parts(task)
        assert "declined" in text and data[0][1]["outcome"] == "declined"
    assert runs == []


@pytest.mark.anyio
async def test_cancel_while_parked_stops_the_work_cooperatively(serve_agent: Any) -> None:
    runs: list[str] = []
    async with Agent(serve_agent(work_app(runs))) as agent:
        task = await agent.call("clean", folder="/tmp/x")
        assert state(task) == "TASK_STATE_INPUT_REQUIRED"
        cancelled = await agent._client.cancel_task(pb.CancelTaskRequest(id=task.id))
        assert state(cancelled) == "TASK_STATE_CANCELED"
        assert state(await agent.get(task.id)) == "TASK_STATE_CANCELED"
        with pytest.raises(A2AError):
            await agent.answer(task, {"confirm": True})
        await asyncio.sleep(0.3)  # a function that was not stopped would have carried on by now
    assert runs == ["scan:/tmp/x"]


@pytest.mark.anyio
async def test_an_exception_fails_the_task_without_showing_it(serve_agent: Any) -> None:
    async with Agent(serve_agent(work_app([]))) as agent:
        task = await agent.call("broken")
        assert state(task) == "TASK_STATE_FAILED"
        text, _ = status_parts(task)
        assert "broken failed with an internal error" in text
        assert SECRET not in str(task) and "RuntimeError" not in str(task)


def by_header(request: askback.Request) -> str | None:
    return request.headers.get("x-user")


@pytest.mark.anyio
async def test_only_the_principal_that_started_the_task_can_answer_it(serve_agent: Any) -> None:
    runs: list[str] = []
    base = serve_agent(work_app(runs, principal=by_header))
    async with Agent(base, headers={"x-user": "alice"}) as alice, Agent(base, headers={"x-user": "bob"}) as bob:
        task = await alice.call("clean", folder="/home/alice")
        assert state(task) == "TASK_STATE_INPUT_REQUIRED"
        with pytest.raises(A2AError, match="not found"):
            await bob.answer(task, {"confirm": True})
        with pytest.raises(A2AError, match="not found"):
            await bob.get(task.id)
        assert runs == ["scan:/home/alice"]
        task = await alice.answer(task, {"confirm": False})
        assert texts_of(task) == "Kept 3 files."


@pytest.mark.anyio
async def test_a_field_that_was_not_asked_is_named_and_the_question_asked_again(serve_agent: Any) -> None:
    runs: list[str] = []
    async with Agent(serve_agent(work_app(runs))) as agent:
        task = await agent.call("clean", folder="/data")
        task = await agent.answer(task, {"confrim": True})
        assert state(task) == "TASK_STATE_INPUT_REQUIRED"
        text, _ = status_parts(task)
        assert text.startswith("Not asked, so not used: confrim.") and "Delete these 3 files" in text
        assert list(schema_of(task)["properties"]) == ["confirm"]
        task = await agent.answer(task, {"confirm": True})
        assert texts_of(task) == "Deleted 3 files from /data."
    assert runs == ["scan:/data", "delete:/data"]
