"""One trace per flow, as the OpenTelemetry SDK's in-memory exporter and metric reader record it.

The flows run in a process of their own (`inmemory_probe`: providers are set once per process), over real
loopback HTTP, against the same app with the fast route on and off: both entries must give the same spans.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from typing import Any

import pytest

from tests.e2e.test_cli import ROOT
from tests.telemetry.inmemory_probe import TRACEPARENT


@pytest.fixture(scope="module")
def seen() -> dict[str, Any]:
    run = subprocess.run([sys.executable, "-m", "tests.telemetry.inmemory_probe"], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    data: dict[str, Any] = json.loads(run.stdout.strip().splitlines()[-1])
    return data


def _rounds(seen: dict[str, Any], entry: str) -> list[dict[str, Any]]:
    """The spans of one entry's requests but its `tasks/get` polls (how many a task took varies)."""
    return [s for s in seen["spans"][entry] if s["name"] != "tasks/get"]


def _comparable(span: dict[str, Any]) -> dict[str, Any]:
    attributes = {k: v for k, v in span["attributes"].items() if k != "askback.flow.id"}
    return {"name": span["name"], "kind": span["kind"], "status": span["status"], "attributes": attributes,
            "links": len(span["links"]), "parent": span["parent"]}


def test_both_entries_answer_alike_and_give_the_same_spans(seen: dict[str, Any]) -> None:
    assert seen["results"]["fast"] == seen["results"]["sdk"]
    assert seen["results"]["fast"]["plan"] == ["input_required"] * 3 + ["complete"]
    assert seen["results"]["fast"]["task"] == ["input_required", "task", "completed"]
    assert [_comparable(s) for s in _rounds(seen, "fast")] == [_comparable(s) for s in _rounds(seen, "sdk")]
    for entry in ("fast", "sdk"):
        polls = [s for s in seen["spans"][entry] if s["name"] == "tasks/get"]
        assert polls and all(p["attributes"]["mcp.method.name"] == "tasks/get" for p in polls)


@pytest.mark.parametrize("entry", ["fast", "sdk"])
def test_a_four_round_flow_is_one_chain_of_linked_spans(seen: dict[str, Any], entry: str) -> None:
    plan = _rounds(seen, entry)[:4]
    assert [s["name"] for s in plan] == ["tools/call plan"] * 4
    assert all(s["kind"] == "SERVER" for s in plan)
    first = plan[0]["attributes"]
    assert first["mcp.method.name"] == "tools/call" and first["gen_ai.tool.name"] == "plan"
    assert first["gen_ai.operation.name"] == "execute_tool" and first["mcp.protocol.version"] == "2026-07-28"
    assert [s["attributes"]["askback.round"] for s in plan] == [1, 2, 3, 4]
    assert len({s["attributes"]["askback.flow.id"] for s in plan}) == 1
    assert [s["attributes"]["askback.result.type"] for s in plan] == ["input_required"] * 3 + ["complete"]
    assert [s["attributes"].get("askback.questions") for s in plan] == [["first"], ["second"], ["ok"], None]
    assert plan[3]["attributes"]["askback.outcome"] == "completed"
    assert plan[0]["links"] == []
    for before, after in itertools.pairwise(plan):  # each round links to the round before it
        assert after["links"] == [{"trace": before["trace"], "span": before["span"],
                                   "attributes": {"askback.link": "previous_round"}}]


@pytest.mark.parametrize("entry", ["fast", "sdk"])
def test_how_flows_end_is_on_their_spans(seen: dict[str, Any], entry: str) -> None:
    declined, broken, tampered, asked, task, traced = _rounds(seen, entry)[5:11]
    assert declined["attributes"]["askback.outcome"] == "declined" and declined["status"] == "UNSET"
    assert broken["attributes"]["askback.outcome"] == "failed"
    assert broken["attributes"]["error.type"] == "tool_error" and broken["status"] == "ERROR"
    assert tampered["attributes"]["askback.outcome"] == "rejected"
    assert tampered["attributes"]["askback.rejection.reason"] == "not_base64url"
    assert tampered["attributes"]["error.type"] == "-32602"
    assert "askback.flow.id" not in tampered["attributes"]  # a state that does not open names no flow
    # A task tool's rounds: a question, then the task (its function's ending is counted in the metrics).
    assert [asked["name"], task["name"]] == ["tools/call tidy"] * 2
    assert [asked["attributes"]["askback.result.type"], task["attributes"]["askback.result.type"]] == [
        "input_required", "task"]
    assert task["links"][0]["span"] == asked["span"] and "askback.outcome" not in task["attributes"]
    # The trace context of params._meta is the span's parent, on the fast route as on the SDK path.
    assert traced["trace"] == TRACEPARENT.split("-")[1] and traced["parent"] == TRACEPARENT.split("-")[2]


def test_metrics_count_flows_by_outcome_rounds_and_durations(seen: dict[str, Any]) -> None:
    m = seen["metrics"]
    flows = {p["attributes"]["askback.outcome"]: p["value"] for p in m["askback.flows"]}
    # One of each per MCP entry (a plan, a task), and the A2A task's completed flow.
    assert flows == {"completed": 5, "declined": 2, "failed": 2, "rejected": 2}
    rounds = {p["attributes"]["askback.outcome"]: (p["count"], p["sum"]) for p in m["askback.flow.rounds"]}
    # Rounds are counted where they are played: a task's flow ends outside any request, with no rounds of its own.
    assert rounds["completed"] == (3, 12) and rounds["declined"] == (2, 4)
    durations = m["mcp.server.operation.duration"]
    by_error: dict[str | None, int] = {}
    for point in durations:
        error = point["attributes"].get("error.type")
        by_error[error] = by_error.get(error, 0) + point["count"]
    assert by_error[None] >= 18 and by_error["tool_error"] == 2 and by_error["-32602"] == 2
    assert {p["attributes"]["mcp.method.name"] for p in durations} == {"tools/call", "tasks/get"}


def test_an_a2a_task_s_messages_are_rounds_linked_through_the_task_record(seen: dict[str, Any]) -> None:
    assert seen["results"]["a2a"] == ["TASK_STATE_INPUT_REQUIRED"] * 3 + ["TASK_STATE_COMPLETED"]
    rounds = seen["spans"]["a2a"]  # askback's attributes on the a2a-sdk's own span of each message
    assert [s["attributes"]["askback.round"] for s in rounds] == [1, 2, 3, 4]
    assert [s["kind"] for s in rounds] == ["SERVER"] * 4
    assert len({s["attributes"]["askback.flow.id"] for s in rounds}) == 1
    assert rounds[3]["attributes"]["askback.outcome"] == "completed"
    assert rounds[0]["links"] == []
    for before, after in itertools.pairwise(rounds):
        assert [(link["trace"], link["span"]) for link in after["links"]] == [(before["trace"], before["span"])]
