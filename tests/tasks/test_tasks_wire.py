"""MCP tasks over real HTTP on loopback: the wire of a task that asks in the middle of its work, and its rules."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

import askback
from tests.tasks import tasks_app
from tests.tasks.wire import EXTENSION, TaskClient, accept


@pytest.fixture
def client(serve: Callable[[askback.App], str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> TaskClient:
    monkeypatch.setenv("TASKS_RUNLOG", str(tmp_path / "runs.log"))
    # A fresh app per test (the module's app holds its runtime once resolved).
    app = askback.App("tasks-tests", principal=lambda r: r.headers.get("x-user"))
    for spec in tasks_app.app.tools.values():
        app.tools[spec.name] = spec
    return TaskClient(serve(app), headers={"x-user": "alice"})


def test_a_task_parks_on_its_question_and_completes_once_answered(client: TaskClient) -> None:
    created = client.call("cleanup", {"folder": "/tmp/x"})["result"]
    assert created["resultType"] == "task"
    assert set(created) >= {"taskId", "status", "createdAt", "lastUpdatedAt", "ttlMs", "pollIntervalMs"}
    assert not {"result", "error", "inputRequests", "requestState"} & set(created)
    task_id = created["taskId"]
    parked = client.wait(task_id, "input_required")
    assert parked["status"] == "input_required"
    (key, request), = parked["inputRequests"].items()
    assert request["method"] == "elicitation/create"
    assert request["params"]["message"] == "Delete these 3 files from /tmp/x?"
    ack = client.update(task_id, {key: accept(confirm=True)})
    assert {k: v for k, v in ack["result"].items() if k != "_meta"} == {"resultType": "complete"}
    done = client.wait(task_id)
    assert done["status"] == "completed"
    assert done["result"]["content"][0]["text"] == "Deleted 3 files from /tmp/x."
    assert done["result"]["resultType"] == "complete"  # a CallToolResult, as 2026-07-28 spells every one
    assert "requestState" not in done


def test_an_invalid_answer_is_asked_again_under_a_new_key_and_stale_keys_are_ignored(client: TaskClient) -> None:
    task_id = client.call("survey", {})["result"]["taskId"]
    first = client.wait(task_id, "input_required")
    (key, _), = first["inputRequests"].items()
    client.update(task_id, {key: accept(days=400)})
    again = client.wait(task_id, "input_required")
    while key in again["inputRequests"]:
        again = client.get(task_id)["result"]
    (new_key, request), = again["inputRequests"].items()
    assert new_key != key
    assert "not accepted" in request["params"]["message"]
    # The spent key, an invented one and a garbage answer are all ignored; the question stays outstanding.
    ack = client.update(task_id, {key: accept(days=5), "q999": accept(days=5), new_key + "x": "garbage"})
    assert ack["result"]["resultType"] == "complete"
    assert list(client.get(task_id)["result"]["inputRequests"]) == [new_key]
    client.update(task_id, {new_key: accept(days=5)})
    choice = client.wait(task_id, "input_required")
    while new_key in choice["inputRequests"]:
        choice = client.get(task_id)["result"]
    (choice_key, choice_request), = choice["inputRequests"].items()
    assert choice_request["params"]["requestedSchema"]["properties"]["choice"]["oneOf"][1] == {
        "const": "b", "title": "Copy B"}
    client.update(task_id, {choice_key: accept(choice="b")})
    confirm = client.wait(task_id, "input_required")
    while choice_key in confirm["inputRequests"]:
        confirm = client.get(task_id)["result"]
    (confirm_key, _), = confirm["inputRequests"].items()
    client.update(task_id, {confirm_key: {"action": "decline"}})
    assert client.wait(task_id)["result"]["content"][0]["text"] == "days=5 keep=b go=False"


def test_a_decline_of_a_value_completes_the_task_with_the_refusal(client: TaskClient) -> None:
    task_id = client.call("survey", {})["result"]["taskId"]
    (key, _), = client.wait(task_id, "input_required")["inputRequests"].items()
    client.update(task_id, {key: {"action": "decline"}})
    done = client.wait(task_id)
    assert done["status"] == "completed"
    assert done["result"]["_meta"]["askback/refusal"]["outcome"] == "declined"
    assert done["result"]["resultType"] == "complete"


def test_every_completed_result_is_a_call_tool_result_saying_complete(client: TaskClient) -> None:
    """2026-07-28 requires `resultType` in every CallToolResult, the one a task inlines included: a value, a
    tool error and a refusal alike."""
    quick = client.wait(client.call("long_job", {"seconds": 0})["result"]["taskId"])
    error = client.wait(client.call("overdrawn", {"amount": 7})["result"]["taskId"])
    task_id = client.call("cleanup", {"folder": "/srv"})["result"]["taskId"]
    (key, _), = client.wait(task_id, "input_required")["inputRequests"].items()
    client.update(task_id, {key: {"action": "cancel"}})
    refused = client.wait(task_id)
    assert [t["status"] for t in (quick, error, refused)] == ["completed"] * 3
    assert quick["result"] == {"resultType": "complete", "content": [{"type": "text", "text": "done"}]}
    assert error["result"]["isError"] is True and "overdrawn" in error["result"]["content"][0]["text"]
    assert refused["result"]["content"][0]["text"] == "Kept 3 files."  # confirm() answered no: its return value
    for task in (quick, error, refused):
        assert task["result"]["resultType"] == "complete", task
        assert task["resultType"] == "complete"  # the DetailedTask's own


def test_cancel_is_cooperative_and_settles_cancelled(client: TaskClient) -> None:
    task_id = client.call("long_job", {"seconds": 60})["result"]["taskId"]
    assert client.cancel(task_id)["result"]["resultType"] == "complete"
    assert client.wait(task_id)["status"] == "cancelled"
    assert client.cancel(task_id)["result"]["resultType"] == "complete"  # idempotent on a terminal task


def test_a_parked_task_can_be_cancelled(client: TaskClient) -> None:
    task_id = client.call("cleanup", {"folder": "/srv"})["result"]["taskId"]
    client.wait(task_id, "input_required")
    client.cancel(task_id)
    assert client.wait(task_id)["status"] == "cancelled"


def test_an_exception_fails_the_task_without_its_text_reaching_the_caller(client: TaskClient) -> None:
    task_id = client.call("broken", {})["result"]["taskId"]
    failed = client.wait(task_id)
    assert failed["status"] == "failed"
    assert failed["error"]["code"] == -32603
    assert "hunter2" not in str(failed) and "Traceback" not in str(failed)
    assert "result" not in failed


def test_a_question_for_a_password_is_refused_and_the_task_fails_clearly(client: TaskClient) -> None:
    task_id = client.call("nosy", {})["result"]["taskId"]
    failed = client.wait(task_id)
    assert failed["status"] == "failed"
    assert "inputRequests" not in failed
    assert "credentials are never asked that way" in failed["error"]["message"]


def test_another_principal_sees_no_such_task(client: TaskClient) -> None:
    task_id = client.call("cleanup", {"folder": "/home/alice"})["result"]["taskId"]
    client.wait(task_id, "input_required")
    mallory = TaskClient(client.url, headers={"x-user": "mallory"})
    for answer in (mallory.get(task_id), mallory.update(task_id, {"q1": accept(confirm=True)}),
                   mallory.cancel(task_id)):
        assert answer["error"]["code"] == -32602
    assert mallory.get("no-such-task")["error"] == client.get("no-such-task")["error"]
    assert client.get(task_id)["result"]["status"] == "input_required"


def test_tasks_methods_need_the_extension_and_the_routing_header(client: TaskClient) -> None:
    task_id = client.call("long_job", {"seconds": 30})["result"]["taskId"]
    plain = TaskClient(client.url, capabilities={}, headers={"x-user": "alice"})
    assert plain.get(task_id)["error"]["code"] == -32021
    wrong = client.request("tasks/get", {"taskId": task_id}, name="another-task")
    assert wrong["error"]["code"] == -32020
    missing = client.request("tasks/get", {"taskId": task_id})
    assert missing["error"]["code"] == -32020
    for removed in ("tasks/result", "tasks/list"):
        assert client.request(removed, {"taskId": task_id}, name=task_id)["error"]["code"] == -32601
    client.cancel(task_id)


def test_without_the_extension_an_optional_task_runs_in_the_call_and_cannot_ask(client: TaskClient) -> None:
    plain = TaskClient(client.url, capabilities={"elicitation": {}}, headers={"x-user": "alice"})
    quick = plain.call("long_job", {"seconds": 0})["result"]
    assert quick["resultType"] == "complete" and quick["content"][0]["text"] == "done"
    asking = plain.call("cleanup", {"folder": "/tmp"})["result"]
    assert asking["isError"] is True
    assert EXTENSION in asking["content"][0]["text"]
    required = plain.call("report", {"region": "eu"})
    assert required["error"]["code"] == -32021
    assert required["error"]["data"]["requiredCapabilities"] == {"extensions": {EXTENSION: {}}}


def test_mrtr_comes_first_and_the_task_reflects_its_answers(client: TaskClient) -> None:
    first = client.call("report", {})["result"]
    assert first["resultType"] == "input_required" and "taskId" not in first
    (key, _), = first["inputRequests"].items()
    second = client.call("report", {}, inputResponses={key: accept(region="Atlantis")},
                         requestState=first["requestState"])["result"]
    assert second["resultType"] == "task"
    assert "requestState" not in second and "inputRequests" not in second
    assert client.wait(second["taskId"])["result"]["content"][0]["text"] == "Report for Atlantis."


def test_tools_list_marks_the_tools_that_run_as_tasks(client: TaskClient) -> None:
    tools = {t["name"]: t for t in client.request("tools/list", {})["result"]["tools"]}
    assert tools["cleanup"]["_meta"][EXTENSION] == {"taskSupport": "optional"}
    assert tools["report"]["_meta"][EXTENSION] == {"taskSupport": "required"}
    discover = client.request("server/discover", {})["result"]
    assert discover["capabilities"]["extensions"][EXTENSION] == {}
    assert "tasks" not in discover["capabilities"]


def test_arguments_and_answers_are_sealed_at_rest(client: TaskClient, tmp_path: Path) -> None:
    task_id = client.call("cleanup", {"folder": "/very/private/folder-7731"})["result"]["taskId"]
    (key, _), = client.wait(task_id, "input_required")["inputRequests"].items()
    client.update(task_id, {key: accept(confirm=True)})
    client.wait(task_id)
    database = next((tmp_path / "askback-data").glob("*.sqlite3"))
    with sqlite3.connect(database) as db:
        dumped = "\n".join(db.iterdump())
    assert task_id in dumped  # the record is there, under its id ...
    assert "folder-7731" not in dumped  # ... and shows nothing of what it was called with
    assert "Deleted" not in dumped
