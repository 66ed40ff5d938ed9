"""Tasks across two `askback serve` replicas sharing one Redis: any replica reads, answers and cancels a task.

The task is created on replica A; replica B sees it at once (the record is written before `CreateTaskResult`
is sent), delivers the answer, and A's running function takes it in. When A dies while the task waits, B
answering it resumes the task (from the start, as after a restart).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.replicas.conftest import Replica, key_text
from tests.tasks.wire import TaskClient, accept

TARGET = str(Path(__file__).resolve().parents[1] / "tasks" / "tasks_app.py")


@pytest.fixture
def pair(tmp_path: Path, redis_url: str) -> Iterator[tuple[Replica, Replica]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ASKBACK_", "TASKS_"))}
    env.update(ASKBACK_KEYS=key_text(3), ASKBACK_STORE=f"{redis_url}?app=tasks-{os.urandom(5).hex()}",
               ASKBACK_DATA_DIR=str(tmp_path / "data"), TASKS_RUNLOG=str(tmp_path / "runs.log"), TASKS_LEASE="1.5")
    a = Replica("a", tmp_path, dict(env), target=TARGET).start()
    b = Replica("b", tmp_path, dict(env), target=TARGET).start()
    yield a, b
    a.kill()
    b.kill()


def client_of(replica: Replica) -> TaskClient:
    return TaskClient(f"http://127.0.0.1:{replica.port}/mcp", headers={"x-user": "alice"})


def runs(tmp_path: Path) -> list[str]:
    path = tmp_path / "runs.log"
    return path.read_text().split() if path.exists() else []


def test_a_task_parked_on_a_is_answered_through_b_and_completes(pair: tuple[Replica, Replica], tmp_path: Path) -> None:
    a, b = (client_of(r) for r in pair)
    task_id = a.call("cleanup", {"folder": "/shared"})["result"]["taskId"]
    assert b.get(task_id)["result"]["taskId"] == task_id  # durable before CreateTaskResult: B finds it at once
    (key, _), = b.wait(task_id, "input_required")["inputRequests"].items()
    assert b.update(task_id, {key: accept(confirm=True)})["result"]["resultType"] == "complete"
    done = b.wait(task_id)
    assert done["status"] == "completed"
    assert done["result"]["content"][0]["text"] == "Deleted 3 files from /shared."
    assert runs(tmp_path) == ["scan:/shared", "delete:/shared"]  # ran once, on A
    assert a.get(task_id)["result"]["status"] == "completed"


def test_a_task_running_on_a_is_cancelled_through_b(pair: tuple[Replica, Replica]) -> None:
    a, b = (client_of(r) for r in pair)
    task_id = a.call("long_job", {"seconds": 60})["result"]["taskId"]
    b.cancel(task_id)
    assert a.wait(task_id)["status"] == "cancelled"


def test_a_parked_task_whose_replica_died_resumes_on_the_one_that_answers(
    pair: tuple[Replica, Replica], tmp_path: Path
) -> None:
    replica_a, replica_b = pair
    a, b = client_of(replica_a), client_of(replica_b)
    task_id = a.call("cleanup", {"folder": "/shared"})["result"]["taskId"]
    (key, _), = a.wait(task_id, "input_required")["inputRequests"].items()
    replica_a.kill()
    b.update(task_id, {key: accept(confirm=True)})
    done = b.wait(task_id, seconds=20)  # B's next read after A's lease lapsed takes the task over
    assert done["status"] == "completed", done
    assert runs(tmp_path) == ["scan:/shared", "scan:/shared", "delete:/shared"]


def test_another_principal_on_another_replica_sees_no_such_task(pair: tuple[Replica, Replica]) -> None:
    a = client_of(pair[0])
    mallory = TaskClient(f"http://127.0.0.1:{pair[1].port}/mcp", headers={"x-user": "mallory"})
    task_id = a.call("long_job", {"seconds": 30})["result"]["taskId"]
    assert mallory.get(task_id)["error"]["code"] == -32602
    a.cancel(task_id)
