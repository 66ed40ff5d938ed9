"""askback's client against askback's own task server, over real loopback HTTP: Python, `askback call`, Ctrl-C.

The wire rules are pinned against a scripted server in `test_client_tasks.py`; here the two real halves meet:
a task created, a question asked mid-way and answered, a task saved and resumed from the command line, and
Ctrl-C cancelling a running task at the server.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import askback
from askback.client import Client, FileAnswerer
from tests.e2e.test_client_cli import finish, run, spawn
from tests.tasks import tasks_app

Serve = Callable[[askback.App], str]


@pytest.fixture
def url(serve: Serve, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("TASKS_RUNLOG", str(tmp_path / "runs.log"))
    app = askback.App("client-tasks")  # no principal hook: every caller is the same anonymous one
    for spec in tasks_app.app.tools.values():
        app.tools[spec.name] = spec
    return serve(app)


def runlog(tmp_path: Path) -> list[str]:
    path = tmp_path / "runs.log"
    return path.read_text().split() if path.exists() else []


@pytest.mark.anyio
async def test_the_client_follows_a_task_and_answers_its_question(url: str, tmp_path: Path) -> None:
    async with Client(url, answerer=FileAnswerer({"confirm": True})) as client:
        result = await client.call_tool("cleanup", {"folder": "/srv/a"})
    assert result.content[0].text == "Deleted 3 files from /srv/a."  # type: ignore[union-attr]
    assert runlog(tmp_path) == ["scan:/srv/a", "delete:/srv/a"]


def test_a_tasks_question_saved_from_the_command_line_is_answered_on_resume(url: str, tmp_path: Path) -> None:
    saved = run("call", url, "cleanup", "folder=/srv/b", "--save-pending", "p.json", cwd=tmp_path)
    assert saved.returncode == 3, saved.stderr
    assert "the task" in saved.stderr and "askback resume p.json" in saved.stderr
    data = json.loads((tmp_path / "p.json").read_text())
    assert data["version"] == 2 and data["taskId"] and list(data["inputRequests"]) == ["q1"]
    (tmp_path / "a.json").write_text('{"confirm": false}')
    resumed = run("resume", "p.json", "--answers", "a.json", "--json", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["content"][0]["text"] == "Kept 3 files."
    assert not (tmp_path / "p.json").exists()  # the task is finished: its file can never be used again
    assert runlog(tmp_path) == ["scan:/srv/b"]  # the tool ran once; resuming followed the same task


def test_ctrl_c_cancels_the_running_task_at_the_server(url: str, tmp_path: Path) -> None:
    child = spawn("call", url, "long_job", "seconds:=4", cwd=tmp_path)
    child.expect("task is working")
    child.sendintr()
    assert finish(child) == 130
    started = time.monotonic()
    while "long:start" not in runlog(tmp_path) and time.monotonic() - started < 5:
        time.sleep(0.1)
    time.sleep(5)  # past the 4 s the job would have taken
    assert runlog(tmp_path) == ["long:start"]  # cancelled at its next await: it never reached its end
