"""What a restart does to tasks, across a real `askback serve` restart on the default SQLite store.

- a task running when the server stopped settles `failed`, saying so: at once on a graceful stop, and once
  its lease lapses when the process was killed (it never stays `working`);
- a task parked on a question survives: answered after the restart, it runs again from the start, its earlier
  questions answered from the record (so the work before them runs again); a tool registered with
  `resume="fail"` settles `failed` instead, saying why.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.replicas.conftest import Replica, key_text
from tests.tasks.test_work_secret import SECRET, WITH_PAGES, submit
from tests.tasks.wire import TaskClient, accept

TARGET = str(Path(__file__).with_name("tasks_app.py"))


@pytest.fixture
def server(tmp_path: Path) -> Replica:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ASKBACK_", "TASKS_"))}
    env.update(ASKBACK_KEYS=key_text(7), ASKBACK_DATA_DIR=str(tmp_path / "data"),
               TASKS_RUNLOG=str(tmp_path / "runs.log"), TASKS_LEASE="1.5")
    replica = Replica("tasks", tmp_path, env, target=TARGET)
    yield replica
    replica.kill()


def client_of(replica: Replica) -> TaskClient:
    return TaskClient(f"http://127.0.0.1:{replica.port}/mcp", headers={"x-user": "alice"})


def runs(replica: Replica) -> list[str]:
    path = Path(replica.env["TASKS_RUNLOG"])
    return path.read_text().split() if path.exists() else []


def test_a_parked_task_answered_after_a_restart_runs_again_from_the_start(server: Replica) -> None:
    client = client_of(server.start())
    task_id = client.call("cleanup", {"folder": "/data"})["result"]["taskId"]
    (key, _), = client.wait(task_id, "input_required")["inputRequests"].items()
    server.stop()
    client = client_of(server.start())
    parked = client.get(task_id)["result"]
    assert parked["status"] == "input_required" and list(parked["inputRequests"]) == [key]
    client.update(task_id, {key: accept(confirm=True)})
    done = client.wait(task_id)
    assert done["status"] == "completed", done
    assert done["result"]["content"][0]["text"] == "Deleted 3 files from /data."
    assert runs(server) == ["scan:/data", "scan:/data", "delete:/data"]  # the work before the question ran twice


def test_a_parked_task_of_a_tool_that_does_not_resume_fails_clearly(server: Replica) -> None:
    client = client_of(server.start())
    task_id = client.call("cleanup_once", {"folder": "/data"})["result"]["taskId"]
    (key, _), = client.wait(task_id, "input_required")["inputRequests"].items()
    server.stop()
    client = client_of(server.start())
    client.update(task_id, {key: accept(confirm=True)})
    failed = client.wait(task_id)
    assert failed["status"] == "failed"
    assert "restarted" in failed["statusMessage"] and "does not resume" in failed["error"]["message"]
    assert runs(server) == ["scan-once:/data"]


def test_a_secret_asked_on_the_page_is_asked_again_after_a_restart_never_replayed(server: Replica) -> None:
    """A re-run of the function from the start asks the page again (a new link): the value entered on the page
    is read once and never kept, so no record could answer the question from before."""
    def client_of(replica: Replica) -> TaskClient:
        return TaskClient(f"http://127.0.0.1:{replica.port}/mcp", WITH_PAGES, headers={"x-user": "alice"})

    client = client_of(server.start())
    task_id = client.call("rotate", {})["result"]["taskId"]
    (key, first), = client.wait(task_id, "input_required")["inputRequests"].items()
    server.stop()
    client = client_of(server.start())
    client.update(task_id, {key: {"action": "accept"}})  # answered after the restart: the function runs again
    asked = client.wait(task_id, "input_required")
    (again_key, again), = asked["inputRequests"].items()
    assert again_key != key and again["params"]["mode"] == "url"
    assert again["params"]["url"] != first["params"]["url"]  # a new page step
    posted = submit(again["params"]["url"], value=SECRET, decision="submit")
    assert posted.status_code == 200, posted.text
    done = client.wait(task_id)
    assert done["status"] == "completed", done
    assert done["result"]["content"][0]["text"] == f"rotated ({len(SECRET)} characters)"
    assert runs(server) == ["rotate:start", "rotate:start", f"rotate:got:{len(SECRET)}"]
    assert SECRET not in str(asked) and SECRET not in str(done)


def test_a_task_running_at_a_graceful_stop_settles_failed_at_once(server: Replica) -> None:
    client = client_of(server.start())
    task_id = client.call("long_job", {"seconds": 60})["result"]["taskId"]
    assert client.get(task_id)["result"]["status"] == "working"
    server.stop()
    client = client_of(server.start())
    failed = client.get(task_id)["result"]
    assert failed["status"] == "failed"
    assert "stopped while this task was running" in failed["error"]["message"]


def test_a_task_running_when_the_process_was_killed_fails_once_its_lease_lapsed(server: Replica) -> None:
    client = client_of(server.start())
    task_id = client.call("long_job", {"seconds": 60})["result"]["taskId"]
    time.sleep(0.3)
    server.kill()
    client = client_of(server.start())
    settled = client.wait(task_id, seconds=20)  # working until the 1.5 s lease lapses, then failed
    assert settled["status"] == "failed"
    assert "stopped while this task was running" in settled["statusMessage"]
    assert runs(server) == ["long:start"]
