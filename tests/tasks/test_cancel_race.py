"""`tasks/cancel` racing the answer that lets a task finish, over real HTTP, many times.

The rule: the function's side effects happen at most once, and the task's final status says truthfully whether
it finished: `completed` when it did (its irreversible step ran), `cancelled` only when it did not, and never
`failed` saying the server stopped (it did not). Each round parks a task on its last question, then sends the
answer, the cancellation and a stream of `tasks/get` at once (the reads are what notice a task nobody runs), with
the order shifted a little from round to round so that the cancellation lands on every step of the finish.
"""

from __future__ import annotations

import base64
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import askback
from tests.support.redis import machine_or_private
from tests.tasks import tasks_app
from tests.tasks.wire import TaskClient, accept

ROUNDS = 60
HEADERS = {"x-user": "alice"}


@pytest.fixture(params=["sqlite", "redis"])
def url(request: pytest.FixtureRequest, serve: Callable[[askback.App], str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The race on the default store (SQLite, whose writes run in a worker thread) and on Redis (a network
    store: a write cut short may or may not have landed)."""
    monkeypatch.setenv("TASKS_RUNLOG", str(tmp_path / "runs.log"))
    private = None
    store = keys = None
    if request.param == "redis":
        base, private = machine_or_private()
        store = f"{base}?app=tasks-race-{os.urandom(5).hex()}"
        keys = base64.urlsafe_b64encode(os.urandom(32)).decode().rstrip("=")  # a shared store needs set keys
    app = askback.App("tasks-race", principal=lambda r: r.headers.get("x-user"), store=store, keys=keys)
    app.tools["charge"] = tasks_app.app.tools["charge"]
    yield serve(app)
    if private is not None:
        private.stop()


def charged(tmp_path: Path, order: str) -> int:
    path = tmp_path / "runs.log"
    return path.read_text().split().count(f"charge:{order}") if path.exists() else 0


def race(url: str, task_id: str, key: str, shift: int) -> list[dict[str, Any]]:
    """Answer, cancel and read at once; what every read saw."""
    start = threading.Barrier(3)
    seen: list[dict[str, Any]] = []

    def answer() -> None:
        client = TaskClient(url, headers=HEADERS)
        start.wait()
        time.sleep((shift % 2) / 1000)
        client.update(task_id, {key: accept(confirm=True)})

    def cancel() -> None:
        client = TaskClient(url, headers=HEADERS)
        start.wait()
        time.sleep((shift // 2 % 10) * 3 / 1000)  # 0 to 27 ms after the answer
        client.cancel(task_id)

    def read() -> None:
        client = TaskClient(url, headers=HEADERS)
        start.wait()
        for _ in range(200):  # bounded: a settled task ends the reads at once
            task = client.get(task_id)["result"]
            seen.append(task)
            if task["status"] in {"completed", "failed", "cancelled"}:
                return

    threads = [threading.Thread(target=f) for f in (answer, cancel, read)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return seen


def test_cancel_racing_the_last_answer_reads_completed_iff_the_function_finished(url: str, tmp_path: Path) -> None:
    client = TaskClient(url, headers=HEADERS)
    wrong: list[str] = []
    outcomes: dict[str, int] = {}
    for n in range(ROUNDS):
        order = f"o{n}"
        task_id = client.call("charge", {"order": order})["result"]["taskId"]
        (key, _), = client.wait(task_id, "input_required")["inputRequests"].items()
        seen = race(url, task_id, key, n)
        final = client.wait(task_id)
        again = client.get(task_id)["result"]
        ran = charged(tmp_path, order)
        status = final["status"]
        outcomes[status] = outcomes.get(status, 0) + 1
        said = " ".join(str(t.get("statusMessage", "")) + str(t.get("error", "")) for t in (*seen, final))
        if ran > 1:
            wrong.append(f"{order}: charged {ran} times")
        if (status == "completed") != (ran == 1) or status not in {"completed", "cancelled"}:
            wrong.append(f"{order}: {status} after {ran} charge(s): {final}")
        if again["status"] != status:
            wrong.append(f"{order}: settled {status}, then read {again['status']}")
        if "stopped" in said:
            wrong.append(f"{order}: told the server stopped: {said}")
        if status == "completed" and final["result"]["content"][0]["text"] != f"Charged {order}.":
            wrong.append(f"{order}: completed with {final['result']}")
        terminal = [t["status"] for t in seen if t["status"] in {"completed", "failed", "cancelled"}]
        if any(s != status for s in terminal):
            wrong.append(f"{order}: a read during the race saw {terminal}, the task settled {status}")
    assert not wrong, f"{len(wrong)} wrong of {ROUNDS} ({outcomes}):\n" + "\n".join(wrong)
