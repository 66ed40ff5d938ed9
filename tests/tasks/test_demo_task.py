"""The demo's clean-up task end to end: it works a few seconds, asks mid-way, and finishes with the answer."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import askback
from askback.demo import app as demo_app
from tests.tasks.wire import TaskClient, accept


def test_the_demo_clean_up_asks_mid_way_and_deletes_once_confirmed(serve: Callable[[askback.App], str]) -> None:
    client = TaskClient(serve(demo_app))
    task_id = client.call("clean_logs", {"folder": "/var/log/demo"})["result"]["taskId"]
    working = _first_status_message(client, task_id)
    assert working["status"] == "working"
    assert working["statusMessage"].startswith("Scanning /var/log/demo")
    parked = client.wait(task_id, "input_required")
    (key, request), = parked["inputRequests"].items()
    assert request["params"]["message"].startswith("Delete these 3 files? /var/log/demo/app-1.log")
    client.update(task_id, {key: accept(confirm=True)})
    assert client.wait(task_id)["result"]["content"][0]["text"] == "Deleted 3 files from /var/log/demo."


def _first_status_message(client: TaskClient, task_id: str, seconds: float = 10) -> dict[str, Any]:
    """The task as first seen with a status message: the task is created before its body runs, so the first
    `tasks/get` may come before the body's first `work.status` (as it can for any client)."""
    deadline = time.monotonic() + seconds
    while True:
        task: dict[str, Any] = client.get(task_id)["result"]
        if "statusMessage" in task or task["status"] != "working" or time.monotonic() > deadline:
            return task
        time.sleep(0.02)
