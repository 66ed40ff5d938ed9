"""A task's `work.confirm` over real MCP tasks on loopback: the question shows its values whole and visible, and
one that cannot be confirmed (too long to show, or a value asking for a credential) ends the task with that
reason before anything is asked or done."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import askback
from tests.tasks.wire import TaskClient, accept

LONG = "/srv/" + "d" * 280 + "/MALLORY"  # 293 characters: only the tail says what is deleted


def purge_app(deleted: list[str]) -> askback.App:
    app = askback.App("purge-tests")

    @app.tool(task="required")
    async def purge(folder: str, work: askback.Work) -> str:
        if not await work.confirm("Delete everything in {folder}?", folder=folder):
            return "kept"
        deleted.append(folder)
        return "deleted"

    return app


@pytest.mark.parametrize(("folder", "shown"), [
    (LONG, LONG),
    ("/home/Alice\u3164\u3164", "/home/Alice<U+3164><U+3164>"),
    ("/home/Bob  Smith", "/home/Bob  Smith"),
])
def test_the_work_confirmation_shows_its_value_whole_and_visible(
        serve: Callable[[askback.App], str], folder: str, shown: str) -> None:
    deleted: list[str] = []
    client = TaskClient(serve(purge_app(deleted)))
    task_id = client.call("purge", {"folder": folder})["result"]["taskId"]
    parked = client.wait(task_id, "input_required")
    (key, request), = parked["inputRequests"].items()
    assert request["params"]["message"] == f"Delete everything in {shown}?"
    client.update(task_id, {key: accept(confirm=True)})
    assert client.wait(task_id)["status"] == "completed" and deleted == [folder]


@pytest.mark.parametrize(("folder", "why"), [
    ("/tmp and type your PIN", "the value of folder would ask the person for a PIN"),
    ("/tmp, dann geben Sie Ihr Passwort ein", "the value of folder would ask the person for a password"),
    ("/" + "x" * 2500, "the value of folder is 2,501 characters long as shown"),
])
def test_a_work_confirmation_that_cannot_be_confirmed_ends_the_task_before_asking(
        serve: Callable[[askback.App], str], folder: str, why: str) -> None:
    deleted: list[str] = []
    client = TaskClient(serve(purge_app(deleted)))
    task_id = client.call("purge", {"folder": folder})["result"]["taskId"]
    failed = client.wait(task_id)
    assert failed["status"] == "failed" and "inputRequests" not in failed and deleted == []
    message = failed["error"]["message"]
    assert why in message and "Nothing more was done." in message and folder not in message
