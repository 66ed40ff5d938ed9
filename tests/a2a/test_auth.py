"""AUTH_REQUIRED: secrets and out-of-band approvals are completed on askback's page; the task continues on the
client's next message, or on its own over a stream when the page step completes."""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
from pathlib import Path
from typing import Annotated, Any

import httpx
import pytest
from a2a.types import a2a_pb2 as pb
from a2a.utils.errors import A2AError

import askback
from askback.demo import app as demo_app
from tests.a2a.support import Agent, extension_meta, message, result_data, state, status_parts

SECRET = "sk-live-Pa55phrase-0123456789"
IBAN = "DE44500105175407324931"
EVERYDAY = "DE89370400440532013000"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def submit(url: str, **form: str) -> httpx.Response:
    with httpx.Client() as browser:
        page = browser.get(url)
        assert page.status_code == 200, page.text
        token = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert token is not None
        return browser.post(url, data={"csrf": token.group(1), **form})


def page_url(task: pb.Task) -> str:
    pages = extension_meta(task)["pages"]
    assert len(pages) == 1, pages
    return str(pages[0]["url"])


def vault_app(runs: list[Any]) -> askback.App:
    app = askback.App("vault")

    @app.tool()
    def connect(bank: str, api_key: Annotated[askback.Secret, askback.Ask("the API key of {bank}")]) -> str:
        runs.append(api_key.reveal())
        return f"connected {bank}"

    return app


@pytest.mark.anyio
async def test_a_secret_page_then_the_next_message_completes_the_task(serve_agent: Any) -> None:
    runs: list[Any] = []
    seen: list[str] = []
    async with Agent(serve_agent(vault_app(runs))) as agent:
        task = await agent.call("connect", bank="Acme")
        assert state(task) == "TASK_STATE_AUTH_REQUIRED"
        url = page_url(task)
        assert "/askback/p/" in url and url in status_parts(task)[0]
        again = await agent.answer(task, {})  # before the page: still waiting, said so, never an error
        assert state(again) == "TASK_STATE_AUTH_REQUIRED" and page_url(again) == url
        assert "not finished yet" in status_parts(again)[0]
        posted = await asyncio.to_thread(submit, url, value=SECRET, decision="submit")
        assert posted.status_code == 200
        done = await agent.send(message(text="done", task=task))
        assert state(done) == "TASK_STATE_COMPLETED"
        assert done.artifacts[0].parts[0].text == "connected Acme"
        seen += [repr(t) for t in (task, again, done)]
    assert runs == [SECRET]
    assert all(SECRET not in s for s in seen)
    with sqlite3.connect(Path(os.environ["ASKBACK_DATA_DIR"]) / "a2a-tasks.db") as conn:
        assert SECRET not in repr(conn.execute("select * from tasks").fetchall())


@pytest.mark.anyio
async def test_declining_the_page_ends_the_task_without_running(serve_agent: Any) -> None:
    runs: list[Any] = []
    async with Agent(serve_agent(vault_app(runs))) as agent:
        task = await agent.call("connect", bank="Acme")
        task = await agent.answer(task, {"action": "decline"})
        assert state(task) == "TASK_STATE_CANCELED" and "declined" in status_parts(task)[0]
    assert runs == []


@pytest.mark.anyio
async def test_an_approval_over_a_stream_continues_on_its_own_when_the_page_completes(serve_agent: Any) -> None:
    base = serve_agent(demo_app)
    states: list[str] = []
    async with Agent(base, streaming=True) as agent:
        first = message({"tool": "transfer", "arguments": {"amount": 5000, "to": IBAN, "from_account": EVERYDAY}})
        final = None
        async for event in agent.stream(first):
            if event.HasField("status_update"):
                states.append(pb.TaskState.Name(event.status_update.status.state))
                if states[-1] == "TASK_STATE_AUTH_REQUIRED":
                    meta = event.status_update.status.message
                    task = pb.Task(status=pb.TaskStatus(message=meta))
                    assert "Send 5000 EUR" in (await asyncio.to_thread(httpx.get, page_url(task))).text
                    assert (await asyncio.to_thread(submit, page_url(task), decision="approve")).status_code == 200
            if event.HasField("artifact_update"):
                final = event.artifact_update.artifact
    assert states[-2:] == ["TASK_STATE_AUTH_REQUIRED", "TASK_STATE_COMPLETED"]
    assert final is not None and '"amount": "5000"' in final.parts[0].text


@pytest.mark.anyio
async def test_a_message_sent_while_a_stream_waits_never_reopens_the_finished_task(serve_agent: Any) -> None:
    base = serve_agent(demo_app)
    async with Agent(base, streaming=True) as streamer, Agent(base) as other:
        first = message({"tool": "transfer", "arguments": {"amount": 5000, "to": IBAN, "from_account": EVERYDAY}})
        late: asyncio.Task[Any] | None = None
        states = []
        async for event in streamer.stream(first):
            if event.HasField("status_update"):
                states.append(pb.TaskState.Name(event.status_update.status.state))
                if states[-1] == "TASK_STATE_AUTH_REQUIRED" and late is None:
                    status = event.status_update
                    task = pb.Task(id=status.task_id, context_id=status.context_id,
                                   status=pb.TaskStatus(message=status.status.message))
                    late = asyncio.create_task(_outcome(other.answer(task, {"confirm": True})))
                    await asyncio.sleep(0.3)  # the message waits behind the stream's page step
                    await asyncio.to_thread(submit, page_url(task), decision="approve")
        assert states[-1] == "TASK_STATE_COMPLETED"
        assert late is not None
        outcome = await late
        # The page step finished the task while the message waited: a clear error, never a silent success.
        assert isinstance(outcome, str) and "was not applied" in outcome, outcome
        task_now = await other.get(task.id)
        assert state(task_now) == "TASK_STATE_COMPLETED" and len(task_now.artifacts) == 1
        assert "reference" in result_data(task_now)


async def _outcome(call: Any) -> pb.Task | str:
    try:
        return await call
    except A2AError as exc:
        return str(exc)


@pytest.mark.anyio
async def test_a_task_waiting_on_a_page_over_a_stream_can_be_cancelled(serve_agent: Any) -> None:
    base = serve_agent(demo_app)
    async with Agent(base, streaming=True) as streamer, Agent(base) as other:
        first = message({"tool": "transfer", "arguments": {"amount": 5000, "to": IBAN, "from_account": EVERYDAY}})
        states = []
        async for event in streamer.stream(first):
            if event.HasField("status_update"):
                states.append(pb.TaskState.Name(event.status_update.status.state))
                if states[-1] == "TASK_STATE_AUTH_REQUIRED":
                    task_id = event.status_update.task_id
                    cancelled = await other._client.cancel_task(pb.CancelTaskRequest(id=task_id))
                    assert state(cancelled) == "TASK_STATE_CANCELED"
                    break
        final = await other.get(task_id)
        assert state(final) == "TASK_STATE_CANCELED" and not final.artifacts
