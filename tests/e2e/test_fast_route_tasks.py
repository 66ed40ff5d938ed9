"""`tasks/get`, `tasks/update` and `tasks/cancel` answer the same on the fast route as on the SDK path.

A polled task is most of a task's requests (a client polls `tasks/get` until the task needs it), so the fast route
takes the well-formed ones; anything else it hands to the SDK path, which says what is wrong. The same script of
task requests goes over real loopback HTTP to two servers of the same app, one with the fast route off and one
with it on; every answer must be the same HTTP status and the same JSON, once what is legitimately different is
normalised (a task's id, and its timestamps). The counts prove which entry answered each request.
"""

from __future__ import annotations

import base64
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

import askback
from askback.mcp.fast import FastRoute
from askback.mcp.http import http_app
from tests.conftest import LoopbackServer
from tests.tasks import tasks_app

V = "2026-07-28"
EXTENSION = "io.modelcontextprotocol/tasks"
WITH_TASKS: dict[str, Any] = {"elicitation": {"form": {}}, "extensions": {EXTENSION: {}}}


def app() -> askback.App:
    fresh = askback.App("tasks-tests", principal=lambda r: r.headers.get("x-user"))
    for spec in tasks_app.app.tools.values():
        fresh.tools[spec.name] = spec
    return fresh


@dataclass
class Side:
    url: str
    route: FastRoute | None
    http: httpx.Client

    def send(self, method: str, params: dict[str, Any], *, name: str | None, caps: Any = None,
             user: str = "alice", headers: dict[str, str] | None = None) -> tuple[int, Any]:
        meta = {"io.modelcontextprotocol/protocolVersion": V,
                "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
                "io.modelcontextprotocol/clientCapabilities": WITH_TASKS if caps is None else caps}
        body = {"jsonrpc": "2.0", "id": 7, "method": method, "params": {**params, "_meta": meta}}
        sent = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
                "MCP-Protocol-Version": V, "Mcp-Method": method, "x-user": user}
        if name is not None:
            sent["Mcp-Name"] = name
        sent.update(headers or {})
        response = self.http.post(self.url, json=body, headers=sent)
        return response.status_code, response.json()

    def answered(self) -> int:
        return self.route.counts.answered if self.route is not None else 0


@pytest.fixture(scope="module")
def sides() -> Iterator[tuple[Side, Side]]:
    sdk_asgi = http_app(app(), fast_route=False)
    fast_asgi = http_app(app())
    route = fast_asgi._router  # type: ignore[attr-defined]
    assert isinstance(route, FastRoute)
    with LoopbackServer(sdk_asgi) as sdk, LoopbackServer(fast_asgi) as fast, httpx.Client(timeout=30) as http:
        yield Side(sdk.url, None, http), Side(fast.url, route, http)


def normalised(value: Any, task_id: str) -> Any:
    if isinstance(value, dict):
        return {k: ("<time>" if k in ("createdAt", "lastUpdatedAt") else "<state>" if k == "requestState"
                    else normalised(v, task_id)) for k, v in value.items()}
    if isinstance(value, list):
        return [normalised(v, task_id) for v in value]
    return "<task>" if value == task_id else value


def started(side: Side, status: str = "input_required") -> str:
    """A `cleanup` task parked on its confirmation (or in `status`): its id."""
    _, created = side.send("tools/call", {"name": "cleanup", "arguments": {"folder": "/tmp/x"}}, name="cleanup")
    task_id = str(created["result"]["taskId"])
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        _, got = side.send("tasks/get", {"taskId": task_id}, name=task_id)
        if got["result"]["status"] == status:
            return task_id
        time.sleep(0.02)
    raise AssertionError(f"task {task_id} never reached {status}")


def both(sides: tuple[Side, Side], method: str, *, fast: bool) -> Any:
    """Send `method` for each side's own parked task; the answers agree, and the fast side answered it itself
    exactly when `fast`."""
    observed = []
    for side in sides:
        task_id = started(side)
        before = side.answered()
        status, body = side.send(method, {"taskId": task_id}, name=task_id)
        if side.route is not None:
            assert side.answered() - before == int(fast), side.route.counts.reasons
        observed.append((status, normalised(body, task_id)))
    assert observed[0] == observed[1]
    return observed[1][1]


def test_a_poll_an_update_and_the_outcome_are_answered_on_the_fast_route_as_on_the_sdk_path(
        sides: tuple[Side, Side]) -> None:
    observed = []
    for side in sides:
        task_id = started(side)
        before = side.answered()
        _, parked = side.send("tasks/get", {"taskId": task_id}, name=task_id)
        (key, _), = parked["result"]["inputRequests"].items()
        answer = {key: {"action": "accept", "content": {"confirm": True}}}
        _, ack = side.send("tasks/update", {"taskId": task_id, "inputResponses": answer}, name=task_id)
        done = None
        for _ in range(500):
            _, done = side.send("tasks/get", {"taskId": task_id}, name=task_id)
            if done["result"]["status"] == "completed":
                break
            time.sleep(0.02)
        if side.route is not None:
            assert side.answered() - before >= 3  # the poll, the update and the polls to the outcome
        observed.append([normalised(b, task_id) for b in (parked, ack, done)])
    assert observed[0] == observed[1]
    assert observed[1][2]["result"]["result"]["content"][0]["text"] == "Deleted 3 files from /tmp/x."


def test_a_cancel_is_answered_on_the_fast_route_as_on_the_sdk_path(sides: tuple[Side, Side]) -> None:
    body = both(sides, "tasks/cancel", fast=True)
    assert body["result"]["resultType"] == "complete"


def test_an_unknown_task_or_another_callers_is_the_same_error_on_both(sides: tuple[Side, Side]) -> None:
    for side in sides:
        before = side.answered()
        unknown = side.send("tasks/get", {"taskId": "no-such-task"}, name="no-such-task")
        task_id = started(side)
        theirs = side.send("tasks/get", {"taskId": task_id}, name=task_id, user="mallory")
        assert unknown[1]["error"]["code"] == -32602 and theirs[1]["error"] == unknown[1]["error"]
        if side.route is not None:
            assert side.answered() - before >= 2  # both answered on the fast route (the polls of `started` too)
    sdk, fast = sides
    assert sdk.send("tasks/get", {"taskId": "x"}, name="x") == fast.send("tasks/get", {"taskId": "x"}, name="x")


@pytest.mark.parametrize(("case", "params", "kw"), [
    ("Mcp-Name of another task", {"taskId": ""}, {"name": "other"}),
    ("no Mcp-Name", {"taskId": ""}, {"name": None}),
    ("Mcp-Name in base64", {"taskId": ""}, {}),
    ("no tasks extension", {"taskId": ""}, {"caps": {"elicitation": {"form": {}}}}),
    ("taskId not a string", {"taskId": 5}, {"name": "5"}),
])
def test_a_malformed_task_request_is_handed_to_the_sdk_path_which_says_so(
        sides: tuple[Side, Side], case: str, params: dict[str, Any], kw: dict[str, Any]) -> None:
    _, fast = sides
    observed = []
    for side in sides:
        task_id = started(side)
        sent = {"taskId": task_id if params["taskId"] == "" else params["taskId"]}
        name = kw.get("name", task_id) if "name" in kw else task_id
        if case == "Mcp-Name in base64":
            name = "=?base64?" + base64.b64encode(task_id.encode()).decode() + "?="
        before = side.answered()
        status, body = side.send("tasks/get", sent, name=name, caps=kw.get("caps"))
        if side is fast:
            answered = side.answered() - before
            assert answered == int(case == "Mcp-Name in base64"), (case, fast.route.counts.reasons
                                                                   if fast.route else None)
        observed.append((status, normalised(body, task_id)))
    assert observed[0] == observed[1], case
    if case != "Mcp-Name in base64":
        assert "error" in observed[0][1], case


FORM_ONLY = {"elicitation": {"form": {}}}


@pytest.mark.parametrize(("tool", "arguments", "caps", "fast_answers"), [
    ("cleanup", {"folder": "/tmp/y"}, None, True),  # declares the extension: a task starts (its id)
    ("cleanup", {"folder": "/tmp/y"}, FORM_ONLY, True),  # task="optional" without the extension: an ordinary call
    ("report", {}, None, True),  # a value missing: asked by MRTR before the task starts
    ("report", {"region": "eu"}, None, True),
    ("report", {"region": "eu"}, FORM_ONLY, False),  # task="required" without the extension: the SDK's -32021
])
def test_a_task_tools_call_is_answered_on_the_fast_route_as_on_the_sdk_path(
        sides: tuple[Side, Side], tool: str, arguments: dict[str, Any], caps: Any, fast_answers: bool) -> None:
    observed = []
    for side in sides:
        before = side.answered()
        status, body = side.send("tools/call", {"name": tool, "arguments": arguments}, name=tool, caps=caps)
        if side.route is not None:
            assert side.answered() - before == int(fast_answers), side.route.counts.reasons
        task_id = (body.get("result") or {}).get("taskId", "")
        observed.append((status, normalised(body, task_id)))
    assert observed[0] == observed[1]
    if tool == "report" and not arguments:
        assert observed[0][1]["result"]["resultType"] == "input_required"


def test_a_task_tools_values_asked_by_mrtr_then_its_task_are_the_same_on_both(sides: tuple[Side, Side]) -> None:
    observed = []
    for side in sides:
        before = side.answered()
        _, asked = side.send("tools/call", {"name": "report", "arguments": {}}, name="report")
        retry = {"name": "report", "arguments": {}, "requestState": asked["result"]["requestState"],
                 "inputResponses": {"region": {"action": "accept", "content": {"region": "eu"}}}}
        status, body = side.send("tools/call", retry, name="report")
        if side.route is not None:
            assert side.answered() - before == 2, side.route.counts.reasons
        task_id = body["result"]["taskId"]
        done = None
        for _ in range(500):
            _, done = side.send("tasks/get", {"taskId": task_id}, name=task_id)
            if done["result"]["status"] == "completed":
                break
            time.sleep(0.02)
        observed.append((status, normalised(body, task_id), normalised(done, task_id)))
    assert observed[0] == observed[1]
    assert observed[0][2]["result"]["result"]["content"][0]["text"] == "Report for eu."
