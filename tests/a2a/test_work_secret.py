"""`work.ask(text, secret=True)` over A2A, on real loopback HTTP: a step on askback's page, never a form.

The task is `TASK_STATE_AUTH_REQUIRED` with the page's link, as a Secret parameter's page step is; the person
enters the value on the page (driven here with plain HTTP, as a browser would); the client's next message lets
the task go on, and the function receives the value as `askback.Secret`. No response, task, artifact, record or
log line carries it. A decline of the link, or a refusal on the page, is `askback.Declined` in the function,
and the task ends canceled with the refusal, as any other declined question of the work does on A2A.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from a2a.types import a2a_pb2 as pb

import askback
from askback.mcp.http import http_app
from askback.tasks.record import TaskRecords
from tests.a2a.support import Agent, extension_meta, message, state, status_parts
from tests.a2a.test_auth import page_url, submit

KEY = base64.urlsafe_b64encode(bytes(range(72, 104))).decode().rstrip("=")
SECRET = "sk_live_A2Aw0rkS3cret_7Hq2LmZp"
ALICE = {"x-user": "alice"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def rotating(tmp_path: Path, seen: list[Any]) -> askback.App:
    app = askback.App("a2a-work-secret", keys=KEY, store=f"sqlite:///{tmp_path / 'store.sqlite3'}",
                      principal=lambda r: r.headers.get("x-user"))

    @app.tool(task="optional")
    async def rotate(work: askback.Work) -> str:
        """Rotates a key, asking for the new one."""
        seen.append("started")
        try:
            key = await work.ask("your new API key", secret=True)
        except askback.Declined as exc:
            seen.append(("declined", exc.action))
            raise
        seen.append(key)
        return f"rotated ({len(key.reveal())} characters)"

    return app


async def record_of(tmp_path: Path, task_id: str) -> str:
    """The runner's record of the task as the store keeps it, opened with the server's keys."""
    reader = askback.App("a2a-work-secret", keys=KEY, store=f"sqlite:///{tmp_path / 'store.sqlite3'}")
    runtime = await reader.start()
    try:
        records = TaskRecords(runtime.store, runtime.codec.keyring, runtime.audience, runtime.clock, "a2a")
        return repr(await records.read(task_id, "alice"))
    finally:
        await reader.stop()


def sdk_rows() -> str:
    with sqlite3.connect(Path(os.environ["ASKBACK_DATA_DIR"]) / "a2a-tasks.db") as conn:
        return repr(conn.execute("select * from tasks").fetchall())


@pytest.mark.anyio
async def test_the_secret_entered_on_the_page_reaches_the_function_and_nothing_else(
    serve_agent: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    seen: list[Any] = []
    shown: list[str] = []
    with caplog.at_level(logging.DEBUG):
        async with Agent(serve_agent(rotating(tmp_path, seen)), headers=ALICE) as agent:
            task = await agent.call("rotate")
            assert state(task) == "TASK_STATE_AUTH_REQUIRED", status_parts(task)
            assert extension_meta(task)["kind"] == "auth"
            url = page_url(task)
            text, data = status_parts(task)
            assert "/askback/p/" in url and url in text and "API key" in text
            assert all(media != "application/schema+json" for media, _ in data)  # never a form
            early = await agent.answer(task, {"action": "accept"})  # before the page: still waiting, said so
            assert state(early) == "TASK_STATE_AUTH_REQUIRED" and page_url(early) == url
            assert "not finished yet" in status_parts(early)[0]
            posted = await asyncio.to_thread(submit, url, value=SECRET, decision="submit")
            assert posted.status_code == 200 and "Received" in posted.text
            done = await agent.send(message(text="done", task=task))
            assert state(done) == "TASK_STATE_COMPLETED", status_parts(done)
            assert done.artifacts[0].parts[0].text == f"rotated ({len(SECRET)} characters)"
            shown += [repr(t) for t in (task, early, done, await agent.get(task.id))]
    assert seen[0] == "started" and isinstance(seen[1], askback.Secret) and seen[1].reveal() == SECRET
    assert all(SECRET not in s for s in shown) and SECRET not in posted.text
    assert SECRET not in sdk_rows()
    assert SECRET not in await record_of(tmp_path, task.id)
    assert all(SECRET not in record.getMessage() for record in caplog.records)


@pytest.mark.anyio
async def test_over_a_stream_the_task_goes_on_by_itself_once_the_page_is_done(
    serve_agent: Any, tmp_path: Path,
) -> None:
    seen: list[Any] = []
    states: list[str] = []
    artifacts: list[str] = []
    async with Agent(serve_agent(rotating(tmp_path, seen)), headers=ALICE, streaming=True) as agent:
        async for event in agent.stream(message({"tool": "rotate", "arguments": {}})):
            if event.HasField("status_update"):
                states.append(pb.TaskState.Name(event.status_update.status.state))
                if states[-1] == "TASK_STATE_AUTH_REQUIRED":
                    shown = pb.Task(status=pb.TaskStatus(message=event.status_update.status.message))
                    posted = await asyncio.to_thread(submit, page_url(shown), value=SECRET, decision="submit")
                    assert posted.status_code == 200
            if event.HasField("artifact_update"):
                artifacts += [p.text for p in event.artifact_update.artifact.parts]
    assert states.count("TASK_STATE_AUTH_REQUIRED") == 1 and states[-1] == "TASK_STATE_COMPLETED", states
    assert artifacts == [f"rotated ({len(SECRET)} characters)"]
    assert isinstance(seen[1], askback.Secret) and seen[1].reveal() == SECRET


@pytest.mark.anyio
async def test_a_declined_link_is_declined_in_the_function_and_the_task_ends_canceled(
    serve_agent: Any, tmp_path: Path,
) -> None:
    seen: list[Any] = []
    async with Agent(serve_agent(rotating(tmp_path, seen)), headers=ALICE) as agent:
        task = await agent.call("rotate")
        assert state(task) == "TASK_STATE_AUTH_REQUIRED"
        task = await agent.answer(task, {"action": "decline"})
        assert state(task) == "TASK_STATE_CANCELED", status_parts(task)
        text, data = status_parts(task)
        assert "declined" in text and data[0][1]["outcome"] == "declined"
    assert seen == ["started", ("declined", "decline")]


@pytest.mark.anyio
async def test_a_refusal_on_the_page_is_declined_in_the_function(serve_agent: Any, tmp_path: Path) -> None:
    seen: list[Any] = []
    async with Agent(serve_agent(rotating(tmp_path, seen)), headers=ALICE) as agent:
        task = await agent.call("rotate")
        posted = await asyncio.to_thread(submit, page_url(task), decision="reject")
        assert posted.status_code == 200 and "Nothing was sent" in posted.text
        task = await agent.send(message(text="done", task=task))
        assert state(task) == "TASK_STATE_CANCELED", status_parts(task)
        assert "declined" in status_parts(task)[0]
    assert seen == ["started", ("declined", "decline")]


@pytest.mark.anyio
async def test_the_link_is_kept_for_the_same_task_and_only_its_principal(serve_agent: Any, tmp_path: Path) -> None:
    seen: list[Any] = []
    base = serve_agent(rotating(tmp_path, seen))
    async with Agent(base, headers=ALICE) as alice, Agent(base, headers={"x-user": "bob"}) as bob:
        task = await alice.call("rotate")
        with pytest.raises(Exception, match="not found"):
            await bob.answer(task, {"action": "decline"})
        again = await alice.answer(task, {"page": "what?"})
        assert state(again) == "TASK_STATE_AUTH_REQUIRED" and page_url(again) == page_url(task)
    assert seen == ["started"]


@pytest.mark.anyio
async def test_without_pages_served_the_secret_is_unavailable_saying_why(
    serve: Callable[[Any], str], tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    seen: list[Any] = []
    app = rotating(tmp_path, seen)
    # Bound for other machines without page_auth: a page would check nobody, so none is served (said once).
    with caplog.at_level(logging.WARNING):
        served = http_app(app, host="0.0.0.0", allowed_hosts=["127.0.0.1:*"])
    assert app.pages_served is False and "pages are not served" in caplog.text
    async with Agent(serve(served).removesuffix("/mcp"), headers=ALICE) as agent:
        task = await agent.call("rotate")
        assert state(task) not in ("TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"), state(task)
        text = status_parts(task)[0]
        assert "does not serve askback's pages" in text and "already started" in text, text
        assert "retry" not in text.lower()
    assert seen == ["started"]


@pytest.mark.anyio
async def test_a_task_waiting_for_the_page_over_a_stream_can_be_cancelled(serve_agent: Any, tmp_path: Path) -> None:
    seen: list[Any] = []
    base = serve_agent(rotating(tmp_path, seen))
    async with Agent(base, headers=ALICE, streaming=True) as streamer, Agent(base, headers=ALICE) as other:
        task_id = ""
        async for event in streamer.stream(message({"tool": "rotate", "arguments": {}})):
            if event.HasField("status_update") and event.status_update.status.state == pb.TASK_STATE_AUTH_REQUIRED:
                task_id = event.status_update.task_id
                cancelled = await other._client.cancel_task(pb.CancelTaskRequest(id=task_id))
                assert state(cancelled) == "TASK_STATE_CANCELED"
                break
        final = await other.get(task_id)
        assert state(final) == "TASK_STATE_CANCELED" and not final.artifacts
    assert seen == ["started"]
