"""The official Tasks requester, `@modelcontextprotocol/ext-tasks` 0.2.2 from the npm registry, runs askback's
tasks to the end and accepts their results.

The package decodes a completed task's inlined result with its `CallToolResultV2Schema`, which requires
`resultType: "complete"` (the 2026-07-28 schema requires it in every `CallToolResult`); it failed askback's
completed tasks with `TaskFailedError: Protocol value failed schema validation` before they carried it. Driven
through `tests/e2e/ts/ext-tasks.mjs` on the TypeScript SDK v2 client (installed by `tests/support/tsclient.py`,
pinned by `tests/e2e/ts/package-lock.json`): a task that asks during its work (answered through the package's
input handler), one that does not, a tool error, and a refusal. Without node and npm the tests skip saying why,
and under `CI=true` that is a failure.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import askback
from askback.demo import app as demo_app
from tests.support import tsclient
from tests.tasks import tasks_app

Serve = Callable[[askback.App], str]


@pytest.fixture
def url(serve: Serve, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("TASKS_RUNLOG", str(tmp_path / "runs.log"))
    app = askback.App("ext-tasks-tests")  # a fresh app: the module's app keeps its runtime once resolved
    for name in ("cleanup", "long_job", "overdrawn"):
        app.tools[name] = tasks_app.app.tools[name]
    return serve(app)


def run(url: str, tool: str, arguments: dict[str, Any], answer: str = "accept") -> dict[str, Any]:
    return tsclient.run("ext-tasks.mjs", url, tool, json.dumps(arguments), answer)


def test_a_task_that_asks_during_its_work_completes_with_its_result(url: str, tmp_path: Path) -> None:
    out = run(url, "cleanup", {"folder": "/var/log/shop"})
    assert out["ok"], out
    assert out["status"] == "completed", out
    assert out["result"]["content"] == [{"type": "text", "text": "Deleted 3 files from /var/log/shop."}]
    assert [(a["kind"], a["message"]) for a in out["asked"]] == [("elicitation", "Delete these 3 files from "
                                                                   "/var/log/shop?")]
    assert (tmp_path / "runs.log").read_text().split() == ["scan:/var/log/shop", "delete:/var/log/shop"]


def test_the_answer_no_completes_with_what_the_function_returned(url: str, tmp_path: Path) -> None:
    out = run(url, "cleanup", {"folder": "/srv"}, "decline")
    assert out["ok"] and out["status"] == "completed", out
    assert out["result"]["content"][0]["text"] == "Kept 3 files."
    assert (tmp_path / "runs.log").read_text().split() == ["scan:/srv"]


def test_a_task_without_questions_and_a_tool_error_are_results_too(url: str) -> None:
    quick = run(url, "long_job", {"seconds": 0})
    assert quick["ok"] and quick["status"] == "completed", quick
    assert quick["result"]["content"] == [{"type": "text", "text": "done"}]
    error = run(url, "overdrawn", {"amount": 7})
    assert error["ok"] and error["status"] == "completed", error
    assert error["result"]["isError"] is True
    assert "overdrawn" in error["result"]["content"][0]["text"]


def test_the_demo_clean_logs_runs_to_the_end(serve: Serve) -> None:
    out = run(serve(demo_app), "clean_logs", {"folder": "/var/log/shop"})
    assert out["ok"] and out["status"] == "completed", out
    assert out["result"]["content"][0]["text"] == "Deleted 3 files from /var/log/shop."
