"""A task parked on a question its function asked, across a real `askback serve` restart (SQLite), over A2A.

The same rules as for an MCP task (docs/tasks.md, "What a restart does"): answered after the restart, the
task runs again from the start, its earlier questions answered from the record, so the work before them runs
again; a tool registered with `resume="fail"` settles failed instead, saying why.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.a2a.support import Agent, state, status_parts
from tests.replicas.conftest import Replica, key_text

TARGET = str(Path(__file__).parents[1] / "tasks" / "tasks_app.py")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def server(tmp_path: Path) -> Replica:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ASKBACK_", "TASKS_"))}
    env.update(ASKBACK_KEYS=key_text(11), ASKBACK_DATA_DIR=str(tmp_path / "data"),
               TASKS_RUNLOG=str(tmp_path / "runs.log"), TASKS_LEASE="1.5")
    replica = Replica("a2a-tasks", tmp_path, env, target=TARGET)
    yield replica
    replica.kill()


def agent_of(replica: Replica) -> Agent:
    return Agent(f"http://127.0.0.1:{replica.port}", headers={"x-user": "alice"})


def runs(replica: Replica) -> list[str]:
    path = Path(replica.env["TASKS_RUNLOG"])
    return path.read_text().split() if path.exists() else []


def artifact_text(task: object) -> str:
    return "\n".join(p.text for a in task.artifacts for p in a.parts if p.HasField("text"))  # type: ignore[attr-defined]


@pytest.mark.anyio
async def test_a_parked_task_answered_after_a_restart_runs_again_from_the_start(server: Replica) -> None:
    async with agent_of(server.start()) as agent:
        task = await agent.call("cleanup", folder="/data")
        assert state(task) == "TASK_STATE_INPUT_REQUIRED"
        assert status_parts(task)[0] == "Delete these 3 files from /data?"
    server.stop()
    async with agent_of(server.start()) as agent:
        assert state(await agent.get(task.id)) == "TASK_STATE_INPUT_REQUIRED"
        done = await agent.answer(task, {"confirm": True})
        assert state(done) == "TASK_STATE_COMPLETED", status_parts(done)
        assert artifact_text(done) == "Deleted 3 files from /data."
    assert runs(server) == ["scan:/data", "scan:/data", "delete:/data"]  # the work before the question ran twice


@pytest.mark.anyio
async def test_a_parked_task_of_a_tool_that_does_not_resume_fails_clearly(server: Replica) -> None:
    async with agent_of(server.start()) as agent:
        task = await agent.call("cleanup_once", folder="/data")
        assert state(task) == "TASK_STATE_INPUT_REQUIRED"
    server.stop()
    async with agent_of(server.start()) as agent:
        failed = await agent.answer(task, {"confirm": True})
        assert state(failed) == "TASK_STATE_FAILED"
        text, _ = status_parts(failed)
        assert "restarted" in text and "does not resume" in text
    assert runs(server) == ["scan-once:/data"]


@pytest.mark.anyio
async def test_a_parked_task_survives_a_killed_server_too(server: Replica) -> None:
    async with agent_of(server.start()) as agent:
        task = await agent.call("cleanup", folder="/var")
        assert state(task) == "TASK_STATE_INPUT_REQUIRED"
    server.kill()  # no shutdown: the lease lapses on its own (1.5 s), then the answer resumes the task
    async with agent_of(server.start()) as agent:
        done = await agent.answer(task, {"confirm": False})
        assert state(done) == "TASK_STATE_COMPLETED", status_parts(done)
        assert artifact_text(done) == "Kept 3 files."
    assert runs(server) == ["scan:/var", "scan:/var"]
