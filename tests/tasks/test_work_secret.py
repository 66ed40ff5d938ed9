"""`work.ask(text, secret=True)` on an MCP task, over real loopback HTTP: a step on askback's page.

The task's question is a page link (URL mode), never a form; the person enters the value on the page (driven
here with plain HTTP, as a browser would); the function receives it as `askback.Secret`, and neither the task
record nor any response carries it. A client without URL elicitation gets -32021; a refusal on the page or of
the link is `askback.Declined` in the function, as for any other question of its work.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

import askback
from askback.mcp.http import http_app
from askback.tasks.record import TaskRecords
from tests.tasks.wire import EXTENSION, TaskClient

KEY = base64.urlsafe_b64encode(bytes(range(40, 72))).decode().rstrip("=")
SECRET = "sk_live_9fQ27WkdLpXzR4vTnB8cYh3e"
WITH_PAGES: dict[str, Any] = {"elicitation": {"form": {}, "url": {}}, "extensions": {EXTENSION: {}}}
FORMS_ONLY: dict[str, Any] = {"elicitation": {"form": {}}, "extensions": {EXTENSION: {}}}


def rotating(tmp_path: Path, seen: list[Any]) -> askback.App:
    app = askback.App("work-secret-tests", keys=KEY, store=f"sqlite:///{tmp_path / 'store.sqlite3'}",
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


def record_of(app_path: Path, task_id: str) -> str:
    """The task's record as the store keeps it, opened with the server's keys (a second process would)."""
    reader = askback.App("work-secret-tests", keys=KEY, store=f"sqlite:///{app_path / 'store.sqlite3'}")

    async def read() -> str:
        runtime = await reader.start()
        try:
            records = TaskRecords(runtime.store, runtime.codec.keyring, runtime.audience, runtime.clock, "mcp")
            return repr(await records.read(task_id, "alice"))
        finally:
            await reader.stop()

    return asyncio.run(read())


def page_link(task: dict[str, Any]) -> tuple[str, str]:
    (key, request), = task["inputRequests"].items()
    assert request["method"] == "elicitation/create" and request["params"]["mode"] == "url", request
    assert "requestedSchema" not in request["params"]  # never a form
    return key, str(request["params"]["url"])


def submit(url: str, **form: str) -> httpx.Response:
    with httpx.Client() as browser:
        page = browser.get(url)
        assert page.status_code == 200, page.text
        token = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert token is not None
        return browser.post(url, data={"csrf": token.group(1), **form})


def test_the_secret_entered_on_the_page_reaches_the_function_and_nothing_else(
    serve: Callable[[askback.App], str], tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    seen: list[Any] = []
    bodies: list[dict[str, Any]] = []
    client = TaskClient(serve(rotating(tmp_path, seen)), WITH_PAGES, headers={"x-user": "alice"})
    with caplog.at_level(logging.DEBUG):
        created = client.call("rotate", {})
        task_id = created["result"]["taskId"]
        parked = client.wait(task_id, "input_required")
        key, url = page_link(parked)
        assert "/askback/p/" in url and "API key" in parked["inputRequests"][key]["params"]["message"]
        bodies += [created, parked, client.update(task_id, {key: {"action": "accept"}})]
        waiting = client.get(task_id)["result"]  # the link was accepted: nothing to answer again, the page is open
        assert waiting["status"] == "working" and "inputRequests" not in waiting, waiting
        posted = submit(url, value=SECRET, decision="submit")
        assert posted.status_code == 200 and "Received" in posted.text
        done = client.wait(task_id)
        bodies += [waiting, done]
    assert done["status"] == "completed", done
    assert done["result"]["content"][0]["text"] == f"rotated ({len(SECRET)} characters)"
    assert seen[0] == "started" and isinstance(seen[1], askback.Secret) and seen[1].reveal() == SECRET
    assert all(SECRET not in json.dumps(body) for body in bodies) and SECRET not in posted.text
    assert SECRET not in record_of(tmp_path, task_id)
    assert all(SECRET not in record.getMessage() for record in caplog.records)
    assert submit_again(url).status_code == 410  # the link is spent: the value was taken once


def submit_again(url: str) -> httpx.Response:
    with httpx.Client() as browser:
        return browser.get(url)


def test_the_page_is_enough_even_before_the_client_answers_the_link(
    serve: Callable[[askback.App], str], tmp_path: Path,
) -> None:
    seen: list[Any] = []
    client = TaskClient(serve(rotating(tmp_path, seen)), WITH_PAGES, headers={"x-user": "alice"})
    task_id = client.call("rotate", {})["result"]["taskId"]
    _, url = page_link(client.wait(task_id, "input_required"))
    submit(url, value=SECRET, decision="submit")
    done = client.wait(task_id)
    assert done["status"] == "completed" and "inputRequests" not in done, done
    assert seen[1].reveal() == SECRET


def test_a_refusal_on_the_page_is_declined_in_the_function(
    serve: Callable[[askback.App], str], tmp_path: Path,
) -> None:
    seen: list[Any] = []
    client = TaskClient(serve(rotating(tmp_path, seen)), WITH_PAGES, headers={"x-user": "alice"})
    task_id = client.call("rotate", {})["result"]["taskId"]
    key, url = page_link(client.wait(task_id, "input_required"))
    client.update(task_id, {key: {"action": "accept"}})
    posted = submit(url, decision="reject")
    assert posted.status_code == 200 and "Nothing was sent" in posted.text
    done = client.wait(task_id)
    assert seen == ["started", ("declined", "decline")]
    assert done["status"] == "completed" and "was declined" in done["result"]["content"][0]["text"], done


def test_a_declined_link_is_declined_in_the_function(
    serve: Callable[[askback.App], str], tmp_path: Path,
) -> None:
    seen: list[Any] = []
    client = TaskClient(serve(rotating(tmp_path, seen)), WITH_PAGES, headers={"x-user": "alice"})
    task_id = client.call("rotate", {})["result"]["taskId"]
    key, _ = page_link(client.wait(task_id, "input_required"))
    client.update(task_id, {key: {"action": "cancel"}})
    done = client.wait(task_id)
    assert seen == ["started", ("declined", "cancel")]
    assert done["status"] == "completed" and "was cancelled" in done["result"]["content"][0]["text"], done


def test_a_client_without_url_elicitation_gets_32021_and_never_a_form(
    serve: Callable[[askback.App], str], tmp_path: Path,
) -> None:
    seen: list[Any] = []
    client = TaskClient(serve(rotating(tmp_path, seen)), FORMS_ONLY, headers={"x-user": "alice"})
    task_id = client.call("rotate", {})["result"]["taskId"]
    done = client.wait(task_id)
    assert "inputRequests" not in done  # no form was put to the client
    assert done["status"] == "failed" and done["error"]["code"] == -32021, done
    assert done["error"]["data"]["requiredCapabilities"] == {"elicitation": {"url": {}}}
    assert "already started" in done["error"]["message"] and "Nothing was done" not in done["error"]["message"]
    assert seen == ["started"]


def test_without_pages_served_the_secret_is_unavailable_saying_why(
    serve: Callable[[Any], str], tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    seen: list[Any] = []
    app = rotating(tmp_path, seen)
    # Bound for other machines without page_auth: a page would check nobody, so none is served (said once).
    with caplog.at_level(logging.WARNING):
        served = http_app(app, host="0.0.0.0", allowed_hosts=["127.0.0.1:*"])
    assert app.pages_served is False and "pages are not served" in caplog.text
    client = TaskClient(serve(served), WITH_PAGES, headers={"x-user": "alice"})
    task_id = client.call("rotate", {})["result"]["taskId"]
    done = client.wait(task_id)
    assert "inputRequests" not in done and done["status"] == "completed", done
    text = done["result"]["content"][0]["text"]
    assert done["result"]["isError"] is True and "does not serve askback's pages" in text
    assert "already started" in text and "askback.Secret" in text and "retry" not in text.lower()
    assert seen == ["started"]


def test_a_task_waiting_for_the_page_can_be_cancelled_and_the_page_is_then_useless(
    serve: Callable[[askback.App], str], tmp_path: Path,
) -> None:
    seen: list[Any] = []
    client = TaskClient(serve(rotating(tmp_path, seen)), WITH_PAGES, headers={"x-user": "alice"})
    task_id = client.call("rotate", {})["result"]["taskId"]
    key, url = page_link(client.wait(task_id, "input_required"))
    client.update(task_id, {key: {"action": "accept"}})
    assert client.get(task_id)["result"]["status"] == "working"
    client.cancel(task_id)
    assert client.wait(task_id)["status"] == "cancelled"
    submit(url, value=SECRET, decision="submit")  # entered too late: nobody takes it
    assert seen == ["started"]
